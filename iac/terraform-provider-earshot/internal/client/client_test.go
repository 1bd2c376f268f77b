package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// server answers each request with the next of answers (status, body), recording what it received.
func server(t *testing.T, answers ...[2]any) (*Client, *[]*http.Request) {
	t.Helper()
	var mu sync.Mutex
	var received []*http.Request
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		received = append(received, r)
		answer := answers[min(len(received), len(answers))-1]
		if answer[0].(int) == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "0")
		}
		w.WriteHeader(answer[0].(int))
		_, _ = w.Write([]byte(answer[1].(string)))
	}))
	t.Cleanup(s.Close)
	c, err := New(s.URL, "ear_live_test", "test")
	if err != nil {
		t.Fatal(err)
	}
	c.backoff = time.Millisecond
	return c, &received
}

func TestBaseURLEndsInTheAPIPath(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080":           "http://127.0.0.1:8080/api/v1",
		"http://127.0.0.1:8080/":          "http://127.0.0.1:8080/api/v1",
		"https://earshot.example/api/v1/": "https://earshot.example/api/v1",
		"https://example.com/earshot":     "https://example.com/earshot/api/v1",
	} {
		if got, err := NormalizeBaseURL(raw); err != nil || got != want {
			t.Errorf("NormalizeBaseURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8080", "ftp://example.com"} {
		if _, err := NormalizeBaseURL(bad); err == nil {
			t.Errorf("NormalizeBaseURL(%q) accepted it", bad)
		}
	}
}

func TestAnErrorIsTheAPIsErrorShape(t *testing.T) {
	c, _ := server(t, [2]any{400, `{"ok":false,"error":"the body is invalid: body.metric","code":"VALIDATION_ERROR","fields":[{"path":"body.metric","message":"Invalid option"}]}`})
	_, err := c.CreateAlertRule(context.Background(), AlertRuleInput{})
	apiError, ok := err.(*Error)
	if !ok || apiError.Status != 400 || apiError.Code != "VALIDATION_ERROR" || len(apiError.Fields) != 1 {
		t.Fatalf("got %#v", err)
	}
	c404, _ := server(t, [2]any{404, `{"ok":false,"error":"no alert rule x","code":"NOT_FOUND"}`})
	if _, err := c404.GetAlertRule(context.Background(), "x"); !IsNotFound(err) {
		t.Fatalf("404 was not NotFound: %v", err)
	}
}

func TestRateLimitedRequestsAreRetriedWithTheSameIdempotencyKey(t *testing.T) {
	c, received := server(t, [2]any{429, `{"ok":false,"error":"slow down","code":"RATE_LIMITED"}`}, [2]any{201, `{"ok":true,"id":"d1"}`})
	id, err := c.RecordDeployment(context.Background(), DeploymentInput{Agent: "a", Version: "v1"})
	if err != nil || id != "d1" || len(*received) != 2 {
		t.Fatalf("id %q, err %v, %d requests", id, err, len(*received))
	}
	first, second := (*received)[0].Header.Get("Idempotency-Key"), (*received)[1].Header.Get("Idempotency-Key")
	if first == "" || first != second {
		t.Fatalf("idempotency keys %q and %q", first, second)
	}
	if (*received)[0].Header.Get("Authorization") != "Bearer ear_live_test" {
		t.Fatal("no bearer key")
	}
}

// A key creation takes no Idempotency-Key: after a 503 it may have happened, so it is not tried again.
func TestAWriteThatCannotBeRepeatedIsNotRetriedAfterA5xx(t *testing.T) {
	c, received := server(t, [2]any{503, `{"ok":false,"error":"down","code":"UNAVAILABLE"}`}, [2]any{201, `{"ok":true}`})
	if _, err := c.CreateAPIKey(context.Background(), APIKeyInput{}); err == nil || len(*received) != 1 {
		t.Fatalf("err %v after %d requests", err, len(*received))
	}
	g, gets := server(t, [2]any{503, `{"ok":false,"error":"down","code":"UNAVAILABLE"}`}, [2]any{200, `{"ok":true,"tenant":{"id":"t1"}}`})
	if tenant, err := g.GetTenant(context.Background()); err != nil || tenant.ID != "t1" || len(*gets) != 2 {
		t.Fatalf("a read was not retried: %v after %d requests", err, len(*gets))
	}
}

func TestAgentsFollowTheCursorToTheEnd(t *testing.T) {
	c, received := server(t,
		[2]any{200, `{"ok":true,"items":[{"id":"a","calls":1}],"nextCursor":"next"}`},
		[2]any{200, `{"ok":true,"items":[{"id":"b","calls":0,"version":"v2"}],"nextCursor":null}`},
	)
	agents, err := c.Agents(context.Background())
	if err != nil || len(agents) != 2 || agents[1].ID != "b" || *agents[1].Version != "v2" {
		t.Fatalf("agents %+v, err %v", agents, err)
	}
	if (*received)[1].URL.Query().Get("cursor") != "next" {
		t.Fatalf("second page asked %s", (*received)[1].URL)
	}
}
