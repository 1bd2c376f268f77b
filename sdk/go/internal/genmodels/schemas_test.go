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
