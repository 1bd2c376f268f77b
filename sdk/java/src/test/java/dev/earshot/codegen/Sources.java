package dev.earshot.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Where in the description a model is taken from. */
final class Sources {
  private Sources() {}

  static Object sourceOf(Map<String, Object> document, ModelNames.Model model) {
    String[] parts = model.operation().split(" ", 2);
    if (!(Json.dig(document, "paths", parts[1], parts[0].toLowerCase()) instanceof Map<?, ?> operation)) {
      throw new IllegalArgumentException(model.name() + ": the description has no operation " + model.operation());
    }
    return switch (model.from()) {
      case "body" -> Json.dig(operation, "requestBody", "content", "application/json", "schema");
      case "response" -> {
        for (String status : List.of("200", "201", "202")) {
          Object schema = Json.dig(operation, "responses", status, "content", "application/json", "schema");
          if (schema != null) yield schema;
        }
        throw new IllegalArgumentException(model.name() + ": " + model.operation() + " answers no JSON");
      }
      case "query" -> queryObject(operation);
      default -> throw new IllegalArgumentException(model.name() + ": unknown source " + model.from());
    };
  }

  /** An operation's query parameters as one object schema; the cursor and page are the SDK's to manage. */
  private static Map<String, Object> queryObject(Map<?, ?> operation) {
    var properties = new TreeMap<String, Object>();
    var required = new ArrayList<Object>();
    if (operation.get("parameters") instanceof List<?> parameters) {
      for (Object p : parameters) {
        if (!(p instanceof Map<?, ?> parameter) || !"query".equals(parameter.get("in"))) continue;
        String name = String.valueOf(parameter.get("name"));
        if (name.equals("cursor") || name.equals("page")) continue;
        var property = new TreeMap<String, Object>();
        if (parameter.get("schema") instanceof Map<?, ?> schema) schema.forEach((k, v) -> property.put(String.valueOf(k), v));
        if (parameter.get("description") instanceof String d) property.put("description", d);
        properties.put(name, property);
        if (Boolean.TRUE.equals(parameter.get("required"))) required.add(name);
      }
    }
    var object = new TreeMap<String, Object>();
    object.put("type", "object");
    object.put("properties", properties);
    if (!required.isEmpty()) object.put("required", required);
    return object;
  }
}
