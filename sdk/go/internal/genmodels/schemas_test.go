package main

import (
	"encoding/json"
	"testing"
)

// A description in the shapes the served one uses: 3.1 nullability, an
// inline list item, a choice of strings met twice, a $ref into components.
const description = `{
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
}`

func TestComponents(t *testing.T) {
	var document map[string]any
	if err := json.Unmarshal([]byte(description), &document); err != nil {
		t.Fatal(err)
	}
	names := modelNames{
		Models: []model{
			{Name: "Thing", Operation: "GET /api/v1/things", From: "response", At: "/properties/items/items"},
			{Name: "ThingListParams", Operation: "GET /api/v1/things", From: "query"},
		},
		Renames: map[string]string{"ThingStatus": "Status"},
	}
	components, err := componentsOf(document, names)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(components)
	want := `{"Status":{"enum":["open","closed"],"type":"string"},` +
		`"Thing":{"properties":{"detail":{},"id":{"type":"string"},"owner":{"allOf":[{"$ref":"#/components/schemas/ThingOwner"}],"nullable":true},` +
		`"size":{"nullable":true,"type":"integer"},"status":{"$ref":"#/components/schemas/Status"}},"required":["id","status","size"],"type":"object"},` +
		`"ThingListParams":{"properties":{"status":{"$ref":"#/components/schemas/Status"}},"required":["status"],"type":"object"},` +
		`"ThingOwner":{"properties":{"name":{"nullable":true,"type":"string"}},"type":"object"}}`
	if string(got) != want {
		t.Fatalf("components\n got %s\nwant %s", got, want)
	}
}

// A body that is one of several objects, as a provider connection is one per
// provider: each has a constant discriminator and properties of its own, and
// one property is again a choice of objects.
const choices = `{
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
}`

func TestChoiceOfObjects(t *testing.T) {
	var document map[string]any
	if err := json.Unmarshal([]byte(choices), &document); err != nil {
		t.Fatal(err)
	}
	names := modelNames{Models: []model{{Name: "LinkCreateParams", Operation: "POST /api/v1/links", From: "body"}}}
	components, err := componentsOf(document, names)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(components)
	want := `{"LinkCreateParams":{"properties":{"auth":{"$ref":"#/components/schemas/LinkCreateParamsAuth"},"key":{"type":"string"},` +
		`"kind":{"$ref":"#/components/schemas/LinkCreateParamsKind"},"name":{"type":"string"}},"required":["kind","name"],"type":"object"},` +
		`"LinkCreateParamsAuth":{"properties":{"secret":{"type":"string"},"token":{"type":"string"}},"type":"object"},` +
		`"LinkCreateParamsKind":{"enum":["a","b"],"type":"string"}}`
	if string(got) != want {
		t.Fatalf("components\n got %s\nwant %s", got, want)
	}
}
