// Package client is the provider's small client of the Earshot REST API:
// the few routes the resources and data sources use, with the API's Error
// shape as a Go error and retries where a retry cannot do a thing twice.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultBaseURL is where `npm start` serves the API.
const DefaultBaseURL = "http://127.0.0.1:8080/api/v1"

// Client calls one Earshot tenant's API with one key.
type Client struct {
	baseURL   string
	apiKey    string
	userAgent string
	http      *http.Client
	// attempts bounds the tries of one request; backoff is the first wait between them.
	attempts int
	backoff  time.Duration
}

// New answers a client of the API at baseURL, the interface's {base_url}
// ending in /api/v1; the service root alone means the same.
func New(baseURL, apiKey, version string) (*Client, error) {
	normalized, err := NormalizeBaseURL(baseURL)
	if err != nil {
		return nil, err
	}
	return &Client{
		baseURL:   normalized,
		apiKey:    apiKey,
		userAgent: "terraform-provider-earshot/" + version,
		http:      &http.Client{Timeout: 60 * time.Second},
		attempts:  4,
		backoff:   500 * time.Millisecond,
	}, nil
}

// NormalizeBaseURL answers the base URL ending in /api/v1 without a trailing slash.
func NormalizeBaseURL(raw string) (string, error) {
	parsed, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return "", fmt.Errorf("base_url %q is not an http or https URL", raw)
	}
	path := strings.TrimRight(parsed.Path, "/")
	if !strings.HasSuffix(path, "/api/v1") {
		path += "/api/v1"
	}
	parsed.Path = path
	parsed.RawQuery, parsed.Fragment = "", ""
	return parsed.String(), nil
}

// Error is the API's Error shape: `{ ok: false, error, code }`, with the status and any field problems.
type Error struct {
	Status  int            `json:"-"`
	Message string         `json:"error"`
	Code    string         `json:"code"`
	Fields  []FieldProblem `json:"fields,omitempty"`
}

// FieldProblem is one field a VALIDATION_ERROR names.
type FieldProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	text := fmt.Sprintf("Earshot answered %d %s: %s", e.Status, e.Code, e.Message)
	for _, field := range e.Fields {
		text += fmt.Sprintf("\n  %s: %s", field.Path, field.Message)
	}
	return text
}

// IsNotFound tells whether err is the API's 404.
func IsNotFound(err error) bool {
	var apiError *Error
	return errors.As(err, &apiError) && apiError.Status == http.StatusNotFound
}

// request is one call; idempotent says a retry after an answer that never came cannot do it twice.
type request struct {
	method     string
	path       string
	body       any
	idempotent bool
}

func (c *Client) do(ctx context.Context, call request, out any) error {
	var payload []byte
	if call.body != nil {
		encoded, err := json.Marshal(call.body)
		if err != nil {
			return err
		}
		payload = encoded
	}
	// One key for every try of a write, so the API replays the first answer instead of writing again.
	idempotencyKey := ""
	if call.method == http.MethodPost || call.method == http.MethodPatch || call.method == http.MethodDelete {
		idempotencyKey = randomKey()
	}
	var lastErr error
	wait := c.backoff
	for attempt := 1; attempt <= c.attempts; attempt++ {
		retryAfter, err := c.try(ctx, call, payload, idempotencyKey, out)
		if err == nil {
			return nil
		}
		lastErr = err
		if !c.retryable(call, err) || attempt == c.attempts {
			break
		}
		if retryAfter > wait {
			wait = retryAfter
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
	return lastErr
}

// retryable: a 429 was never carried out; a 5xx or a lost connection may have been, so only idempotent calls retry them.
func (c *Client) retryable(call request, err error) bool {
	var apiError *Error
	if errors.As(err, &apiError) {
		if apiError.Status == http.StatusTooManyRequests {
			return true
		}
		return call.idempotent && apiError.Status >= 500
	}
	return call.idempotent
}

func (c *Client) try(ctx context.Context, call request, payload []byte, idempotencyKey string, out any) (time.Duration, error) {
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	httpRequest, err := http.NewRequestWithContext(ctx, call.method, c.baseURL+call.path, body)
	if err != nil {
		return 0, err
	}
	httpRequest.Header.Set("Authorization", "Bearer "+c.apiKey)
	httpRequest.Header.Set("Accept", "application/json")
	httpRequest.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		httpRequest.Header.Set("Content-Type", "application/json")
	}
	if idempotencyKey != "" && call.idempotent {
		httpRequest.Header.Set("Idempotency-Key", idempotencyKey)
	}
	response, err := c.http.Do(httpRequest)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", call.method, call.path, err)
	}
	defer response.Body.Close()
	text, err := io.ReadAll(response.Body)
	if err != nil {
		return 0, fmt.Errorf("%s %s: reading the answer: %w", call.method, call.path, err)
	}
	if response.StatusCode >= 300 {
		apiError := &Error{Status: response.StatusCode}
		if json.Unmarshal(text, apiError) != nil || apiError.Code == "" {
			apiError.Code, apiError.Message = http.StatusText(response.StatusCode), strings.TrimSpace(string(text))
		}
		apiError.Message = fmt.Sprintf("%s (%s %s)", apiError.Message, call.method, call.path)
		seconds, _ := strconv.Atoi(response.Header.Get("Retry-After"))
		return time.Duration(seconds) * time.Second, apiError
	}
	if out == nil {
		return 0, nil
	}
	if err := json.Unmarshal(text, out); err != nil {
		return 0, fmt.Errorf("%s %s: the answer is not the documented JSON: %w", call.method, call.path, err)
	}
	return 0, nil
}

func randomKey() string {
	bytes := make([]byte, 16)
	if _, err := rand.Read(bytes); err != nil {
		panic(err)
	}
	return "terraform-" + hex.EncodeToString(bytes)
}
