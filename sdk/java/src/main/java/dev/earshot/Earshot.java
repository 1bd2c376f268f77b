package dev.earshot;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.function.Function;

/**
 * The Earshot API client: one object, the API's resources as its methods.
 *
 * <pre>{@code
 * Earshot client = Earshot.builder().build(); // EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET
 * for (Call call : client.calls().list(CallListParams.builder().agentId("support").build())) { ... }
 * }</pre>
 *
 * It is thread-safe; make one and share it.
 */
public final class Earshot {
  /** This SDK's version; it follows the API's (1.0.0). */
  public static final String VERSION = "1.0.0";
  /** Where the client goes without {@code baseUrl} or EARSHOT_BASE_URL. */
  public static final String DEFAULT_BASE_URL = "http://127.0.0.1:8080/api/v1";

  private final Transport transport;
  private final String webhookSecret;
  private final CallService calls;
  private final OutcomeService outcomes;
  private final IncidentService incidents;
  private final AlertService alerts;
  private final AlertRuleService alertRules;
  private final DeploymentService deployments;
  private final MetricService metrics;
  private final RealtimeService realtime;
  private final UsageService usage;
  private final InvoiceService invoices;
  private final AuditService audit;
  private final KeyService keys;
  private final WebhookSecretService webhookSecretResource;
  private final ProviderService providers;
  private final HealthService health;
  private final TenantService tenant;
  private final IngestService ingest;
  private final StreamService stream;
  private final WebhookService webhooks;

  private Earshot(Builder builder) {
    String apiKey = firstOf(builder.apiKey, builder.environment.apply("EARSHOT_API_KEY"));
    if (apiKey == null) throw new IllegalArgumentException("earshot: no API key: call apiKey(...) or set EARSHOT_API_KEY");
    String baseUrl = apiBase(firstOf(builder.baseUrl, builder.environment.apply("EARSHOT_BASE_URL"), DEFAULT_BASE_URL));
    this.webhookSecret = firstOf(builder.webhookSecret, builder.environment.apply("EARSHOT_WEBHOOK_SECRET"));
    // HTTP/1.1: over plain http the JDK would offer an h2c upgrade, which Node servers take for a protocol switch and answer wrongly.
    HttpClient http = builder.httpClient != null ? builder.httpClient : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    this.transport = new Transport(apiKey, baseUrl, builder.timeout, builder.maxRetries, http);
    this.calls = new CallService(transport);
    this.outcomes = new OutcomeService(transport);
    this.incidents = new IncidentService(transport);
    this.alerts = new AlertService(transport);
    this.alertRules = new AlertRuleService(transport);
    this.deployments = new DeploymentService(transport);
    this.metrics = new MetricService(transport);
    this.realtime = new RealtimeService(transport);
    this.usage = new UsageService(transport);
    this.invoices = new InvoiceService(transport);
    this.audit = new AuditService(transport);
    this.keys = new KeyService(transport);
    this.webhookSecretResource = new WebhookSecretService(transport);
    this.providers = new ProviderService(transport);
    this.health = new HealthService(transport);
    this.tenant = new TenantService(transport);
    this.ingest = new IngestService(transport, webhookSecret);
    this.stream = new StreamService(transport);
    this.webhooks = new WebhookService(webhookSecret);
  }

  /** A builder; every setting has a default. */
  public static Builder builder() {
    return new Builder();
  }

  /** The API's base URL this client uses, ending in /api/v1. */
  public String baseUrl() {
    return transport.baseUrl();
  }

  /** Calls: list, retrieve, erase. */
  public CallService calls() {
    return calls;
  }

  /** Call outcomes: list and create. */
  public OutcomeService outcomes() {
    return outcomes;
  }

  /** Incidents: list, create, update. */
  public IncidentService incidents() {
    return incidents;
  }

  /** Alerts, their notifications and the alert webhook. */
  public AlertService alerts() {
    return alerts;
  }

  /** Alert rules: list, create, retrieve, update, delete. */
  public AlertRuleService alertRules() {
    return alertRules;
  }

  /** Deployments: list, create, retrieve, impact. */
  public DeploymentService deployments() {
    return deployments;
  }

  /** Metrics: the catalogue and series. */
  public MetricService metrics() {
    return metrics;
  }

  /** The live snapshot. */
  public RealtimeService realtime() {
    return realtime;
  }

  /** Usage meters. */
  public UsageService usage() {
    return usage;
  }

  /** The invoice history. */
  public InvoiceService invoices() {
    return invoices;
  }

  /** The audit log. */
  public AuditService audit() {
    return audit;
  }

  /** API keys: create, list, retrieve, rotate, revoke. */
  public KeyService keys() {
    return keys;
  }

  /** The webhook secret: rotate. */
  public WebhookSecretService webhookSecret() {
    return webhookSecretResource;
  }

  /** Provider connections: connect, list, retrieve, rotate, disable, enable, delete. */
  public ProviderService providers() {
    return providers;
  }

  /** The service's health. */
  public HealthService health() {
    return health;
  }

  /** The calling key's tenant. */
  public TenantService tenant() {
    return tenant;
  }

  /** Signed event ingest and the batcher. */
  public IngestService ingest() {
    return ingest;
  }

  /** The WebSocket stream of the tenant's events. */
  public StreamService stream() {
    return stream;
  }

  /** Verifying alert notifications. */
  public WebhookService webhooks() {
    return webhooks;
  }

  /** Accepts the service root as well as {root}/api/v1. */
  static String apiBase(String url) {
    String trimmed = url.replaceAll("/+$", "");
    return trimmed.endsWith("/api/v1") ? trimmed : trimmed + "/api/v1";
  }

  private static String firstOf(String... values) {
    for (String value : values) {
      if (value != null && !value.isEmpty()) return value;
    }
    return null;
  }

  /** Builds an {@link Earshot} client. */
  public static final class Builder {
    private String apiKey;
    private String baseUrl;
    private String webhookSecret;
    private Duration timeout = Duration.ofSeconds(60);
    private int maxRetries = 2;
    private HttpClient httpClient;
    private Function<String, String> environment = System::getenv;

    private Builder() {}

    /** Where the EARSHOT_* defaults are read from (the process environment), for tests. */
    Builder environment(Function<String, String> environment) {
      this.environment = environment;
      return this;
    }

    /** The API key (default EARSHOT_API_KEY). */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** The API's base URL, ending in /api/v1, or the service root (default EARSHOT_BASE_URL, else {@link Earshot#DEFAULT_BASE_URL}). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The tenant's webhook secret, which signs ingest requests and verifies notifications (default EARSHOT_WEBHOOK_SECRET). */
    public Builder webhookSecret(String webhookSecret) {
      this.webhookSecret = webhookSecret;
      return this;
    }

    /** How long each attempt of a request may take (default 60 s). */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** How many times a request is retried after its first attempt (default 2). */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = maxRetries;
      return this;
    }

    /** The HttpClient the requests go through. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    /** The client; without an API key it fails, naming EARSHOT_API_KEY. */
    public Earshot build() {
      return new Earshot(this);
    }
  }
}
