package dev.earshot.codegen;

import java.util.List;
import java.util.Map;

/** sdk/models.json: the models every SDK generates, and better names for some nested ones. */
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
record ModelNames(List<Model> models, Map<String, String> renames) {
  /** One model: the 2xx answer (response), request body (body) or query (query) of an operation, at a JSON pointer. */
  record Model(String name, String operation, String from, String at) {}
}
