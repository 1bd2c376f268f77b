package earshot

import (
	"bytes"
	"context"
	cryptorand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// RequestOption changes one request: its Idempotency-Key or its headers.
type RequestOption func(*request)

// WithIdempotencyKey sets the Idempotency-Key of a write, instead of a generated one.
func WithIdempotencyKey(key string) RequestOption {
	return func(r *request) { r.idempotencyKey = key }
}

// WithHeader adds a header to one request.
func WithHeader(name, value string) RequestOption {
	return func(r *request) { r.header.Add(name, value) }
}

type request struct {
	method         string
	path           string
	query          url.Values
	body           []byte
	idempotencyKey string
	header         http.Header
	// sign sets headers that depend on the moment of each attempt (the ingest signature).
	sign func(header http.Header, body []byte)
}

func (c *Client) newRequest(method, path string, query url.Values, body any, options []RequestOption) (*request, error) {
	r := &request{method: method, path: path, query: query, header: http.Header{}}
	if body != nil {
		raw, ok := body.([]byte)
		if !ok {
			var err error
			if raw, err = json.Marshal(body); err != nil {
				return nil, fmt.Errorf("earshot: encoding the %s %s body: %w", method, path, err)
			}
		}
		r.body = raw
	}
	for _, option := range options {
		option(r)
	}
	if r.idempotencyKey == "" && method != http.MethodGet {
		r.idempotencyKey = randomID()
	}
	return r, nil
}

// call sends a request with retries and decodes a 2xx JSON answer into out (when not nil).
func (c *Client) call(ctx context.Context, method, path string, query url.Values, body, out any, options ...RequestOption) error {
	r, err := c.newRequest(method, path, query, body, options)
	if err != nil {
		return err
	}
	answer, err := c.send(ctx, r)
	if err != nil || out == nil {
		return err
	}
	if err := json.Unmarshal(answer, out); err != nil {
		return fmt.Errorf("earshot: decoding the answer to %s %s: %w", method, path, err)
	}
	return nil
}

// send makes the attempts: the first, then a retry after each connection
// error, timeout, 408, 409 in flight, 429 or 5xx, up to maxRetries.
func (c *Client) send(ctx context.Context, r *request) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		answer, err := c.attempt(ctx, r)
		if err == nil {
			return answer, nil
		}
		if attempt >= c.maxRetries || !retryable(ctx, err) {
			return nil, err
		}
		if err := sleep(ctx, backoff(attempt, err)); err != nil {
			return nil, err
		}
	}
}

func (c *Client) attempt(ctx context.Context, r *request) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	target := c.baseURL + r.path
	if len(r.query) > 0 {
		target += "?" + r.query.Encode()
	}
	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return nil, err
	}
	for name, values := range r.header {
		req.Header[name] = values
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "earshot-go/"+Version)
	if r.body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if r.idempotencyKey != "" {
		req.Header.Set("Idempotency-Key", r.idempotencyKey)
	}
	if r.sign != nil {
		r.sign(req.Header, r.body)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("earshot: %s %s: %w", r.method, r.path, err)
	}
	defer res.Body.Close()
	answer, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, fmt.Errorf("earshot: reading the answer to %s %s: %w", r.method, r.path, err)
	}
	if res.StatusCode >= 200 && res.StatusCode < 300 {
		return answer, nil
	}
	return nil, errorOf(res, answer)
}

func errorOf(res *http.Response, answer []byte) *Error {
	var shape struct {
		Error     string       `json:"error"`
		Code      string       `json:"code"`
		Fields    []FieldError `json:"fields"`
		RequestID string       `json:"requestId"`
	}
	_ = json.Unmarshal(answer, &shape)
	e := &Error{
		StatusCode: res.StatusCode,
		Code:       shape.Code,
		Message:    firstOf(shape.Error, strings.TrimSpace(string(answer)), res.Status),
		RequestID:  firstOf(shape.RequestID, res.Header.Get("X-Request-Id")),
		Fields:     shape.Fields,
		Header:     res.Header,
	}
	if seconds, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && seconds >= 0 {
		e.RetryAfter = time.Duration(seconds) * time.Second
	}
	return e
}

func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		return true // a connection error or an attempt's timeout
	}
	switch {
	case apiErr.StatusCode == http.StatusRequestTimeout, apiErr.StatusCode == http.StatusTooManyRequests:
		return true
	case apiErr.StatusCode == http.StatusConflict:
		return apiErr.Code == CodeIdempotencyConflict
	default:
		return apiErr.StatusCode >= 500
	}
}

// backoff is 0.5 s doubling per retry, at most 8 s, jittered down by up to a
// quarter, and never less than the answer's Retry-After.
func backoff(attempt int, err error) time.Duration {
	wait := min(500*time.Millisecond<<attempt, 8*time.Second)
	wait -= time.Duration(rand.Int64N(int64(wait / 4)))
	var apiErr *Error
	if errors.As(err, &apiErr) && apiErr.RetryAfter > wait {
		wait = apiErr.RetryAfter
	}
	return wait
}

func sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

func randomID() string {
	b := make([]byte, 16)
	_, _ = cryptorand.Read(b)
	return hex.EncodeToString(b)
}
