package dev.earshot;

import dev.earshot.errors.WebhookVerificationException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Alert notifications, verified the Standard Webhooks way: webhook-signature
 * holds {@code v1,<base64>} signatures of webhook-id + "." + webhook-timestamp
 * + "." + body, an HMAC-SHA256 keyed with the secret's base64 (after
 * {@code whsec_}), and the timestamp must be within the tolerance of now.
 */
public final class Webhooks {
  /** How far a notification's timestamp may be from now. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private Webhooks() {}

  /** Verifies a notification and answers its event; a WebhookVerificationException when it does not verify. */
  public static Event verify(String rawBody, Map<String, ?> headers, String secret, Duration tolerance) {
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");
    if (id == null || timestamp == null || signatures == null) throw new WebhookVerificationException("missing webhook-id, webhook-timestamp or webhook-signature");
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.trim());
    } catch (NumberFormatException e) {
      throw new WebhookVerificationException("webhook-timestamp is not Unix seconds");
    }
    if (Duration.between(Instant.ofEpochSecond(seconds), Instant.now()).abs().compareTo(tolerance) > 0) {
      throw new WebhookVerificationException("the timestamp is outside the tolerance");
    }
    byte[] expected = signature(key(secret), id, timestamp, rawBody).getBytes(StandardCharsets.UTF_8);
    for (String candidate : signatures.trim().split("\\s+")) {
      String[] parts = candidate.split(",", 2);
      if (parts.length == 2 && parts[0].equals("v1") && MessageDigest.isEqual(parts[1].getBytes(StandardCharsets.UTF_8), expected)) {
        try {
          return Transport.JSON.readValue(rawBody, Event.class);
        } catch (Exception e) {
          throw new WebhookVerificationException("the body is not an event: " + e.getMessage());
        }
      }
    }
    throw new WebhookVerificationException("no matching signature");
  }

  /** The Standard Webhooks headers of a body, for tests. */
  public static Map<String, String> sign(String body, String secret, String id, Instant timestamp) {
    String seconds = Long.toString(timestamp.getEpochSecond());
    return Map.of("webhook-id", id, "webhook-timestamp", seconds, "webhook-signature", "v1," + signature(key(secret), id, seconds, body));
  }

  private static String header(Map<String, ?> headers, String name) {
    for (var entry : headers.entrySet()) {
      if (!entry.getKey().equalsIgnoreCase(name)) continue;
      Object value = entry.getValue();
      if (value instanceof List<?> list) return list.isEmpty() ? null : String.valueOf(list.get(0));
      return value == null ? null : String.valueOf(value);
    }
    return null;
  }

  /**
   * Decodes a whsec_ secret: standard base64, as the Standard Webhooks
   * libraries read it, or the URL-safe alphabet Earshot's tenant secrets are
   * written in.
   */
  private static byte[] key(String secret) {
    if (secret == null) throw new WebhookVerificationException("no webhook secret: set EARSHOT_WEBHOOK_SECRET or pass one");
    String encoded = secret.startsWith("whsec_") ? secret.substring(6) : secret;
    for (Base64.Decoder decoder : List.of(Base64.getDecoder(), Base64.getUrlDecoder())) {
      try {
        return decoder.decode(encoded);
      } catch (IllegalArgumentException e) {
        // Try the next alphabet.
      }
    }
    throw new WebhookVerificationException("the secret is not whsec_ and base64");
  }

  private static String signature(byte[] key, String id, String timestamp, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }
}
