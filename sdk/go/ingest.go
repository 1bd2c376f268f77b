package earshot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// EventVersion is the event schema version Send puts on an envelope without one.
const EventVersion = "2026-01-01"

// MaxBatch is the most envelopes one ingest request carries.
const MaxBatch = 500

// Event is the webhook event envelope POSTed to /webhooks/ingest (and the
// body of an alert notification). Send fills an empty IdempotencyKey,
// Version and OccurredAt.
type Event struct {
	Type           string         `json:"type"`
	Version        string         `json:"version"`
	IdempotencyKey string         `json:"idempotency_key"`
	OccurredAt     string         `json:"occurred_at"`
	Call           *EventCall     `json:"call,omitempty"`
	Data           map[string]any `json:"data"`
}

// StoredEvent is an event as Earshot keeps it: the envelope and its receipt.
type StoredEvent struct {
	Event
	Tenant     string `json:"tenant"`
	Provider   string `json:"provider"`
	ReceivedAt string `json:"received_at"`
}

// The statuses of one envelope in an IngestResult.
const (
	StatusAccepted     = "accepted"
	StatusDuplicate    = "duplicate"
	StatusDeadLettered = "dead_lettered"
	StatusRejected     = "rejected"
)

// EnvelopeResult is the server's answer for one envelope.
type EnvelopeResult struct {
	// Status is StatusAccepted, StatusDuplicate, StatusDeadLettered or StatusRejected.
	Status string
	// ID is the event's id, for an accepted or duplicate envelope.
	ID string
	// Rejection says why, for an envelope that was not accepted.
	Rejection *IngestRejected
}

// IngestResult answers Send: a result per envelope, in the order sent.
type IngestResult struct {
	Accepted     int
	Duplicates   int
	DeadLettered int
	Results      []EnvelopeResult
}

// IngestService sends signed events: POST /webhooks/ingest.
type IngestService struct{ client *Client }

// Sign answers the X-Earshot-Signature of a body sent at a timestamp (Unix
// seconds): the lowercase hex HMAC-SHA256 of timestamp + "." + body, keyed
// with the secret's UTF-8 bytes.
func Sign(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// IngestOption changes how Send sends.
type IngestOption func(*ingestSettings)

type ingestSettings struct{ provider string }

// WithProvider names the sender in X-Earshot-Provider (default "sdk").
func WithProvider(name string) IngestOption { return func(s *ingestSettings) { s.provider = name } }

// Send signs the events with the webhook secret and posts them in batches
// of at most MaxBatch, answering per envelope. Each request is signed anew
// at each attempt, with the same body.
func (s *IngestService) Send(ctx context.Context, events []Event, options ...IngestOption) (*IngestResult, error) {
	settings := ingestSettings{provider: "sdk"}
	for _, option := range options {
		option(&settings)
	}
	secret := s.client.webhookSecret
	if secret == "" {
		return nil, errors.New("earshot: no webhook secret to sign with: use WithWebhookSecret or set EARSHOT_WEBHOOK_SECRET")
	}
	result := &IngestResult{Results: make([]EnvelopeResult, 0, len(events))}
	for start := 0; start < len(events); start += MaxBatch {
		batch := completed(events[start:min(start+MaxBatch, len(events))])
		body, err := json.Marshal(batch)
		if err != nil {
			return nil, fmt.Errorf("earshot: encoding events: %w", err)
		}
		r, err := s.client.newRequest(http.MethodPost, "/webhooks/ingest", nil, body, nil)
		if err != nil {
			return nil, err
		}
		r.sign = func(header http.Header, body []byte) {
			timestamp := strconv.FormatInt(time.Now().Unix(), 10)
			header.Set("X-Earshot-Timestamp", timestamp)
			header.Set("X-Earshot-Signature", Sign(secret, timestamp, body))
			header.Set("X-Earshot-Provider", settings.provider)
		}
		answer, err := s.client.send(ctx, r)
		if err != nil {
			return result, err
		}
		if err := result.add(answer, len(batch)); err != nil {
			return result, err
		}
	}
	return result, nil
}

// completed fills what an envelope may leave out, on a copy.
func completed(events []Event) []Event {
	out := make([]Event, len(events))
	now := time.Now().UTC().Format(time.RFC3339Nano)
	for i, e := range events {
		e.IdempotencyKey = firstOf(e.IdempotencyKey, randomID())
		e.Version = firstOf(e.Version, EventVersion)
		e.OccurredAt = firstOf(e.OccurredAt, now)
		if e.Data == nil {
			e.Data = map[string]any{}
		}
		out[i] = e
	}
	return out
}

func (r *IngestResult) add(answer []byte, sent int) error {
	var envelope struct {
		Results []json.RawMessage `json:"results"`
	}
	if err := json.Unmarshal(answer, &envelope); err != nil || len(envelope.Results) != sent {
		return fmt.Errorf("earshot: the ingest answer has %d results for %d envelopes", len(envelope.Results), sent)
	}
	for _, raw := range envelope.Results {
		var probe struct {
			OK bool `json:"ok"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return fmt.Errorf("earshot: decoding an ingest result: %w", err)
		}
		if probe.OK {
			var accepted IngestAccepted
			_ = json.Unmarshal(raw, &accepted)
			status := StatusAccepted
			if accepted.Duplicate {
				status = StatusDuplicate
				r.Duplicates++
			} else {
				r.Accepted++
			}
			r.Results = append(r.Results, EnvelopeResult{Status: status, ID: accepted.ID})
			continue
		}
		var rejected IngestRejected
		_ = json.Unmarshal(raw, &rejected)
		status := StatusRejected
		if rejected.DeadLetterID != nil {
			status = StatusDeadLettered
			r.DeadLettered++
		}
		r.Results = append(r.Results, EnvelopeResult{Status: status, Rejection: &rejected})
	}
	return nil
}
