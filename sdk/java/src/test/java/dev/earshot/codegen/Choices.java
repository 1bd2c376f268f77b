package dev.earshot.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Choices (oneOf, anyOf) that Java has no union to generate: a choice of
 * objects (a provider connection's shapes, one per provider) becomes one
 * object, and a choice of string constants one enum. The Go SDK's
 * internal/genmodels/choices.go does the same, so both name every model alike.
 */
final class Choices {
  private Choices() {}

  /** A choice of two or more objects as one merged object, nullable when null is one of the choices; null for any other schema. */
  static Map<String, Object> ofObjects(Map<String, Object> in, Map<?, ?> components) {
    Object variants = in.containsKey("oneOf") ? in.get("oneOf") : in.get("anyOf");
    if (!(variants instanceof List<?> list)) return null;
    var kept = new ArrayList<Object>();
    boolean nullable = false;
    for (Object v : list) {
      if (v instanceof Map<?, ?> vm && "null".equals(vm.get("type"))) nullable = true;
      else kept.add(v);
    }
    var objects = objectsOf(kept, components);
    if (kept.size() < 2 || objects == null) return null;
    var out = merged(objects);
    if (nullable) out.put("type", List.of("object", "null"));
    if (in.containsKey("description")) out.put("description", in.get("description"));
    return out;
  }

  /** The variants as object schemas, each $ref read as what it names and a nested choice as its own variants; null when one is not an object. */
  private static List<Map<?, ?>> objectsOf(List<?> variants, Map<?, ?> components) {
    var objects = new ArrayList<Map<?, ?>>();
    for (Object v : variants) {
      if (!(Json.dereference(v, components) instanceof Map<?, ?> object)) return null;
      Object inner = object.containsKey("oneOf") ? object.get("oneOf") : object.get("anyOf");
      if (inner instanceof List<?> choice) {
        var nested = objectsOf(choice, components);
        if (nested == null) return null;
        objects.addAll(nested);
      } else if (object.get("properties") instanceof Map<?, ?>) {
        objects.add(object);
      } else {
        return null;
      }
    }
    return objects;
  }

  /**
   * Every property of the objects: one several share is the choice of their
   * schemas, and only what every object requires is required. Which shape a
   * request is stays the server's to judge.
   */
  private static Map<String, Object> merged(List<Map<?, ?>> objects) {
    var choices = new TreeMap<String, List<Object>>();
    for (var object : objects) {
      for (var property : ((Map<?, ?>) object.get("properties")).entrySet()) {
        var schemas = choices.computeIfAbsent((String) property.getKey(), k -> new ArrayList<>());
        if (!schemas.contains(property.getValue())) schemas.add(property.getValue());
      }
    }
    var properties = new TreeMap<String, Object>();
    choices.forEach((key, schemas) -> properties.put(key, schemas.size() == 1 ? schemas.get(0) : Map.of("anyOf", schemas)));
    var out = new TreeMap<String, Object>();
    out.put("type", "object");
    out.put("properties", properties);
    var required = new ArrayList<Object>();
    if (objects.get(0).get("required") instanceof List<?> first) {
      for (Object name : first) {
        if (objects.stream().allMatch(o -> o.get("required") instanceof List<?> r && r.contains(name))) required.add(name);
      }
    }
    if (!required.isEmpty()) out.put("required", required);
    return out;
  }

  /** Every value a choice of strings allows, when each variant is a constant or an enum (a discriminator such as {@code provider}); null otherwise. */
  static List<Object> stringValues(List<Object> variants) {
    var values = new ArrayList<Object>();
    for (Object v : variants) {
      if (!(v instanceof Map<?, ?> vm)) return null;
      List<?> choices = vm.containsKey("const") ? List.of(vm.get("const")) : vm.get("enum") instanceof List<?> e ? e : null;
      if (choices == null) return null;
      for (Object value : choices) {
        if (!values.contains(value)) values.add(value);
      }
    }
    return values;
  }
}
