package main

import (
	"fmt"
	"strconv"
	"strings"
)

// sourceOf finds the schema a model is taken from in the description.
func sourceOf(document map[string]any, m model) (any, error) {
	method, path, _ := strings.Cut(m.Operation, " ")
	operation, ok := dig(document, "paths", path, strings.ToLower(method)).(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: the description has no operation %s", m.Name, m.Operation)
	}
	switch m.From {
	case "body":
		return dig(operation, "requestBody", "content", "application/json", "schema"), nil
	case "response":
		responses, _ := operation["responses"].(map[string]any)
		for _, status := range []string{"200", "201", "202"} {
			if schema := dig(responses, status, "content", "application/json", "schema"); schema != nil {
				return schema, nil
			}
		}
		return nil, fmt.Errorf("%s: %s answers no JSON", m.Name, m.Operation)
	case "query":
		return queryObject(operation), nil
	}
	return nil, fmt.Errorf("%s: unknown source %q", m.Name, m.From)
}

// queryObject is an operation's query parameters as one object schema. The
// cursor and page are the SDK's to manage, so they are left out.
func queryObject(operation map[string]any) map[string]any {
	properties := map[string]any{}
	var required []any
	parameters, _ := operation["parameters"].([]any)
	for _, p := range parameters {
		parameter, _ := p.(map[string]any)
		name, _ := parameter["name"].(string)
		if parameter["in"] != "query" || name == "cursor" || name == "page" {
			continue
		}
		schema, _ := parameter["schema"].(map[string]any)
		property := map[string]any{}
		for k, v := range schema {
			property[k] = v
		}
		if d, ok := parameter["description"].(string); ok {
			property["description"] = d
		}
		properties[name] = property
		if parameter["required"] == true {
			required = append(required, name)
		}
	}
	object := map[string]any{"type": "object", "properties": properties}
	if len(required) > 0 {
		object["required"] = required
	}
	return object
}

func dig(value any, keys ...string) any {
	for _, key := range keys {
		m, ok := value.(map[string]any)
		if !ok {
			return nil
		}
		value = m[key]
	}
	return value
}

// pointer follows a JSON pointer ("/properties/items/items") into a schema,
// and through each $ref it meets into the description's components.
func pointer(value any, at string, components map[string]any) (any, error) {
	if at == "" {
		return value, nil
	}
	for _, token := range strings.Split(strings.TrimPrefix(at, "/"), "/") {
		value = dereference(value, components)
		switch v := value.(type) {
		case map[string]any:
			value = v[token]
		case []any:
			i, err := strconv.Atoi(token)
			if err != nil || i >= len(v) {
				return nil, fmt.Errorf("no element %s", token)
			}
			value = v[i]
		default:
			return nil, fmt.Errorf("nothing at %s", token)
		}
		if value == nil {
			return nil, fmt.Errorf("nothing at %s", token)
		}
	}
	return value, nil
}

// dereference answers the component a {"$ref": …} names, or the value itself.
func dereference(value any, components map[string]any) any {
	for range 10 {
		m, ok := value.(map[string]any)
		if !ok {
			return value
		}
		r, ok := m["$ref"].(string)
		if !ok {
			return value
		}
		value = components[strings.TrimPrefix(r, "#/components/schemas/")]
	}
	return value
}
