package earshot_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

func TestIngest(t *testing.T) {
	t.Run("[ingest-then-read] a call's events are answered per envelope and read back with its turn", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.client(t)
		ctx := timeout(t, 60*time.Second)
		agent, providerCall := unique("agent"), unique("call")
		result, err := client.Ingest.Send(ctx, conversation(providerCall, agent))
		if err != nil {
			t.Fatal(err)
		}
		if result.Accepted != 3 || len(result.Results) != 3 {
			t.Fatalf("answered %+v", result)
		}
		var ids []string
		eventually(t, 20*time.Second, func() (err error) {
			ids, err = callsOf(ctx, client, agent)
			if err == nil {
				err = expectCount(ids, 1)
			}
			return err
		})
		var call *earshot.CallDetail
		eventually(t, 20*time.Second, func() (err error) {
			if call, err = client.Calls.Retrieve(ctx, ids[0]); err == nil && (len(call.Turns) != 1 || call.EndedAt == nil) {
				err = fmt.Errorf("the call has %d turns, ended at %v", len(call.Turns), call.EndedAt)
			}
			return err
		})
		if call.ProviderCallID != providerCall || call.AgentID != agent || call.Turns[0].Latency.TotalMs == nil || *call.Turns[0].Latency.TotalMs != 550 {
			t.Fatalf("read back %+v", call)
		}
	})

	t.Run("erasing a call with a reason destroys its key and rows, and it reads as not found", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.client(t)
		ctx := timeout(t, 60*time.Second)
		agent, providerCall := unique("agent_erase"), unique("erase")
		if _, err := client.Ingest.Send(ctx, conversation(providerCall, agent)); err != nil {
			t.Fatal(err)
		}
		var ids []string
		eventually(t, 20*time.Second, func() (err error) {
			ids, err = callsOf(ctx, client, agent)
			if err == nil {
				err = expectCount(ids, 1)
			}
			return err
		})
		erased, err := client.Calls.Erase(ctx, ids[0], earshot.CallEraseParams{Reason: "the caller asked to be forgotten"})
		if err != nil {
			t.Fatal(err)
		}
		if erased.ID != ids[0] || erased.AlreadyErased || erased.RowsDeleted <= 0 {
			t.Fatalf("erasing answered %+v", erased)
		}
		if _, err := client.Calls.Retrieve(ctx, ids[0]); !earshot.IsNotFound(err) {
			t.Fatalf("an erased call answered %v", err)
		}
		if _, err := client.Calls.Erase(ctx, "00000000-0000-4000-8000-000000000000", earshot.CallEraseParams{Reason: "never was"}); !earshot.IsNotFound(err) {
			t.Fatalf("erasing a call that never was answered %v", err)
		}
	})

	t.Run("[ingest-batches] 1,200 events go out as 3 signed requests and answer in order; a resend is a duplicate, an invalid one a dead letter", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.proxied(t)
		ctx := timeout(t, 60*time.Second)
		tg.proxy(t, "DELETE", "/__faults", nil)
		agent, providerCall := unique("agent"), unique("call")
		events := make([]earshot.Event, 1200)
		for i := range events {
			events[i] = callEvent("transcript.final", providerCall, agent, map[string]any{"turn_id": fmt.Sprintf("turn-%d", i), "speaker": "customer", "text": "hello"})
			events[i].IdempotencyKey = fmt.Sprintf("%s-%d", providerCall, i)
		}
		result, err := client.Ingest.Send(ctx, events)
		if err != nil {
			t.Fatal(err)
		}
		if sent := tg.requests(t, "POST", "/api/v1/webhooks/ingest"); len(sent) != 3 {
			t.Fatalf("%d requests, not 3", len(sent))
		}
		if result.Accepted != 1200 || len(result.Results) != 1200 {
			t.Fatalf("accepted %d, %d results", result.Accepted, len(result.Results))
		}
		again, err := client.Ingest.Send(ctx, []earshot.Event{events[0], events[1199]})
		if err != nil {
			t.Fatal(err)
		}
		if again.Duplicates != 2 || again.Results[0].ID != result.Results[0].ID || again.Results[1].ID != result.Results[1199].ID {
			t.Fatalf("the resend answered %+v; first %+v, last %+v", again.Results, result.Results[0], result.Results[1199])
		}
		invalid := callEvent("call.transferred", providerCall, agent, map[string]any{"reason": "no target"})
		mixed, err := client.Ingest.Send(ctx, []earshot.Event{invalid, callEvent("call.started", unique("call"), agent, nil)})
		if err != nil {
			t.Fatal(err)
		}
		dead := mixed.Results[0]
		if mixed.DeadLettered != 1 || mixed.Accepted != 1 || dead.Status != earshot.StatusDeadLettered || dead.Rejection.Error == "" || dead.Rejection.DeadLetterID == nil {
			t.Fatalf("answered %+v, %+v", mixed, dead.Rejection)
		}
	})

	t.Run("[batcher-loses-nothing] 5,000 events from concurrent producers under back-pressure are each accepted once", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.client(t)
		ctx := timeout(t, 120*time.Second)
		agent, providerCall := unique("agent"), unique("call")
		var mu sync.Mutex
		answered := map[string]string{}
		var failures []error
		batcher := client.Ingest.Batcher(earshot.BatcherOptions{
			MaxEvents: 250, MaxDelay: 50 * time.Millisecond, MaxPending: 600,
			OnResult: func(events []earshot.Event, result *earshot.IngestResult) {
				mu.Lock()
				defer mu.Unlock()
				for i, r := range result.Results {
					if _, twice := answered[events[i].IdempotencyKey]; twice {
						failures = append(failures, fmt.Errorf("%s answered twice", events[i].IdempotencyKey))
					}
					answered[events[i].IdempotencyKey] = r.Status
				}
			},
			OnError: func(_ []earshot.Event, err error) {
				mu.Lock()
				defer mu.Unlock()
				failures = append(failures, err)
			},
		})
		const producers, each = 5, 1000
		var wg sync.WaitGroup
		for p := range producers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range each {
					event := callEvent("transcript.partial", providerCall, agent, map[string]any{"turn_id": "turn-1", "speaker": "agent", "text": "…"})
					event.IdempotencyKey = fmt.Sprintf("%s-%d-%d", providerCall, p, i)
					if err := batcher.Add(ctx, event); err != nil {
						mu.Lock()
						failures = append(failures, err)
						mu.Unlock()
						return
					}
				}
			}()
		}
		wg.Wait()
		if err := batcher.Close(ctx); err != nil {
			t.Fatal(err)
		}
		if err := batcher.Add(ctx, earshot.Event{}); err != earshot.ErrBatcherClosed {
			t.Fatalf("Add after Close answered %v", err)
		}
		if len(failures) > 0 {
			t.Fatal(failures)
		}
		if len(answered) != producers*each {
			t.Fatalf("%d of %d events answered", len(answered), producers*each)
		}
		for key, status := range answered {
			if status != earshot.StatusAccepted {
				t.Fatalf("%s: %s", key, status)
			}
		}
	})
}

func TestBatcherBackPressureHonoursTheContext(t *testing.T) {
	client, err := earshot.NewClient("ear_test_unused", earshot.WithBaseURL("http://127.0.0.1:1"), earshot.WithWebhookSecret("whsec_x"), earshot.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	batcher := client.Ingest.Batcher(earshot.BatcherOptions{MaxEvents: 10, MaxDelay: time.Hour, MaxPending: 3})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := batcher.Add(ctx, earshot.Event{}, earshot.Event{}, earshot.Event{}, earshot.Event{}); err != context.DeadlineExceeded {
		t.Fatalf("a full batcher answered %v", err)
	}
	// Nothing can reach the server, so Close reports the batch it could not send.
	if err := batcher.Close(context.Background()); err == nil {
		t.Fatal("Close reported no failure")
	}
}
