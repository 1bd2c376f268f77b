// Quickstart sends 100 events in batches, lists the calls, gets one, records
// an outcome and catches a 404 as the typed error. It reads EARSHOT_API_KEY,
// EARSHOT_BASE_URL and EARSHOT_WEBHOOK_SECRET.
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	earshot "github.com/earshot/earshot-go"
)

func main() {
	ctx := context.Background()
	client, err := earshot.NewClient("") // the key, base URL and webhook secret from the environment
	if err != nil {
		log.Fatal(err)
	}

	// 100 events: 20 calls of five events each, sent by a batcher in batches of 50.
	batcher := client.Ingest.Batcher(earshot.BatcherOptions{MaxEvents: 50})
	for i := range 20 {
		call := &earshot.EventCall{ProviderCallID: fmt.Sprintf("quickstart-%d-%d", time.Now().Unix(), i), AgentID: "support"}
		for _, kind := range []string{"call.started", "call.answered", "transcript.final", "agent.response.generated", "call.ended"} {
			data := map[string]any{}
			switch kind {
			case "transcript.final":
				data = map[string]any{"turn_id": "t1", "speaker": "customer", "text": "I need help with my bill"}
			case "agent.response.generated":
				data = map[string]any{"turn_id": "t1", "text": "Sure, let me look.", "latency": map[string]any{"asr_ms": 110, "llm_ms": 420, "tts_ms": 95, "total_ms": 625}}
			}
			if err := batcher.Add(ctx, earshot.Event{Type: kind, Call: call, Data: data}); err != nil {
				log.Fatal(err)
			}
		}
	}
	if err := batcher.Close(ctx); err != nil {
		log.Fatal(err)
	}

	// The calls appear once Earshot has projected the events.
	var first *earshot.Call
	for first == nil {
		for call, err := range client.Calls.List(ctx, &earshot.CallListParams{AgentID: earshot.String("support")}) {
			if err != nil {
				log.Fatal(err)
			}
			fmt.Println(call.ID, call.Status, call.StartedAt)
			if first == nil {
				first = &call
			}
		}
		if first == nil {
			time.Sleep(500 * time.Millisecond)
		}
	}

	call, err := client.Calls.Retrieve(ctx, first.ID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("call %s: %d turns\n", call.ID, len(call.Turns))

	outcome, err := client.Outcomes.Create(ctx, earshot.OutcomeCreateParams{CallID: call.ID, Type: "resolved", RevenueUsd: earshot.Float(49)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("outcome", outcome.ID)

	_, err = client.Calls.Retrieve(ctx, "no-such-call")
	var apiErr *earshot.Error
	if earshot.IsNotFound(err) && errors.As(err, &apiErr) {
		fmt.Println("not found:", apiErr.Message)
	} else {
		log.Fatalf("expected a 404, got %v", err)
	}
}
