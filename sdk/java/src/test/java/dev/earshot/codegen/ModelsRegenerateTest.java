package dev.earshot.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelsRegenerateTest {
  @Test
  @DisplayName("[models-regenerate] regenerating the models from the served /openapi.json changes nothing")
  void regenerate(@TempDir Path out) throws Exception {
    String base = System.getenv("EARSHOT_BASE_URL");
    if (base == null) throw new AssertionError("this test needs a live Earshot: run it through npm test, or set EARSHOT_BASE_URL");
    GenerateModels.generate(GenerateModels.defaultSpec(), out);
    var checkedIn = GenerateModels.filesOf(GenerateModels.MODELS);
    assertFalse(checkedIn.isEmpty());
    assertEquals(List.of(), GenerateModels.differences(checkedIn, GenerateModels.filesOf(out)), "models that differ from what the served description generates: run mvn -q -B -Pmodels process-test-classes against a live Earshot");
  }
}
