package earshot_test

import (
	"slices"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
)

func TestPagination(t *testing.T) {
	t.Run("[pagination] limit 7 iterates every call once in the server's order; ListPage and NextPage give the same pages", func(t *testing.T) {
		tg := liveTarget(t)
		client := tg.client(t)
		ctx := timeout(t, 60*time.Second)
		agent := unique("agent")
		var events []earshot.Event
		for range 16 {
			events = append(events, callEvent("call.started", unique("call"), agent, nil))
		}
		if _, err := client.Ingest.Send(ctx, events); err != nil {
			t.Fatal(err)
		}
		eventually(t, 20*time.Second, func() error {
			ids, err := callsOf(ctx, client, agent)
			if err == nil {
				err = expectCount(ids, 16)
			}
			return err
		})
		params := &earshot.CallListParams{AgentID: &agent, Limit: earshot.Int(7)}
		var iterated []string
		for call, err := range client.Calls.List(ctx, params) {
			if err != nil {
				t.Fatal(err)
			}
			iterated = append(iterated, call.ID)
		}
		var paged []string
		var sizes []int
		page, err := client.Calls.ListPage(ctx, params)
		for ; err == nil && page != nil; page, err = page.NextPage(ctx) {
			sizes = append(sizes, len(page.Items))
			for _, call := range page.Items {
				paged = append(paged, call.ID)
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sizes, []int{7, 7, 2}) || !slices.Equal(iterated, paged) {
			t.Fatalf("pages of %v; iterated %v, paged %v", sizes, iterated, paged)
		}
		if distinct := slices.Compact(slices.Sorted(slices.Values(iterated))); len(distinct) != 16 {
			t.Fatalf("%d distinct calls of 16", len(distinct))
		}
		newestFirst := &earshot.CallListParams{AgentID: &agent, Limit: earshot.Int(200)}
		all, err := client.Calls.ListPage(ctx, newestFirst)
		if err != nil {
			t.Fatal(err)
		}
		for i, call := range all.Items {
			if iterated[i] != call.ID {
				t.Fatalf("call %d is %s in pages of 7, %s in one page", i, iterated[i], call.ID)
			}
		}
	})
}
