package earshot_test

import (
	"errors"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

func TestRetries(t *testing.T) {
	t.Run("[retry-5xx] a 503 then a 200 succeeds after one retry", func(t *testing.T) {
		tg := liveTarget(t)
		tg.inject(t, "GET", "/api/v1/calls", fault{Status: 503})
		if _, err := tg.proxied(t).Calls.ListPage(timeout(t, 30*time.Second), nil); err != nil {
			t.Fatal(err)
		}
		if sent := tg.requests(t, "GET", "/api/v1/calls"); len(sent) != 2 || sent[0].Status != 503 || sent[1].Status != 200 {
			t.Fatalf("the proxy saw %+v", sent)
		}
	})

	t.Run("[retry-429] a 429 with Retry-After: 1 is waited out, then retried", func(t *testing.T) {
		tg := liveTarget(t)
		wait := 1
		tg.inject(t, "GET", "/api/v1/calls", fault{Status: 429, RetryAfter: &wait})
		started := time.Now()
		if _, err := tg.proxied(t).Calls.ListPage(timeout(t, 30*time.Second), nil); err != nil {
			t.Fatal(err)
		}
		if waited := time.Since(started); waited < time.Second {
			t.Fatalf("retried after %s", waited)
		}
		if sent := tg.requests(t, "GET", "/api/v1/calls"); len(sent) != 2 {
			t.Fatalf("the proxy saw %+v", sent)
		}
	})

	t.Run("[idempotent-retry] a write applied before a lost answer is retried with the same Idempotency-Key and happens once", func(t *testing.T) {
		tg := liveTarget(t)
		ctx := timeout(t, 30*time.Second)
		callID := unique("call")
		tg.inject(t, "POST", "/api/v1/outcomes", fault{Status: 503, AfterForwarding: true})
		created, err := tg.proxied(t).Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: callID, Type: "resolved"})
		if err != nil {
			t.Fatal(err)
		}
		sent := tg.requests(t, "POST", "/api/v1/outcomes")
		if len(sent) != 2 || sent[0].IdempotencyKey == "" || sent[0].IdempotencyKey != sent[1].IdempotencyKey {
			t.Fatalf("the proxy saw %+v", sent)
		}
		page, err := tg.client(t).Outcomes.ListPage(ctx, &earshot.OutcomeListParams{CallID: &callID})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 1 || page.Items[0].ID != created.ID {
			t.Fatalf("outcomes of the call: %+v, created %s", page.Items, created.ID)
		}
	})

	t.Run("[no-retry-4xx] a 404 and a 400 are answered at once, not retried", func(t *testing.T) {
		tg := liveTarget(t)
		ctx := timeout(t, 30*time.Second)
		tg.proxy(t, "DELETE", "/__faults", nil)
		client := tg.proxied(t)
		if _, err := client.Calls.Retrieve(ctx, "no-such-call"); !earshot.IsNotFound(err) {
			t.Fatalf("answered %v", err)
		}
		if _, err := client.Calls.ListPage(ctx, &earshot.CallListParams{Limit: earshot.Int(100000)}); !earshot.IsValidation(err) {
			t.Fatalf("answered %v", err)
		}
		if sent := tg.requests(t, "GET", "/api/v1/calls/no-such-call"); len(sent) != 1 {
			t.Fatalf("the 404 was sent %d times", len(sent))
		}
		if sent := tg.requests(t, "GET", "/api/v1/calls"); len(sent) != 1 {
			t.Fatalf("the 400 was sent %d times", len(sent))
		}
	})
}

func TestTypedErrors(t *testing.T) {
	t.Run("[typed-errors] each code of the Error shape is its typed error", func(t *testing.T) {
		tg := liveTarget(t)
		ctx := timeout(t, 60*time.Second)
		client := tg.client(t)
		expect := func(name string, err error, is func(error) bool, status int) *earshot.Error {
			t.Helper()
			var apiErr *earshot.Error
			if !is(err) || !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Message == "" {
				t.Fatalf("%s: answered %v", name, err)
			}
			return apiErr
		}

		bad, err := earshot.NewClient("ear_live_00000000000000000000000000000000000000", earshot.WithBaseURL(tg.baseURL))
		if err != nil {
			t.Fatal(err)
		}
		_, err = bad.Calls.ListPage(ctx, nil)
		expect("a bad key", err, earshot.IsUnauthorized, 401)

		readOnly, err := client.Keys.Create(ctx, earshot.KeyCreateParams{Name: "read only", Scopes: []earshot.Scope{earshot.ScopeCallsRead}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = tg.client(t, earshot.WithMaxRetries(0)).Outcomes.ListPage(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		limited, err := earshot.NewClient(readOnly.Secret, earshot.WithBaseURL(tg.baseURL))
		if err != nil {
			t.Fatal(err)
		}
		_, err = limited.Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: unique("call"), Type: "resolved"})
		expect("a missing scope", err, earshot.IsForbidden, 403)

		_, err = client.Calls.Retrieve(ctx, "no-such-call")
		expect("an unknown call", err, earshot.IsNotFound, 404)

		_, err = client.Calls.ListPage(ctx, &earshot.CallListParams{Limit: earshot.Int(100000)})
		if invalid := expect("a bad limit", err, earshot.IsValidation, 400); len(invalid.Fields) == 0 || invalid.Fields[0].Path == "" {
			t.Fatalf("no fields: %+v", invalid)
		}

		key := earshot.WithIdempotencyKey(unique("key"))
		if _, err := client.Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: unique("call"), Type: "resolved"}, key); err != nil {
			t.Fatal(err)
		}
		_, err = client.Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: unique("call"), Type: "escalated"}, key)
		expect("a reused Idempotency-Key", err, earshot.IsIdempotencyConflict, 409)

		wait := 7
		tg.inject(t, "GET", "/api/v1/calls", fault{Status: 429, RetryAfter: &wait})
		_, err = tg.proxied(t, earshot.WithMaxRetries(0)).Calls.ListPage(ctx, nil)
		if limitedErr := expect("a rate limit", err, earshot.IsRateLimited, 429); limitedErr.RetryAfter != 7*time.Second {
			t.Fatalf("Retry-After read as %s", limitedErr.RetryAfter)
		}

		tg.inject(t, "GET", "/api/v1/calls", fault{Status: 503})
		_, err = tg.proxied(t, earshot.WithMaxRetries(0)).Calls.ListPage(ctx, nil)
		expect("an unavailable server", err, earshot.IsUnavailable, 503)
	})
}
