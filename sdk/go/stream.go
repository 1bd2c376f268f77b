package earshot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/coder/websocket"
)

// StreamProtocol is the WebSocket subprotocol the stream speaks.
const StreamProtocol = "earshot.v1"

// StreamParams filters a subscription; the zero value takes every event.
type StreamParams struct {
	// Types keeps only these event types.
	Types []string
	// AgentID keeps one agent's events.
	AgentID string
	// CallID keeps one call's events (the API's call id or the provider's).
	CallID string
	// After resumes after a position a previous subscription saw.
	After string
}

// StreamEvent is one event of the stream and its position.
type StreamEvent struct {
	// Position is where the stream is after this event; After resumes from it.
	Position string
	Event    StoredEvent
	// Raw is the event as the server sent it.
	Raw json.RawMessage
}

// StreamService subscribes to the tenant's events as they are appended: WebSocket /api/v1/stream.
type StreamService struct{ client *Client }

// Subscription is an open stream. Next answers its events; after a dropped
// connection it reconnects from the last position it saw, so nothing is
// missed or repeated. Close ends it.
type Subscription struct {
	client   *Client
	params   StreamParams
	mu       sync.Mutex
	conn     *websocket.Conn
	position string
	closed   bool
}

// Subscribe opens the stream; it answers an *Error when the server refuses it (a bad key, a bad filter).
func (s *StreamService) Subscribe(ctx context.Context, params *StreamParams) (*Subscription, error) {
	sub := &Subscription{client: s.client}
	if params != nil {
		sub.params = *params
		sub.position = params.After
	}
	conn, err := sub.dial(ctx)
	if err != nil {
		return nil, err
	}
	sub.conn = conn
	return sub, nil
}

func (s *Subscription) dial(ctx context.Context) (*websocket.Conn, error) {
	target, err := url.Parse(s.client.baseURL + "/stream")
	if err != nil {
		return nil, err
	}
	target.Scheme = strings.Replace(target.Scheme, "http", "ws", 1)
	query := url.Values{}
	if len(s.params.Types) > 0 {
		query.Set("types", strings.Join(s.params.Types, ","))
	}
	if s.params.AgentID != "" {
		query.Set("agentId", s.params.AgentID)
	}
	if s.params.CallID != "" {
		query.Set("callId", s.params.CallID)
	}
	if s.position != "" {
		query.Set("after", s.position)
	}
	target.RawQuery = query.Encode()
	conn, res, err := websocket.Dial(ctx, target.String(), &websocket.DialOptions{
		HTTPClient:   s.client.http,
		HTTPHeader:   http.Header{"Authorization": {"Bearer " + s.client.apiKey}, "User-Agent": {"earshot-go/" + Version}},
		Subprotocols: []string{StreamProtocol},
	})
	if err != nil {
		if res != nil && res.StatusCode != http.StatusSwitchingProtocols {
			body, _ := io.ReadAll(res.Body)
			return nil, errorOf(res, body)
		}
		return nil, fmt.Errorf("earshot: opening the stream: %w", err)
	}
	// An event is larger than the library's 32 KiB default when its data is.
	conn.SetReadLimit(16 << 20)
	// The server greets once it delivers to this connection: events sent
	// after Subscribe answers are on it.
	if err := s.greeting(ctx, conn); err != nil {
		_ = conn.CloseNow()
		return nil, err
	}
	return conn, nil
}

func (s *Subscription) greeting(ctx context.Context, conn *websocket.Conn) error {
	_, text, err := conn.Read(ctx)
	if err != nil {
		return fmt.Errorf("earshot: opening the stream: %w", err)
	}
	event, err := s.message(text)
	if err == nil && event != nil {
		err = fmt.Errorf("earshot: the stream sent an event before its greeting")
	}
	return err
}

// Position is the position of the last message read, for StreamParams.After.
func (s *Subscription) Position() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.position
}

// Next waits for the next event. After a drop it reconnects (up to the
// client's MaxRetries times in a row) and goes on from its last position.
func (s *Subscription) Next(ctx context.Context) (*StreamEvent, error) {
	failures := 0
	for {
		s.mu.Lock()
		conn, closed := s.conn, s.closed
		s.mu.Unlock()
		if closed {
			return nil, ErrSubscriptionClosed
		}
		if conn == nil {
			if failures > s.client.maxRetries {
				return nil, errors.New("earshot: the stream could not be reopened")
			}
			if err := sleep(ctx, backoff(failures, nil)); err != nil {
				return nil, err
			}
			failures++
			reopened, err := s.dial(ctx)
			if err != nil {
				var apiErr *Error
				if errors.As(err, &apiErr) && apiErr.StatusCode < 500 && apiErr.StatusCode != http.StatusTooManyRequests {
					return nil, err
				}
				continue
			}
			s.mu.Lock()
			s.conn = reopened
			s.mu.Unlock()
			continue
		}
		_, text, err := conn.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			s.mu.Lock()
			s.conn = nil
			closed = s.closed
			s.mu.Unlock()
			if closed {
				return nil, ErrSubscriptionClosed
			}
			_ = conn.CloseNow()
			continue
		}
		failures = 0
		event, err := s.message(text)
		if err != nil || event != nil {
			return event, err
		}
	}
}

// message reads one message: an event is answered; a heartbeat or the
// greeting only moves the position.
func (s *Subscription) message(text []byte) (*StreamEvent, error) {
	var message struct {
		Type     string          `json:"type"`
		Position string          `json:"position"`
		Event    json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal(text, &message); err != nil {
		return nil, fmt.Errorf("earshot: a stream message is not JSON: %w", err)
	}
	s.mu.Lock()
	if message.Position != "" {
		s.position = message.Position
	}
	s.mu.Unlock()
	if message.Type != "event" {
		return nil, nil
	}
	event := &StreamEvent{Position: message.Position, Raw: message.Event}
	if err := json.Unmarshal(message.Event, &event.Event); err != nil {
		return nil, fmt.Errorf("earshot: decoding a stream event: %w", err)
	}
	return event, nil
}

// ErrSubscriptionClosed answers Next after Close.
var ErrSubscriptionClosed = errors.New("earshot: the subscription is closed")

// Close ends the subscription.
func (s *Subscription) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.conn == nil {
		return nil
	}
	err := s.conn.Close(websocket.StatusNormalClosure, "")
	s.conn = nil
	return err
}
