package dev.earshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SigningTest {
  @Test
  @DisplayName("[signing-vectors] the ingest signature equals the server's vectors")
  void vectors() throws Exception {
    JsonNode vectors = new ObjectMapper().readTree(new File("../signing-vectors.json")).path("vectors");
    assertFalse(vectors.isEmpty());
    for (JsonNode v : vectors) {
      String body = v.path("body").asText();
      assertEquals(v.path("signature").asText(), IngestService.signature(v.path("secret").asText(), v.path("timestamp").asText(), body.getBytes(StandardCharsets.UTF_8)), body);
    }
  }
}
