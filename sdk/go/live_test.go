package earshot_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

// The suite runs against a live Earshot: npm test starts one with a fresh
// tenant and the fault proxy in front of it, and passes them in these.
type target struct {
	apiKey, baseURL, webhookSecret, proxyURL, tenantID string
}

// rotatedSecret is the webhook secret after [every-resource] rotated it, so
// that the tests after it sign with the current one.
var rotatedSecret string

func liveTarget(t *testing.T) target {
	t.Helper()
	tg := target{
		apiKey:        os.Getenv("EARSHOT_API_KEY"),
		baseURL:       os.Getenv("EARSHOT_BASE_URL"),
		webhookSecret: firstNonEmpty(rotatedSecret, os.Getenv("EARSHOT_WEBHOOK_SECRET")),
		proxyURL:      os.Getenv("EARSHOT_FAULT_PROXY_URL"),
		tenantID:      os.Getenv("EARSHOT_TENANT_ID"),
	}
	if tg.apiKey == "" || tg.baseURL == "" || tg.webhookSecret == "" || tg.proxyURL == "" {
		t.Fatal("this test needs a live Earshot: run it through npm test (test/sdk/go.int.test.ts), or set EARSHOT_API_KEY, EARSHOT_BASE_URL, EARSHOT_WEBHOOK_SECRET and EARSHOT_FAULT_PROXY_URL")
	}
	return tg
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

func (tg target) client(t *testing.T, options ...earshot.Option) *earshot.Client {
	t.Helper()
	all := append([]earshot.Option{earshot.WithBaseURL(tg.baseURL), earshot.WithWebhookSecret(tg.webhookSecret)}, options...)
	client, err := earshot.NewClient(tg.apiKey, all...)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// proxied is a client whose requests go through the fault proxy.
func (tg target) proxied(t *testing.T, options ...earshot.Option) *earshot.Client {
	return tg.client(t, append([]earshot.Option{earshot.WithBaseURL(tg.proxyURL + "/api/v1")}, options...)...)
}

type fault struct {
	Status          int  `json:"status"`
	RetryAfter      *int `json:"retryAfter,omitempty"`
	AfterForwarding bool `json:"afterForwarding,omitempty"`
}

type proxied struct {
	Method         string `json:"method"`
	Path           string `json:"path"`
	IdempotencyKey string `json:"idempotencyKey"`
	Status         int    `json:"status"`
}

func (tg target) proxy(t *testing.T, method, path string, body any) []byte {
	t.Helper()
	var payload bytes.Buffer
	if body != nil {
		if err := json.NewEncoder(&payload).Encode(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(method, tg.proxyURL+path, &payload)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var answer bytes.Buffer
	_, _ = answer.ReadFrom(res.Body)
	if res.StatusCode >= 300 {
		t.Fatalf("fault proxy %s %s: %s %s", method, path, res.Status, answer.String())
	}
	return answer.Bytes()
}

// inject clears the proxy, then queues answers for the next requests to method and path.
func (tg target) inject(t *testing.T, method, path string, answers ...fault) {
	tg.proxy(t, "DELETE", "/__faults", nil)
	tg.proxy(t, "POST", "/__faults", map[string]any{"method": method, "path": path, "answers": answers})
}

// requests lists what reached the proxy for method and path since it was last cleared.
func (tg target) requests(t *testing.T, method, path string) []proxied {
	var log []proxied
	if err := json.Unmarshal(tg.proxy(t, "GET", "/__faults/log", nil), &log); err != nil {
		t.Fatal(err)
	}
	var matching []proxied
	for _, entry := range log {
		if entry.Method == method && entry.Path == path {
			matching = append(matching, entry)
		}
	}
	return matching
}

func unique(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

func callEvent(kind, providerCallID, agentID string, data map[string]any) earshot.Event {
	return earshot.Event{Type: kind, Call: &earshot.EventCall{ProviderCallID: providerCallID, AgentID: agentID}, Data: data}
}

// conversation is a call's events: started, one agent turn, ended.
func conversation(providerCallID, agentID string) []earshot.Event {
	return []earshot.Event{
		callEvent("call.started", providerCallID, agentID, nil),
		callEvent("agent.response.generated", providerCallID, agentID, map[string]any{
			"turn_id": "turn-1", "text": "How can I help?",
			"latency": map[string]any{"asr_ms": 120, "llm_ms": 340, "tts_ms": 90, "total_ms": 550},
		}),
		callEvent("call.ended", providerCallID, agentID, map[string]any{"ended_reason": "customer-ended-call", "duration_ms": 42000}),
	}
}

func timeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// eventually retries check until it passes: ingest is read back once the projector has applied it.
func eventually(t *testing.T, within time.Duration, check func() error) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %v", within, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// callsOf lists the ids of an agent's calls.
func callsOf(ctx context.Context, client *earshot.Client, agentID string) ([]string, error) {
	var ids []string
	for call, err := range client.Calls.List(ctx, &earshot.CallListParams{AgentID: &agentID}) {
		if err != nil {
			return nil, err
		}
		ids = append(ids, call.ID)
	}
	return ids, nil
}

func expectCount(ids []string, want int) error {
	if len(ids) != want {
		return fmt.Errorf("%d of %d: %s", len(ids), want, strings.Join(ids, ","))
	}
	return nil
}
