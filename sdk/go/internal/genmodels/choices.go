package main

import (
	"reflect"
	"slices"
)

// choiceOfObjects answers a choice (oneOf, anyOf) of two or more objects as
// one merged object, nullable when null is one of the choices; nil for any
// other schema.
func (s *schemas) choiceOfObjects(in map[string]any) map[string]any {
	variants, _ := in["oneOf"].([]any)
	if variants == nil {
		variants, _ = in["anyOf"].([]any)
	}
	var kept []any
	nullable := false
	for _, v := range variants {
		if vm, ok := v.(map[string]any); ok && vm["type"] == "null" {
			nullable = true
		} else {
			kept = append(kept, v)
		}
	}
	objects := s.objectsOf(kept)
	if len(kept) < 2 || objects == nil {
		return nil
	}
	out := merged(objects)
	if nullable {
		out["type"] = []any{"object", "null"}
	}
	if d, ok := in["description"]; ok {
		out["description"] = d
	}
	return out
}

// objectsOf answers the variants of a choice as object schemas, each $ref
// read as what it names and a nested choice as its own variants; nil when a
// variant is not an object.
func (s *schemas) objectsOf(variants []any) []map[string]any {
	var objects []map[string]any
	for _, v := range variants {
		object, _ := dereference(v, s.components).(map[string]any)
		inner, _ := object["oneOf"].([]any)
		if inner == nil {
			inner, _ = object["anyOf"].([]any)
		}
		if inner != nil {
			nested := s.objectsOf(inner)
			if nested == nil {
				return nil
			}
			objects = append(objects, nested...)
			continue
		}
		if _, ok := object["properties"].(map[string]any); !ok {
			return nil
		}
		objects = append(objects, object)
	}
	return objects
}

// merged is one object holding every property of a choice of objects (a
// provider connection's shapes, one per provider), since Go and Java have no
// union to generate: a property several share is the choice of their schemas,
// and only what every shape requires is required. Which shape a request is
// stays the server's to judge.
func merged(objects []map[string]any) map[string]any {
	choices := map[string][]any{}
	for _, object := range objects {
		for key, property := range object["properties"].(map[string]any) {
			if !slices.ContainsFunc(choices[key], func(c any) bool { return reflect.DeepEqual(c, property) }) {
				choices[key] = append(choices[key], property)
			}
		}
	}
	properties := map[string]any{}
	for key, schemas := range choices {
		properties[key] = schemas[0]
		if len(schemas) > 1 {
			properties[key] = map[string]any{"anyOf": schemas}
		}
	}
	out := map[string]any{"type": "object", "properties": properties}
	first, _ := objects[0]["required"].([]any)
	var required []any
	for _, name := range first {
		if slices.IndexFunc(objects, func(o map[string]any) bool { r, _ := o["required"].([]any); return !slices.Contains(r, name) }) == -1 {
			required = append(required, name)
		}
	}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}

// stringChoices answers every value a choice of strings allows, when each
// variant is a constant or an enum (a discriminator such as `provider`).
func stringChoices(variants []any) []any {
	var values []any
	for _, v := range variants {
		vm, _ := v.(map[string]any)
		enum, _ := vm["enum"].([]any)
		if c, ok := vm["const"]; ok {
			enum = []any{c}
		}
		if enum == nil {
			return nil
		}
		for _, value := range enum {
			if !slices.Contains(values, value) {
				values = append(values, value)
			}
		}
	}
	return values
}
