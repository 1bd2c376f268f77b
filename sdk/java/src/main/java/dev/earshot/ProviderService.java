package dev.earshot;

import dev.earshot.models.ProviderConnection;
import dev.earshot.models.ProviderConnectionCreateParams;
import dev.earshot.models.ProviderConnectionDeleted;
import dev.earshot.models.ProviderConnectionIssued;
import dev.earshot.models.ProviderConnectionListParams;
import dev.earshot.models.ProviderCredentialRotateParams;
import java.util.Map;

/** The voice providers' webhook connections: /providers (needs providers:read and providers:write). */
public final class ProviderService {
  private final Transport transport;

  ProviderService(Transport transport) {
    this.transport = transport;
  }

  /** Connects a provider; the answer's webhookUrl is what to paste there, and its Standard Webhooks secret is shown only here. */
  public ProviderConnectionIssued connect(ProviderConnectionCreateParams params) {
    return connect(params, RequestOptions.NONE);
  }

  /** Connects a provider, with request options (an Idempotency-Key). */
  public ProviderConnectionIssued connect(ProviderConnectionCreateParams params, RequestOptions options) {
    return transport.call("POST", "/providers", null, params, ProviderConnectionIssued.class, options);
  }

  /** The connections that match params (null for all), page after page. */
  public PagedList<ProviderConnection> list(ProviderConnectionListParams params) {
    return new PagedList<>(transport, "/providers", params, ProviderConnection.class);
  }

  /** Every connection, page after page. */
  public PagedList<ProviderConnection> list() {
    return list(null);
  }

  /** One connection (never its credentials). */
  public ProviderConnection retrieve(String id) {
    return transport.member("GET", Transport.path("/providers/%s", id), "connection", null, ProviderConnection.class, RequestOptions.NONE);
  }

  /** New credentials (or, without them, a new Standard Webhooks secret); the previous ones keep verifying for the overlap. */
  public ProviderConnectionIssued rotate(String id, ProviderCredentialRotateParams params) {
    return transport.call("POST", Transport.path("/providers/%s/rotate", id), null, params, ProviderConnectionIssued.class, RequestOptions.NONE);
  }

  /** Stops taking the provider's deliveries: its webhook answers 403 until the connection is enabled again. */
  public ProviderConnection disable(String id) {
    return transport.member("POST", Transport.path("/providers/%s/disable", id), "connection", Map.of(), ProviderConnection.class, RequestOptions.NONE);
  }

  /** Takes the provider's deliveries again. */
  public ProviderConnection enable(String id) {
    return transport.member("POST", Transport.path("/providers/%s/enable", id), "connection", Map.of(), ProviderConnection.class, RequestOptions.NONE);
  }

  /** Deletes a connection; its webhook URL answers 404 from then on. */
  public ProviderConnectionDeleted delete(String id) {
    return transport.call("DELETE", Transport.path("/providers/%s", id), null, null, ProviderConnectionDeleted.class, RequestOptions.NONE);
  }
}
