package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/cairn-dev/cairn/core/redact"
)

// PayloadHooks let the session see, and replace, what a request sends
// (pi's before_provider_request) and see how the server answered (its
// after_provider_response). Neither sees a secret of the request: its
// key, its headers' values and the credentials in its URL are taken out
// of what they are shown.
type PayloadHooks struct {
	// BeforeSend is called once, before the first attempt, with the
	// wire payload's maker (the payload is encoded only when asked for,
	// then kept); a non-nil result is sent instead, and must be a JSON
	// object.
	BeforeSend func(ctx context.Context, payload func() (json.RawMessage, error)) (json.RawMessage, error)
	// AfterResponse is told each attempt's status and headers, before
	// its body is read.
	AfterResponse func(ctx context.Context, status int, headers map[string]string)
}

// applyBeforeSend runs req's BeforeSend on r's payload and returns r with
// the payload to send.
func applyBeforeSend(ctx context.Context, req *Request, r JSONRequest) (JSONRequest, error) {
	if req.Hooks == nil || req.Hooks.BeforeSend == nil {
		return r, nil
	}
	var shown json.RawMessage
	var encodeErr error
	payload := func() (json.RawMessage, error) {
		if shown == nil && encodeErr == nil {
			raw, err := EncodeJSON(r.Body)
			if err != nil {
				encodeErr = &bodyError{Err: err}
			} else {
				shown = json.RawMessage(redact.Secrets(string(raw), req.Secrets()...))
			}
		}
		return shown, encodeErr
	}
	out, err := req.Hooks.BeforeSend(ctx, payload)
	if encodeErr != nil {
		return r, encodeErr
	}
	if err != nil || out == nil {
		// A failing hook changes nothing (the session tells why).
		return r, nil
	}
	if t := bytes.TrimSpace(out); len(t) == 0 || t[0] != '{' || !json.Valid(t) {
		return r, fmt.Errorf("the request payload an extension gave is not a JSON object")
	}
	r.Body = json.RawMessage(out)
	return r, nil
}

// shownHeaders are a response's headers as AfterResponse sees them: one
// value each (joined by ", "), with req's secrets taken out.
func shownHeaders(req *Request, h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	secrets := req.Secrets()
	for k, vs := range h {
		v := ""
		for i, s := range vs {
			if i > 0 {
				v += ", "
			}
			v += s
		}
		out[http.CanonicalHeaderKey(k)] = redact.Secrets(v, secrets...)
	}
	return out
}
