package dev.earshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ClientTest {
  @Test
  @DisplayName("[client-from-environment] the environment alone configures a client; the service root means {root}/api/v1; no key names EARSHOT_API_KEY")
  void fromEnvironment() {
    var target = LiveTarget.get();
    var client = Earshot.builder().build();
    assertEquals(target.baseUrl, client.baseUrl());
    assertNotNull(client.realtime().retrieve());

    var fromRoot = target.client(b -> b.baseUrl(target.baseUrl.replaceAll("/api/v1$", "") + "/"));
    assertEquals(target.baseUrl, fromRoot.baseUrl());
    assertNotNull(fromRoot.calls().list().firstPage());

    var thrown = assertThrows(IllegalArgumentException.class, () -> Earshot.builder().environment(Map.<String, String>of()::get).build());
    assertTrue(thrown.getMessage().contains("EARSHOT_API_KEY"), thrown.getMessage());
  }
}
