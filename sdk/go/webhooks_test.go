package earshot_test

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"

	earshot "github.com/earshot/earshot-go"
	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"
)

func newSecret(t *testing.T) string {
	key := make([]byte, 24)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(key)
}

func TestWebhooks(t *testing.T) {
	t.Run("[webhook-verify] verify accepts what the official library and Sign make, and refuses a changed body, a stale timestamp and a wrong secret", func(t *testing.T) {
		secret := newSecret(t)
		payload := []byte(`{"type":"alert.fired","version":"2026-01-01","idempotency_key":"alert-1","occurred_at":"2026-01-01T00:00:00Z","data":{"alert_id":"a1"}}`)
		official, err := standardwebhooks.NewWebhook(secret)
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now()
		signature, err := official.Sign("msg_1", now, payload)
		if err != nil {
			t.Fatal(err)
		}
		header := http.Header{}
		header.Set("webhook-id", "msg_1")
		header.Set("webhook-timestamp", strconv.FormatInt(now.Unix(), 10))
		header.Set("webhook-signature", signature)
		if err := earshot.VerifyWebhook(payload, header, secret, 0); err != nil {
			t.Fatalf("the official library's signature: %v", err)
		}

		client, err := earshot.NewClient("ear_test_unused", earshot.WithWebhookSecret(secret))
		if err != nil {
			t.Fatal(err)
		}
		ours, err := client.Webhooks.Sign(payload, "msg_2", now)
		if err != nil {
			t.Fatal(err)
		}
		if err := official.Verify(payload, ours); err != nil {
			t.Fatalf("the official library refuses Sign: %v", err)
		}
		event, err := client.Webhooks.Verify(payload, ours)
		if err != nil || event.Type != "alert.fired" || event.Data["alert_id"] != "a1" {
			t.Fatalf("Verify answered %+v, %v", event, err)
		}

		changed := append([]byte(nil), payload...)
		changed[10] = 'X'
		stale, _ := earshot.SignWebhook(payload, secret, "msg_3", now.Add(-10*time.Minute))
		for name, err := range map[string]error{
			"a changed body":    earshot.VerifyWebhook(changed, ours, secret, 0),
			"a stale timestamp": earshot.VerifyWebhook(payload, stale, secret, 0),
			"a wrong secret":    earshot.VerifyWebhook(payload, ours, newSecret(t), 0),
		} {
			if !errors.Is(err, earshot.ErrWebhookVerification) {
				t.Errorf("%s answered %v", name, err)
			}
		}
	})
}

func TestSigning(t *testing.T) {
	t.Run("[signing-vectors] the ingest signature equals the server's vectors", func(t *testing.T) {
		raw, err := os.ReadFile("../signing-vectors.json")
		if err != nil {
			t.Fatal(err)
		}
		var file struct {
			Vectors []struct{ Secret, Timestamp, Body, Signature string }
		}
		if err := json.Unmarshal(raw, &file); err != nil {
			t.Fatal(err)
		}
		if len(file.Vectors) == 0 {
			t.Fatal("no vectors")
		}
		for _, v := range file.Vectors {
			if got := earshot.Sign(v.Secret, v.Timestamp, []byte(v.Body)); got != v.Signature {
				t.Errorf("%q at %s: %s, not %s", v.Body, v.Timestamp, got, v.Signature)
			}
		}
	})
}
