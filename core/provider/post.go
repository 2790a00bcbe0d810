package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/redact"
)

// JSONRequest is what one wire format says about a streaming request: where
// it goes, what it sends, and how the API takes its key and words its
// errors.
type JSONRequest struct {
	// Provider names the service in errors (see ServiceName).
	Provider string
	// URL is the endpoint.
	URL string
	// Body is the wire request, sent as EncodeJSON encodes it (written by
	// WriteJSON, so its Text values are read when it is sent).
	Body any
	// APIHeaders writes the API's own headers for the request's key (which
	// may be empty): the credential and anything that goes with it. Nil
	// sends no credential.
	APIHeaders func(h http.Header, key string)
	// Decode turns a failed response into a typed error.
	Decode ErrorDecoder
}

// SendJSON posts r.Body for req with Send's retries and returns the 2xx
// response, whose body the caller decodes and closes, or a *Error. Each
// attempt writes the body afresh (WriteJSON), reading stored tool results
// back as it goes; a large body is sent while it is written (see
// StreamedBodyThreshold). A body that cannot be encoded fails before
// anything is sent when that shows within the threshold, and is never
// retried.
func SendJSON(ctx context.Context, opts Options, req *Request, r JSONRequest) (*http.Response, error) {
	newRequest := func(ctx context.Context) (*http.Request, error) {
		body, size, err := openJSONBody(r.Body)
		if err != nil {
			return nil, err
		}
		hr, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, body)
		if err != nil {
			if c, ok := body.(io.Closer); ok {
				c.Close()
			}
			return nil, err
		}
		if size < 0 {
			hr.ContentLength = -1
			hr.GetBody = func() (io.ReadCloser, error) {
				body, _, err := openJSONBody(r.Body)
				if err != nil {
					return nil, err
				}
				return readCloser(body), nil
			}
		}
		SetHeaders(hr.Header, req, r.APIHeaders)
		return hr, nil
	}
	return Send(ctx, opts, r.Provider, req.APIKey, newRequest, r.Decode)
}

// readCloser is r, closable.
func readCloser(r io.Reader) io.ReadCloser {
	if rc, ok := r.(io.ReadCloser); ok {
		return rc
	}
	return io.NopCloser(r)
}

// StreamJSON is the part of Stream every HTTP wire format shares: it starts
// a Builder for req, sends r with SendJSON, and hands the 2xx body to read,
// closing it once read returns. A request that cannot be sent ends the
// message with Fail. read decodes the body into b and returns what Stream
// returns; it must end the message, with b.Finish or Fail, before it does.
//
// It is where a provider's errors leave for the rest of cairn, so it is
// where req's secrets (Request.Secrets) are taken out of them: a server or
// proxy may echo the key or a configured header in any error it words.
func StreamJSON(ctx context.Context, opts Options, req *Request, emit func(Event), r JSONRequest, read func(b *Builder, body io.Reader) (*core.AssistantMessage, error)) (*core.AssistantMessage, error) {
	secrets := req.Secrets()
	b := NewBuilder(&req.Model, func(e Event) {
		if e.Type == EventError && e.Message != nil {
			e.Message.ErrorMessage = redact.Secrets(e.Message.ErrorMessage, secrets...)
		}
		if emit != nil {
			emit(e)
		}
	})
	msg, err := streamJSON(ctx, opts, req, b, r, read)
	if msg != nil {
		msg.ErrorMessage = redact.Secrets(msg.ErrorMessage, secrets...)
	}
	return msg, redactError(err, secrets...)
}

func streamJSON(ctx context.Context, opts Options, req *Request, b *Builder, r JSONRequest, read func(b *Builder, body io.Reader) (*core.AssistantMessage, error)) (*core.AssistantMessage, error) {
	r, err := applyBeforeSend(ctx, req, r)
	if err != nil {
		return Fail(ctx, b, err)
	}
	resp, err := SendJSON(ctx, opts, req, r)
	if req.Hooks != nil && req.Hooks.AfterResponse != nil {
		var re *Error
		switch {
		case err == nil:
			req.Hooks.AfterResponse(ctx, resp.StatusCode, shownHeaders(req, resp.Header))
		case errors.As(err, &re) && re.Status > 0:
			req.Hooks.AfterResponse(ctx, re.Status, nil)
		}
	}
	if err != nil {
		return Fail(ctx, b, err)
	}
	defer resp.Body.Close()
	return read(b, resp.Body)
}

// SetHeaders writes the headers SendJSON sends: a JSON body, an event
// stream accepted, then apiHeaders for req's key, then the model's and the
// request's own headers, which replace any of ours (a gateway may want its
// own Authorization).
func SetHeaders(h http.Header, req *Request, apiHeaders func(h http.Header, key string)) {
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "text/event-stream")
	if apiHeaders != nil {
		apiHeaders(h, req.APIKey)
	}
	for k, v := range req.Model.Headers {
		h.Set(k, v)
	}
	for k, v := range req.Headers {
		h.Set(k, v)
	}
}

// BearerAuth sends key as a bearer token, or no credential when it is
// empty, as local servers expect.
func BearerAuth(h http.Header, key string) {
	if key != "" {
		h.Set("Authorization", "Bearer "+key)
	}
}

// EncodeJSON encodes a wire request. <, > and & stay as they are: code and
// prose in prompts are full of them, and escaping them only bloats the
// request.
func EncodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// ServiceName is the name errors give the service behind m: its provider,
// so a compatible third-party endpoint is not blamed on the API's owner, or
// fallback when the model names none.
func ServiceName(m *core.Model, fallback string) string {
	if m.Provider != "" {
		return m.Provider
	}
	return fallback
}

// BaseURL is the base an endpoint's path goes under: baseURL without
// surrounding space and trailing slashes, or fallback when that leaves
// nothing.
func BaseURL(baseURL, fallback string) string {
	if base := strings.TrimRight(strings.TrimSpace(baseURL), "/"); base != "" {
		return base
	}
	return fallback
}
