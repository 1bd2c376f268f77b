package dev.earshot;

import static dev.earshot.LiveTarget.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.earshot.errors.ApiException;
import dev.earshot.errors.AuthenticationException;
import dev.earshot.errors.IdempotencyConflictException;
import dev.earshot.errors.NotFoundException;
import dev.earshot.errors.PermissionDeniedException;
import dev.earshot.errors.RateLimitException;
import dev.earshot.errors.UnavailableException;
import dev.earshot.errors.ValidationException;
import dev.earshot.models.CallListParams;
import dev.earshot.models.KeyCreateParams;
import dev.earshot.models.OutcomeCreateParams;
import dev.earshot.models.Scope;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class TypedErrorsTest {
  private static <T extends ApiException> T expect(Class<T> type, int status, Executable call) {
    T thrown = assertThrows(type, call);
    assertEquals(status, thrown.status());
    assertFalse(thrown.getMessage().isEmpty());
    return thrown;
  }

  @Test
  @DisplayName("[typed-errors] each code of the Error shape is its typed exception")
  void typedErrors() {
    var target = LiveTarget.get();
    var client = target.client();

    var bad = target.client(b -> b.apiKey("ear_live_00000000000000000000000000000000000000"));
    expect(AuthenticationException.class, 401, () -> bad.calls().list().firstPage());

    var readOnly = client.keys().create(KeyCreateParams.builder().name("read only").scopes(List.of(Scope.CALLS_READ)).build());
    var limited = target.client(b -> b.apiKey(readOnly.secret()));
    expect(PermissionDeniedException.class, 403, () -> limited.outcomes().create(OutcomeCreateParams.builder().callId(unique("call")).type("resolved").build()));

    expect(NotFoundException.class, 404, () -> client.calls().retrieve("no-such-call"));

    var invalid = expect(ValidationException.class, 400, () -> client.calls().list(CallListParams.builder().limit(100000).build()).firstPage());
    assertFalse(invalid.fields().isEmpty());
    assertFalse(invalid.fields().get(0).path().isEmpty());

    var key = RequestOptions.idempotencyKey(unique("key"));
    client.outcomes().create(OutcomeCreateParams.builder().callId(unique("call")).type("resolved").build(), key);
    expect(IdempotencyConflictException.class, 409, () -> client.outcomes().create(OutcomeCreateParams.builder().callId(unique("call")).type("escalated").build(), key));

    target.inject("GET", "/api/v1/calls", Map.of("status", 429, "retryAfter", 7));
    var limitedRate = expect(RateLimitException.class, 429, () -> target.proxied(b -> b.maxRetries(0)).calls().list().firstPage());
    assertEquals(Optional.of(Duration.ofSeconds(7)), limitedRate.retryAfter());

    target.inject("GET", "/api/v1/calls", Map.of("status", 503));
    expect(UnavailableException.class, 503, () -> target.proxied(b -> b.maxRetries(0)).calls().list().firstPage());
  }
}
