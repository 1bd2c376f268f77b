package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
)

// schemas collects the components: each model of the table and every object
// nested in one, hoisted under its parent's name so that Go sees named types.
// Nested schemas of the same shape share the first name given to that shape.
type schemas struct {
	named   map[string]any
	byShape map[string]string
	renames map[string]string
	// components are the description's own named schemas, which a $ref points into.
	components map[string]any
	resolving  map[string]bool
}

func componentsOf(document map[string]any, names modelNames) (map[string]any, error) {
	components, _ := dig(document, "components", "schemas").(map[string]any)
	s := &schemas{named: map[string]any{}, byShape: map[string]string{}, renames: names.Renames, components: components, resolving: map[string]bool{}}
	for _, m := range names.Models {
		source, err := sourceOf(document, m)
		if err != nil {
			return nil, err
		}
		picked, err := pointer(source, m.At, components)
		if err != nil {
			return nil, fmt.Errorf("%s: %s%s: %w", m.Name, m.Operation, m.At, err)
		}
		s.add(m.Name, s.normalize(picked, m.Name, true))
	}
	return s.named, nil
}

func (s *schemas) add(name string, schema map[string]any) {
	s.named[name] = schema
	if _, seen := s.byShape[shapeOf(schema)]; !seen {
		s.byShape[shapeOf(schema)] = name
	}
}

func shapeOf(schema map[string]any) string {
	text, _ := json.Marshal(schema)
	return string(text)
}

// hoist names a nested object schema, or finds the name its shape already has.
func (s *schemas) hoist(name string, schema map[string]any) map[string]any {
	if existing, ok := s.byShape[shapeOf(schema)]; ok {
		return ref(existing)
	}
	if renamed, ok := s.renames[name]; ok {
		name = renamed
	}
	s.add(name, schema)
	return ref(name)
}

func ref(name string) map[string]any { return map[string]any{"$ref": "#/components/schemas/" + name} }

// normalize rewrites an OpenAPI 3.1 schema as the 3.0 oapi-codegen reads:
// nullability as `nullable`, a value-or-null union as the value, a $ref as
// what it names, a choice of objects as one object (choices.go), free-form
// JSON (JsonValue) as any value; validation keywords (patterns, bounds,
// formats) are left to the server. The answer's constant `ok` is dropped.
func (s *schemas) normalize(schema any, name string, top bool) map[string]any {
	in, _ := schema.(map[string]any)
	if r, ok := in["$ref"].(string); ok {
		return s.resolve(strings.TrimPrefix(r, "#/components/schemas/"), in, name, top)
	}
	if object := s.choiceOfObjects(in); object != nil {
		in = object
	}
	out := map[string]any{}
	if d, ok := in["description"].(string); ok {
		out["description"] = d
	}
	nullable := false
	switch t := in["type"].(type) {
	case string:
		out["type"] = t
	case []any:
		var kinds []string
		for _, k := range t {
			if k == "null" {
				nullable = true
			} else if ks, ok := k.(string); ok {
				kinds = append(kinds, ks)
			}
		}
		if len(kinds) == 1 {
			out["type"] = kinds[0]
		}
	}
	for _, key := range []string{"anyOf", "oneOf"} {
		variants, ok := in[key].([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, v := range variants {
			if vm, ok := v.(map[string]any); ok && vm["type"] == "null" {
				nullable = true
				continue
			}
			kept = append(kept, v)
		}
		switch {
		case len(kept) == 1:
			for k, v := range s.normalize(kept[0], name, top) {
				if k != "description" || out["description"] == nil {
					out[k] = v
				}
			}
		case allStrings(kept):
			out["type"] = "string"
			if values := stringChoices(kept); values != nil {
				out["enum"] = values
			}
		}
	}
	if out["type"] == "number" {
		out["format"] = "double"
	}
	if c, ok := in["const"]; ok {
		out["enum"] = []any{c}
	}
	if e, ok := in["enum"].([]any); ok {
		out["enum"] = e
	}
	if nullable {
		out["nullable"] = true
	}
	if items, ok := in["items"]; ok {
		out["items"] = s.nested(singular(name), s.normalize(items, singular(name), false))
	}
	if additional, ok := in["additionalProperties"].(map[string]any); ok {
		out["additionalProperties"] = s.normalize(additional, name+"Value", false)
	}
	if properties, ok := in["properties"].(map[string]any); ok {
		s.properties(out, in, properties, name, top)
	} else if out["type"] == "object" && out["additionalProperties"] == nil {
		out["additionalProperties"] = map[string]any{}
	}
	return out
}

// resolve reads a $ref as the schema it names, so that a model's shape and
// name do not depend on which parts of the description are components. The
// free-form JSON value (JsonValue), and any schema that refers to itself, is
// any value.
func (s *schemas) resolve(component string, in map[string]any, name string, top bool) map[string]any {
	target, ok := s.components[component]
	if !ok || strings.HasPrefix(component, "JsonValue") || s.resolving[component] {
		return map[string]any{}
	}
	s.resolving[component] = true
	defer delete(s.resolving, component)
	out := s.normalize(target, name, top)
	if d, ok := in["description"].(string); ok {
		out["description"] = d
	}
	return out
}

func (s *schemas) properties(out, in, properties map[string]any, name string, top bool) {
	props := map[string]any{}
	// In sorted order, so that a shape two properties share is named the same at every run.
	for _, key := range slices.Sorted(maps.Keys(properties)) {
		if top && key == "ok" {
			continue
		}
		child := name + pascal(key)
		props[key] = s.nested(child, s.normalize(properties[key], child, false))
	}
	out["properties"] = props
	if required, ok := in["required"].([]any); ok {
		var kept []any
		for _, r := range required {
			if _, present := props[r.(string)]; present {
				kept = append(kept, r)
			}
		}
		if len(kept) > 0 {
			out["required"] = kept
		}
	}
}

// nested hoists an object with properties, or a choice of strings, into its
// own component.
func (s *schemas) nested(name string, schema map[string]any) map[string]any {
	enum, _ := schema["enum"].([]any)
	if schema["properties"] == nil && (schema["type"] != "string" || len(enum) < 2) {
		return schema
	}
	nullable := schema["nullable"] == true
	delete(schema, "nullable")
	if enum != nil {
		// The type's description is the first field's; a choice shared by several fields is named by its values alone.
		delete(schema, "description")
	}
	hoisted := s.hoist(name, schema)
	if nullable {
		return map[string]any{"allOf": []any{hoisted}, "nullable": true}
	}
	return hoisted
}

func allStrings(variants []any) bool {
	for _, v := range variants {
		if vm, ok := v.(map[string]any); !ok || vm["type"] != "string" {
			return false
		}
	}
	return len(variants) > 0
}

func singular(word string) string {
	if strings.HasSuffix(word, "ies") {
		return strings.TrimSuffix(word, "ies") + "y"
	}
	return strings.TrimSuffix(word, "s")
}

func pascal(key string) string {
	var b strings.Builder
	upper := true
	for _, r := range key {
		if r == '_' || r == '-' || r == '.' {
			upper = true
			continue
		}
		if upper {
			r = unicode.ToUpper(r)
			upper = false
		}
		b.WriteRune(r)
	}
	return b.String()
}
