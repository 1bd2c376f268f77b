package earshot_test

import (
	"strings"
	"testing"

	earshot "github.com/earshot/earshot-go"
)

func TestClient(t *testing.T) {
	t.Run("[client-from-environment] the environment alone configures a client; the service root means {root}/api/v1; no key names EARSHOT_API_KEY", func(t *testing.T) {
		tg := liveTarget(t)
		ctx := timeout(t, 30*1e9)
		client, err := earshot.NewClient("")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.Realtime.Retrieve(ctx); err != nil {
			t.Fatalf("a client from the environment: %v", err)
		}
		root := strings.TrimSuffix(tg.baseURL, "/api/v1")
		fromRoot := tg.client(t, earshot.WithBaseURL(root+"/"))
		if fromRoot.BaseURL() != tg.baseURL {
			t.Fatalf("the service root became %s, not %s", fromRoot.BaseURL(), tg.baseURL)
		}
		if _, err := fromRoot.Calls.ListPage(ctx, nil); err != nil {
			t.Fatalf("a client given the service root: %v", err)
		}
		t.Setenv("EARSHOT_API_KEY", "")
		if _, err := earshot.NewClient(""); err == nil || !strings.Contains(err.Error(), "EARSHOT_API_KEY") {
			t.Fatalf("no key: %v", err)
		}
	})
}
