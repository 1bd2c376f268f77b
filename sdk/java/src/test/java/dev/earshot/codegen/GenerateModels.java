package dev.earshot.codegen;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.openapitools.codegen.DefaultGenerator;
import org.openapitools.codegen.config.CodegenConfigurator;

/**
 * Regenerates src/main/java/dev/earshot/models from the /openapi.json a
 * running Earshot serves (EARSHOT_BASE_URL, else http://127.0.0.1:8080):
 * {@code mvn -q -B -Pmodels process-test-classes}. openapi-generator's java
 * generator writes the models, as records with builders, through the
 * template in src/test/resources/codegen.
 */
public final class GenerateModels {
  static final Path MODELS = Path.of("src/main/java/dev/earshot/models");
  private static final ObjectMapper JSON = new ObjectMapper();

  private GenerateModels() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    String spec = args.length > 0 ? args[0] : defaultSpec();
    generate(spec, MODELS);
    System.out.println("models regenerated from " + spec + " into " + MODELS);
  }

  static String defaultSpec() {
    String base = System.getenv().getOrDefault("EARSHOT_BASE_URL", "http://127.0.0.1:8080");
    base = base.replaceAll("/+$", "").replaceAll("/api/v1$", "");
    return base + "/openapi.json";
  }

  /** Writes the models of the description at spec (a URL) into out, replacing what is there. */
  static void generate(String spec, Path out) throws IOException, InterruptedException {
    var names = JSON.readValue(Path.of("../models.json").toFile(), ModelNames.class);
    Map<String, Object> document = JSON.readValue(load(spec), new TypeReference<>() {});
    var components = ModelSchemas.componentsOf(document, names);
    var input = new TreeMap<String, Object>();
    input.put("openapi", "3.0.3");
    input.put("info", Map.of("title", "Earshot API models", "version", "1.0.0"));
    input.put("paths", Map.of());
    input.put("components", Map.of("schemas", components));
    Path work = Files.createTempDirectory("earshot-models");
    try {
      Path inputFile = work.resolve("models.openapi.json");
      JSON.writerWithDefaultPrettyPrinter().writeValue(inputFile.toFile(), input);
      var configurator = new CodegenConfigurator()
          .setGeneratorName("java")
          .setInputSpec(inputFile.toString())
          .setOutputDir(work.resolve("out").toString())
          .setTemplateDir(Path.of("src/test/resources/codegen").toAbsolutePath().toString())
          .setModelPackage("dev.earshot.models")
          .setValidateSpec(false)
          .addGlobalProperty("models", "")
          .addGlobalProperty("modelDocs", "false")
          .addGlobalProperty("modelTests", "false")
          .addAdditionalProperty("hideGenerationTimestamp", true)
          .addAdditionalProperty("openApiNullable", false)
          .addAdditionalProperty("sourceFolder", "src/main/java");
      new DefaultGenerator().opts(configurator.toClientOptInput()).generate();
      replace(work.resolve("out/src/main/java/dev/earshot/models"), out);
    } finally {
      delete(work);
    }
  }

  private static byte[] load(String spec) throws IOException, InterruptedException {
    var client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    var response = client.send(HttpRequest.newBuilder(URI.create(spec)).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) throw new IOException("GET " + spec + " answered " + response.statusCode());
    return response.body();
  }

  private static void replace(Path generated, Path out) throws IOException {
    Files.createDirectories(out);
    try (Stream<Path> old = Files.list(out)) {
      for (Path file : old.filter(f -> f.toString().endsWith(".java")).toList()) Files.delete(file);
    }
    try (Stream<Path> files = Files.list(generated)) {
      for (Path file : files.toList()) Files.copy(file, out.resolve(file.getFileName()));
    }
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
    }
  }

  /** The models folder's files, by name. */
  static Map<String, String> filesOf(Path dir) throws IOException {
    var files = new TreeMap<String, String>();
    try (Stream<Path> list = Files.list(dir)) {
      for (Path file : list.toList()) files.put(file.getFileName().toString(), Files.readString(file));
    }
    return files;
  }

  static List<String> differences(Map<String, String> a, Map<String, String> b) {
    var keys = new java.util.TreeSet<>(a.keySet());
    keys.addAll(b.keySet());
    return keys.stream().filter(k -> !java.util.Objects.equals(a.get(k), b.get(k))).toList();
  }
}
