package earshot_test

import (
	"fmt"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

func TestStream(t *testing.T) {
	t.Run("[stream-resume] a subscription resumes after a drop from its last position: every event once, none missed", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.proxied(t)
		ctx := timeout(t, 60*time.Second)
		agent, providerCall := unique("agent"), unique("call")
		sub, err := client.Stream.Subscribe(ctx, &earshot.StreamParams{AgentID: agent, Types: []string{"transcript.final"}})
		if err != nil {
			t.Fatal(err)
		}
		defer sub.Close()
		send := func(from, to int) {
			var events []earshot.Event
			for i := from; i < to; i++ {
				event := callEvent("transcript.final", providerCall, agent, map[string]any{"turn_id": fmt.Sprintf("turn-%d", i), "speaker": "agent", "text": "…"})
				event.IdempotencyKey = fmt.Sprintf("%s-%d", providerCall, i)
				events = append(events, event)
			}
			if _, err := tg.client(t).Ingest.Send(ctx, events); err != nil {
				t.Fatal(err)
			}
		}
		seen := map[string]int{}
		read := func(count int) {
			for range count {
				event, err := sub.Next(ctx)
				if err != nil {
					t.Fatalf("after %d events: %v", len(seen), err)
				}
				seen[event.Event.IdempotencyKey]++
				if event.Position == "" || event.Event.Call.AgentID != agent {
					t.Fatalf("event %+v", event)
				}
			}
		}
		send(0, 5)
		read(5)
		tg.proxy(t, "POST", "/__faults/drop-streams", nil)
		send(5, 10)
		read(5)
		if len(seen) != 10 {
			t.Fatalf("saw %d distinct events of 10: %v", len(seen), seen)
		}
		for key, times := range seen {
			if times != 1 {
				t.Fatalf("%s seen %d times", key, times)
			}
		}
		if sub.Position() == "" {
			t.Fatal("no position")
		}
	})
}
