// A webhook receiver in Go, standard library only: verifies each delivery (Standard Webhooks
// signature, 5-minute window) and acknowledges it at once, as examples/receive-webhooks.ts does.
// Run: WEBHOOK_SECRET=whsec_… PORT=3000 go run examples/receive_webhooks.go
//
// VerifyWebhook is the part to copy into a receiver of your own: give it the endpoint's secret, the
// request's headers and its raw body, exactly as received.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Tolerance is how far a delivery's timestamp may be from the receiver's clock, either way.
const Tolerance = 5 * time.Minute

// MaxBodyBytes caps the body read.
const MaxBodyBytes = 1 << 20

// VerificationError is a delivery that must not be trusted: answer it with a 400, never with a 2xx.
// Reason is one of missing_header, invalid_timestamp, timestamp_out_of_tolerance,
// no_matching_signature, invalid_body, body_too_large (the TypeScript client's reasons).
type VerificationError struct {
	Reason  string
	Message string
}

func (e *VerificationError) Error() string { return e.Message }

// Event is a delivery's body: the fields every event has; Data depends on Type.
type Event struct {
	ID          string          `json:"id"`
	Type        string          `json:"type"`
	CreatedAt   string          `json:"created_at"`
	WorkspaceID string          `json:"workspace_id"`
	Livemode    bool            `json:"livemode"`
	Data        json.RawMessage `json:"data"`
}

var (
	base64Text = regexp.MustCompile(`^[A-Za-z0-9+/]+={0,2}$`)
	unixTime   = regexp.MustCompile(`^[0-9]{1,15}$`)
)

func secretKey(secret string) ([]byte, error) {
	encoded := strings.TrimPrefix(secret, "whsec_")
	key, err := base64.StdEncoding.DecodeString(encoded)
	if !base64Text.MatchString(encoded) || err != nil || len(key) == 0 {
		return nil, errors.New("a webhook secret is whsec_ and base64 (not empty)")
	}
	return key, nil
}

// VerifyWebhook returns the delivery's event, or a *VerificationError. A malformed secret is a
// configuration error (any other error). De-duplicate events on their ID, and ignore event types
// you do not know.
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) (*Event, error) {
	key, err := secretKey(secret)
	if err != nil {
		return nil, err
	}
	get := func(name string) string { return strings.TrimSpace(strings.Join(header.Values(name), " ")) }
	id, timestamp := get("webhook-id"), get("webhook-timestamp")
	// X-Svc-Signature carries the same value; it is read only when webhook-signature is absent.
	signatures := get("webhook-signature")
	if signatures == "" {
		signatures = get("x-svc-signature")
	}
	if id == "" || timestamp == "" || signatures == "" {
		return nil, &VerificationError{"missing_header", "a webhook-id, webhook-timestamp or webhook-signature header is missing"}
	}
	if !unixTime.MatchString(timestamp) {
		return nil, &VerificationError{"invalid_timestamp", "webhook-timestamp is not whole Unix seconds"}
	}
	seconds, _ := strconv.ParseInt(timestamp, 10, 64)
	if skew := now.Sub(time.Unix(seconds, 0)); skew > Tolerance || skew < -Tolerance {
		return nil, &VerificationError{"timestamp_out_of_tolerance", fmt.Sprintf("webhook-timestamp is more than %v away", Tolerance)}
	}

	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	expected := []byte(base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	// Several space-separated signatures during a secret rotation: any v1 one may match. Each is
	// compared in constant time, and all of them are.
	matched := false
	for _, entry := range strings.Split(signatures, " ") {
		version, signature, _ := strings.Cut(entry, ",")
		if version == "v1" && hmac.Equal([]byte(signature), expected) {
			matched = true
		}
	}
	if !matched {
		return nil, &VerificationError{"no_matching_signature", "no signature matches this secret"}
	}

	var event Event
	var data map[string]json.RawMessage
	if err := json.Unmarshal(body, &event); err != nil || event.ID == "" || event.Type == "" || json.Unmarshal(event.Data, &data) != nil || data == nil {
		return nil, &VerificationError{"invalid_body", "the body is not an event"}
	}
	return &event, nil
}

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	if _, err := secretKey(secret); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "3000"
	}
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, MaxBodyBytes+1))
		var event *Event
		if err == nil && len(body) > MaxBodyBytes {
			err = &VerificationError{"body_too_large", "the body is longer than 1 MiB"}
		}
		if err == nil {
			event, err = VerifyWebhook(secret, r.Header, body, time.Now())
		}
		var refused *VerificationError
		if errors.As(err, &refused) {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, refused.Reason)
			return
		}
		if err != nil {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		fmt.Printf("verified %s %s\n", event.Type, event.ID) // de-duplicate on the ID, then do the work
		w.WriteHeader(http.StatusNoContent)
	})
	listener, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("listening on %s\n", port)
	fmt.Fprintln(os.Stderr, http.Serve(listener, nil))
	os.Exit(1)
}
