package dev.earshot.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelSchemasTest {
  /** A description in the shapes the served one uses: 3.1 nullability, an inline list item, a choice of strings met twice, a $ref into components. */
  private static final String DESCRIPTION = """
      {
        "paths": {"/api/v1/things": {"get": {
          "parameters": [
            {"in": "query", "name": "cursor", "schema": {"type": "string"}},
            {"in": "query", "name": "status", "required": true, "schema": {"type": "string", "enum": ["open", "closed"]}}
          ],
          "responses": {"200": {"content": {"application/json": {"schema": {
            "type": "object",
            "properties": {
              "ok": {"type": "boolean", "enum": [true]},
              "items": {"type": "array", "items": {"$ref": "#/components/schemas/Thing"}}
            }
          }}}}}
        }}},
        "components": {"schemas": {
          "Thing": {
            "type": "object",
            "required": ["id", "status", "size"],
            "properties": {
              "id": {"type": "string"},
              "status": {"type": "string", "enum": ["open", "closed"]},
              "size": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
              "owner": {"type": ["object", "null"], "properties": {"name": {"type": ["string", "null"]}}},
              "detail": {"$ref": "#/components/schemas/JsonValue"}
            }
          },
          "JsonValue": {"$id": "#/components/schemas/JsonValue", "anyOf": [{"type": "string"}]}
        }}
      }
      """;

  @Test
  void namesAndRewritesTheModels() throws Exception {
    var json = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    Map<String, Object> document = json.readValue(DESCRIPTION, new TypeReference<>() {});
    var names = new ModelNames(
        List.of(
            new ModelNames.Model("Thing", "GET /api/v1/things", "response", "/properties/items/items"),
            new ModelNames.Model("ThingListParams", "GET /api/v1/things", "query", "")),
        Map.of("ThingStatus", "Status"));
    // The same components as the Go SDK's genmodels makes of it (internal/genmodels/schemas_test.go).
    assertEquals(
        "{\"Status\":{\"enum\":[\"open\",\"closed\"],\"type\":\"string\"},\"Thing\":{\"properties\":{\"detail\":{},\"id\":{\"type\":\"string\"},\"owner\":{\"allOf\":[{\"$ref\":\"#/components/schemas/ThingOwner\"}],\"nullable\":true},\"size\":{\"nullable\":true,\"type\":\"integer\"},\"status\":{\"$ref\":\"#/components/schemas/Status\"}},\"required\":[\"id\",\"status\",\"size\"],\"type\":\"object\"},\"ThingListParams\":{\"properties\":{\"status\":{\"$ref\":\"#/components/schemas/Status\"}},\"required\":[\"status\"],\"type\":\"object\"},\"ThingOwner\":{\"properties\":{\"name\":{\"nullable\":true,\"type\":\"string\"}},\"type\":\"object\"}}",
        json.writeValueAsString(ModelSchemas.componentsOf(document, names)));
  }

  /**
   * A body that is one of several objects, as a provider connection is one per provider: each has a constant
   * discriminator and properties of its own, and one property is again a choice of objects.
   */
  private static final String CHOICES = """
      {
        "paths": {"/api/v1/links": {"post": {"requestBody": {"content": {"application/json": {"schema": {
          "oneOf": [{"$ref": "#/components/schemas/NewA"}, {"$ref": "#/components/schemas/NewB"}]
        }}}}}}},
        "components": {"schemas": {
          "NewA": {"type": "object", "required": ["kind", "name", "key"],
            "properties": {"kind": {"type": "string", "const": "a"}, "name": {"type": "string"}, "key": {"type": "string"}}},
          "NewB": {"type": "object", "required": ["kind", "name"],
            "properties": {"kind": {"type": "string", "const": "b"}, "name": {"type": "string"},
              "auth": {"anyOf": [{"type": "object", "properties": {"token": {"type": "string"}}}, {"type": "object", "properties": {"secret": {"type": "string"}}}]}}}
        }}
      }
      """;

  @Test
  void mergesAChoiceOfObjectsIntoOne() throws Exception {
    var json = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    Map<String, Object> document = json.readValue(CHOICES, new TypeReference<>() {});
    var names = new ModelNames(List.of(new ModelNames.Model("LinkCreateParams", "POST /api/v1/links", "body", "")), Map.of());
    // The same components as the Go SDK's genmodels makes of it (internal/genmodels/schemas_test.go).
    assertEquals(
        "{\"LinkCreateParams\":{\"properties\":{\"auth\":{\"$ref\":\"#/components/schemas/LinkCreateParamsAuth\"},\"key\":{\"type\":\"string\"},\"kind\":{\"$ref\":\"#/components/schemas/LinkCreateParamsKind\"},\"name\":{\"type\":\"string\"}},\"required\":[\"kind\",\"name\"],\"type\":\"object\"},\"LinkCreateParamsAuth\":{\"properties\":{\"secret\":{\"type\":\"string\"},\"token\":{\"type\":\"string\"}},\"type\":\"object\"},\"LinkCreateParamsKind\":{\"enum\":[\"a\",\"b\"],\"type\":\"string\"}}",
        json.writeValueAsString(ModelSchemas.componentsOf(document, names)));
  }
}
