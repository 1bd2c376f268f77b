package earshot

import (
	"errors"
	"fmt"
	"net/http"
	"time"
)

// The codes of the API's Error shape.
const (
	CodeUnauthorized        = "UNAUTHORIZED"
	CodeForbidden           = "FORBIDDEN"
	CodeNotFound            = "NOT_FOUND"
	CodeValidation          = "VALIDATION_ERROR"
	CodeIdempotencyConflict = "IDEMPOTENCY_CONFLICT"
	CodeIdempotencyMismatch = "IDEMPOTENCY_MISMATCH"
	CodeRateLimited         = "RATE_LIMITED"
	CodeProviderError       = "PROVIDER_ERROR"
	CodeUnavailable         = "UNAVAILABLE"
)

// Error is every non-2xx answer of the API: its Error shape (`ok: false`,
// `error`, `code`), the HTTP status, the request id and the headers. Find it
// with errors.As, or ask with IsNotFound and the other helpers.
type Error struct {
	StatusCode int
	Code       string
	Message    string
	RequestID  string
	// Fields says which fields a VALIDATION_ERROR refused.
	Fields []FieldError
	// RetryAfter is the wait a 429 (or 503) asked for, zero when none.
	RetryAfter time.Duration
	Header     http.Header
}

// Error says the status, code and message.
func (e *Error) Error() string {
	return fmt.Sprintf("earshot: %d %s: %s", e.StatusCode, e.Code, e.Message)
}

func hasCode(err error, codes ...string) bool {
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		return false
	}
	for _, code := range codes {
		if apiErr.Code == code {
			return true
		}
	}
	return false
}

// IsUnauthorized reports a 401: a missing, wrong, expired or revoked key, or a bad signature.
func IsUnauthorized(err error) bool { return hasCode(err, CodeUnauthorized) }

// IsForbidden reports a 403: the key lacks the route's scope, environment or address.
func IsForbidden(err error) bool { return hasCode(err, CodeForbidden) }

// IsNotFound reports a 404.
func IsNotFound(err error) bool { return hasCode(err, CodeNotFound) }

// IsValidation reports a 400 VALIDATION_ERROR; its Fields say which.
func IsValidation(err error) bool { return hasCode(err, CodeValidation) }

// IsIdempotencyConflict reports an Idempotency-Key still in flight, or reused with another request.
func IsIdempotencyConflict(err error) bool {
	return hasCode(err, CodeIdempotencyConflict, CodeIdempotencyMismatch)
}

// IsRateLimited reports a 429; its RetryAfter says how long to wait.
func IsRateLimited(err error) bool { return hasCode(err, CodeRateLimited) }

// IsProviderError reports a 502 PROVIDER_ERROR.
func IsProviderError(err error) bool { return hasCode(err, CodeProviderError) }

// IsUnavailable reports a 503 UNAVAILABLE.
func IsUnavailable(err error) bool { return hasCode(err, CodeUnavailable) }
