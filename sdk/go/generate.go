package earshot

// Regenerate the models from a running Earshot (EARSHOT_BASE_URL, else http://127.0.0.1:8080).
//go:generate go run ./internal/genmodels -out .
