package dev.earshot.codegen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Names the schemas of the served API description that the SDK uses (as
 * sdk/models.json lists them) and rewrites them as the OpenAPI 3.0
 * components openapi-generator reads: nullability as {@code nullable}, a
 * value-or-null union as the value, a $ref as what it names, a choice of
 * objects as one object ({@link Choices}), free-form JSON as any value; objects and
 * choices of strings nested in a model become models of their own, named
 * parent + property, and a shape met twice keeps its first name. The Go
 * SDK's internal/genmodels does the same, so both name every model alike.
 */
final class ModelSchemas {
  private static final ObjectMapper CANONICAL = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

  private final Map<String, Object> named = new TreeMap<>();
  private final Map<String, String> byShape = new HashMap<>();
  private final Map<String, String> renames;
  /** The description's own named schemas, which a $ref points into. */
  private final Map<?, ?> components;
  private final Set<String> resolving = new HashSet<>();

  private ModelSchemas(Map<String, String> renames, Map<?, ?> components) {
    this.renames = renames;
    this.components = components;
  }

  /** The components for every model of the list, taken from the description. */
  static Map<String, Object> componentsOf(Map<String, Object> document, ModelNames names) {
    Map<?, ?> components = Json.dig(document, "components", "schemas") instanceof Map<?, ?> c ? c : Map.of();
    var schemas = new ModelSchemas(names.renames(), components);
    for (var model : names.models()) {
      Object picked = Json.pointer(Sources.sourceOf(document, model), model.at(), model.name(), components);
      schemas.add(model.name(), schemas.normalize(picked, model.name(), true));
    }
    return schemas.named;
  }

  private void add(String name, Map<String, Object> schema) {
    named.put(name, schema);
    byShape.putIfAbsent(shapeOf(schema), name);
  }

  private static String shapeOf(Map<String, Object> schema) {
    try {
      return CANONICAL.writeValueAsString(schema);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private Map<String, Object> hoist(String name, Map<String, Object> schema) {
    String existing = byShape.get(shapeOf(schema));
    if (existing != null) return ref(existing);
    String renamed = renames.getOrDefault(name, name);
    add(renamed, schema);
    return ref(renamed);
  }

  private static Map<String, Object> ref(String name) {
    return new TreeMap<>(Map.of("$ref", "#/components/schemas/" + name));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Object> normalize(Object schema, String name, boolean top) {
    Map<String, Object> in = schema instanceof Map<?, ?> map ? (Map<String, Object>) map : Map.of();
    if (in.get("$ref") instanceof String r) return resolve(r.replaceFirst("^#/components/schemas/", ""), in, name, top);
    Map<String, Object> object = Choices.ofObjects(in, components);
    if (object != null) in = object;
    var out = new TreeMap<String, Object>();
    if (in.get("description") instanceof String d) out.put("description", d);
    boolean nullable = false;
    if (in.get("type") instanceof String t) {
      out.put("type", t);
    } else if (in.get("type") instanceof List<?> types) {
      var kinds = new ArrayList<String>();
      for (Object k : types) {
        if ("null".equals(k)) nullable = true;
        else if (k instanceof String ks) kinds.add(ks);
      }
      if (kinds.size() == 1) out.put("type", kinds.get(0));
    }
    for (String key : List.of("anyOf", "oneOf")) {
      if (!(in.get(key) instanceof List<?> variants)) continue;
      var kept = new ArrayList<Object>();
      for (Object v : variants) {
        if (v instanceof Map<?, ?> vm && "null".equals(vm.get("type"))) nullable = true;
        else kept.add(v);
      }
      if (kept.size() == 1) {
        for (var entry : normalize(kept.get(0), name, top).entrySet()) {
          if (!entry.getKey().equals("description") || !out.containsKey("description")) out.put(entry.getKey(), entry.getValue());
        }
      } else if (allStrings(kept)) {
        out.put("type", "string");
        List<Object> values = Choices.stringValues(kept);
        if (values != null) out.put("enum", values);
      }
    }
    if ("number".equals(out.get("type"))) out.put("format", "double");
    if (in.containsKey("const")) out.put("enum", List.of(in.get("const")));
    if (in.get("enum") instanceof List<?> e) out.put("enum", e);
    if (nullable) out.put("nullable", true);
    if (in.containsKey("items")) {
      String item = singular(name);
      out.put("items", nested(item, normalize(in.get("items"), item, false)));
    }
    if (in.get("additionalProperties") instanceof Map<?, ?> additional) {
      out.put("additionalProperties", normalize(additional, name + "Value", false));
    }
    if (in.get("properties") instanceof Map<?, ?> properties) {
      properties(out, in, (Map<String, Object>) properties, name, top);
    } else if ("object".equals(out.get("type")) && !out.containsKey("additionalProperties")) {
      out.put("additionalProperties", new TreeMap<>());
    }
    return out;
  }

  /**
   * Reads a $ref as the schema it names, so that a model's shape and name do
   * not depend on which parts of the description are components. The
   * free-form JSON value (JsonValue), and any schema that refers to itself, is
   * any value.
   */
  private Map<String, Object> resolve(String component, Map<String, Object> in, String name, boolean top) {
    Object target = components.get(component);
    if (target == null || component.startsWith("JsonValue") || !resolving.add(component)) return new TreeMap<>();
    try {
      var out = normalize(target, name, top);
      if (in.get("description") instanceof String d) out.put("description", d);
      return out;
    } finally {
      resolving.remove(component);
    }
  }

  private void properties(Map<String, Object> out, Map<String, Object> in, Map<String, Object> properties, String name, boolean top) {
    var props = new TreeMap<String, Object>();
    for (String key : new TreeSet<>(properties.keySet())) {
      if (top && key.equals("ok")) continue;
      String child = name + pascal(key);
      props.put(key, nested(child, normalize(properties.get(key), child, false)));
    }
    out.put("properties", props);
    if (in.get("required") instanceof List<?> required) {
      var kept = required.stream().filter(props::containsKey).toList();
      if (!kept.isEmpty()) out.put("required", kept);
    }
  }

  private Map<String, Object> nested(String name, Map<String, Object> schema) {
    List<?> choices = schema.get("enum") instanceof List<?> e ? e : null;
    if (!schema.containsKey("properties") && (!"string".equals(schema.get("type")) || choices == null || choices.size() < 2)) return schema;
    boolean nullable = Boolean.TRUE.equals(schema.remove("nullable"));
    // A choice shared by several fields is named by its values alone, not the first field's description.
    if (choices != null) schema.remove("description");
    var hoisted = hoist(name, schema);
    if (!nullable) return hoisted;
    var wrapped = new TreeMap<String, Object>();
    wrapped.put("allOf", List.of(hoisted));
    wrapped.put("nullable", true);
    return wrapped;
  }

  private static boolean allStrings(List<Object> variants) {
    return !variants.isEmpty() && variants.stream().allMatch(v -> v instanceof Map<?, ?> m && "string".equals(m.get("type")));
  }

  static String singular(String word) {
    if (word.endsWith("ies")) return word.substring(0, word.length() - 3) + "y";
    return word.endsWith("s") ? word.substring(0, word.length() - 1) : word;
  }

  static String pascal(String key) {
    var b = new StringBuilder();
    boolean upper = true;
    for (char c : key.toCharArray()) {
      if (c == '_' || c == '-' || c == '.') {
        upper = true;
        continue;
      }
      b.append(upper ? Character.toUpperCase(c) : c);
      upper = false;
    }
    return b.toString();
  }
}
