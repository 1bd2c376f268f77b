package earshot

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ErrWebhookVerification is wrapped by every error of VerifyWebhook: test for it with errors.Is.
var ErrWebhookVerification = errors.New("earshot: webhook verification failed")

// DefaultWebhookTolerance is how far a notification's timestamp may be from now.
const DefaultWebhookTolerance = 5 * time.Minute

// VerifyWebhook checks an alert notification's signature the Standard
// Webhooks way: webhook-signature holds "v1,<base64>" signatures of
// webhook-id + "." + webhook-timestamp + "." + payload, an HMAC-SHA256 keyed
// with the secret's base64 (after "whsec_"); the timestamp must be within
// tolerance of now (DefaultWebhookTolerance when zero).
func VerifyWebhook(payload []byte, header http.Header, secret string, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultWebhookTolerance
	}
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return fmt.Errorf("%w: missing webhook-id, webhook-timestamp or webhook-signature", ErrWebhookVerification)
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: webhook-timestamp is not Unix seconds", ErrWebhookVerification)
	}
	if drift := time.Since(time.Unix(seconds, 0)); drift > tolerance || drift < -tolerance {
		return fmt.Errorf("%w: the timestamp is outside the tolerance", ErrWebhookVerification)
	}
	key, err := webhookKey(secret)
	if err != nil {
		return err
	}
	expected := webhookSignature(key, id, timestamp, payload)
	for _, candidate := range strings.Fields(signatures) {
		version, signature, ok := strings.Cut(candidate, ",")
		if ok && version == "v1" && hmac.Equal([]byte(signature), []byte(expected)) {
			return nil
		}
	}
	return fmt.Errorf("%w: no matching signature", ErrWebhookVerification)
}

// SignWebhook makes the Standard Webhooks headers of a payload, for tests.
func SignWebhook(payload []byte, secret, id string, at time.Time) (http.Header, error) {
	key, err := webhookKey(secret)
	if err != nil {
		return nil, err
	}
	timestamp := strconv.FormatInt(at.Unix(), 10)
	header := http.Header{}
	header.Set("webhook-id", id)
	header.Set("webhook-timestamp", timestamp)
	header.Set("webhook-signature", "v1,"+webhookSignature(key, id, timestamp, payload))
	return header, nil
}

// webhookKey decodes a whsec_ secret: standard base64, as the Standard
// Webhooks libraries read it, or the URL-safe alphabet Earshot's tenant
// secrets are written in.
func webhookKey(secret string) ([]byte, error) {
	encoded := strings.TrimPrefix(secret, "whsec_")
	for _, encoding := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err := encoding.DecodeString(encoded); err == nil {
			return key, nil
		}
	}
	return nil, fmt.Errorf("%w: the secret is not whsec_ and base64", ErrWebhookVerification)
}

func webhookSignature(key []byte, id, timestamp string, payload []byte) string {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(payload)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// WebhookService verifies alert notifications with the client's webhook secret.
type WebhookService struct{ client *Client }

// Verify checks a notification (VerifyWebhook, with the client's secret and
// the default tolerance) and answers its event.
func (s *WebhookService) Verify(payload []byte, header http.Header) (*Event, error) {
	if err := VerifyWebhook(payload, header, s.client.webhookSecret, 0); err != nil {
		return nil, err
	}
	var event Event
	if err := json.Unmarshal(payload, &event); err != nil {
		return nil, fmt.Errorf("%w: the payload is not an event: %v", ErrWebhookVerification, err)
	}
	return &event, nil
}

// Sign makes the Standard Webhooks headers of a payload with the client's secret, for tests.
func (s *WebhookService) Sign(payload []byte, id string, at time.Time) (http.Header, error) {
	return SignWebhook(payload, s.client.webhookSecret, id, at)
}
