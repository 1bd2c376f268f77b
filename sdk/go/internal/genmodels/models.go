package main

import (
	"encoding/json"
	"fmt"
	"os"
)

// model names a schema of the served API description: the part of one
// operation's request or answer that becomes a type. The names are the SDK
// surface, the same in every SDK, so they are read from sdk/models.json.
type model struct {
	Name string `json:"name"`
	// Operation is "METHOD path" as the description lists it.
	Operation string `json:"operation"`
	// From is "response" (the 2xx answer), "body" (the request body) or
	// "query" (the query parameters, as an object, cursor and page left out).
	From string `json:"from"`
	// At is a JSON pointer into that schema ("" for the whole of it).
	At string `json:"at"`
}

type modelNames struct {
	Models []model `json:"models"`
	// Renames gives a nested schema a better name than parent + property.
	Renames map[string]string `json:"renames"`
}

func readNames(file string) (modelNames, error) {
	var names modelNames
	raw, err := os.ReadFile(file)
	if err != nil {
		return names, err
	}
	if err := json.Unmarshal(raw, &names); err != nil {
		return names, fmt.Errorf("%s: %w", file, err)
	}
	return names, nil
}
