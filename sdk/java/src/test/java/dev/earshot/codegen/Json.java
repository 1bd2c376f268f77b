package dev.earshot.codegen;

import java.util.List;
import java.util.Map;

/** Walking a parsed JSON document. */
final class Json {
  private Json() {}

  static Object dig(Object value, String... keys) {
    for (String key : keys) {
      if (!(value instanceof Map<?, ?> map)) return null;
      value = map.get(key);
    }
    return value;
  }

  /** Follows a JSON pointer ("/properties/items/items") into a schema, and through each $ref it meets into the description's components. */
  static Object pointer(Object value, String at, String model, Map<?, ?> components) {
    if (at.isEmpty()) return value;
    for (String token : at.substring(1).split("/")) {
      value = dereference(value, components);
      if (value instanceof Map<?, ?> map) value = map.get(token);
      else if (value instanceof List<?> list && token.matches("\\d+") && Integer.parseInt(token) < list.size()) value = list.get(Integer.parseInt(token));
      else value = null;
      if (value == null) throw new IllegalArgumentException(model + ": nothing at " + at);
    }
    return value;
  }

  /** The component a {"$ref": ...} names, or the value itself. */
  static Object dereference(Object value, Map<?, ?> components) {
    for (int i = 0; i < 10 && value instanceof Map<?, ?> map && map.get("$ref") instanceof String ref; i++) {
      value = components.get(ref.replaceFirst("^#/components/schemas/", ""));
    }
    return value;
  }
}
