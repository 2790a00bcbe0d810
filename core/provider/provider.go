package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/redact"
)

// Provider streams one model request. Implementations are safe for concurrent
// use; each call to Stream is independent.
type Provider interface {
	// Stream sends req and calls emit, on the calling goroutine, for every
	// event of the answer in order. It returns the finished message, which is
	// also the Message of the final EventDone or EventError. Stream never
	// panics on bad input from the network and always returns a non-nil
	// message: failures end it with StopError (or StopAborted when ctx was
	// cancelled) and an ErrorMessage, and the error is returned as well,
	// typed as *Error where the provider could say more.
	Stream(ctx context.Context, req *Request, emit func(Event)) (*core.AssistantMessage, error)
}

// Request is everything one model call needs. Messages use only the user,
// assistant and tool result roles; callers convert other entries first.
type Request struct {
	Model    core.Model
	System   string
	Messages []core.Message
	Tools    []core.ToolSpec
	Thinking core.ThinkingLevel
	// MaxTokens caps the output; zero means the model's own maximum.
	MaxTokens int
	// Temperature is sent when non-nil.
	Temperature *float64
	// SessionID lets providers that key prompt caches by session do so.
	SessionID string
	// APIKey authenticates the request; it never appears in errors or logs.
	APIKey string
	// Headers are extra HTTP headers (from models.json), sent as given.
	Headers map[string]string
	// Hooks, when set, see what the request sends and how it was
	// answered (HTTP wire formats only).
	Hooks *PayloadHooks
}

// Secrets are the values no error may show: the API key, every value of
// the model's and the request's headers (models.json may put a credential
// in any of them) and the credentials in the base URL.
func (r *Request) Secrets() []string {
	out := append(redact.HeaderValues(r.Model.Headers), redact.HeaderValues(r.Headers)...)
	out = append(out, redact.URLSecrets(r.Model.BaseURL)...)
	return append(out, r.APIKey)
}

// OutputLimit is the cap on the answer to send: MaxTokens, or the model's
// own maximum when MaxTokens is not set. Zero means neither says.
func (r *Request) OutputLimit() int {
	if r.MaxTokens > 0 {
		return r.MaxTokens
	}
	return max(r.Model.MaxTokens, 0)
}

// ToolParameters returns a tool's parameter schema, or the schema of an
// object without properties when the tool declares none or an unusable one:
// the APIs that require a schema reject a missing one, and a request
// carrying invalid JSON cannot be encoded at all.
func ToolParameters(t core.ToolSpec) json.RawMessage {
	params := bytes.TrimSpace(t.Parameters)
	if len(params) == 0 || string(params) == "null" || !json.Valid(params) {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return params
}

// Texts the model sees where a wire format carries a tool result as text
// only: the whole result when it held nothing but images, and the line
// before those images when they follow in a message of their own.
const (
	ImageOnlyResultText = "(see attached image)"
	ResultImagesText    = "Attached image(s) from tool result:"
)

// ImageOmittedText stands in for each image of a user message sent to a
// model that cannot see images, so the model (and whoever reads the
// request) knows one was there; pi 0.87's words.
const ImageOmittedText = "(image omitted: model does not support images)"

// ResultText joins the text blocks of a tool result with newlines, for the
// wire formats that carry a result as one string.
func ResultText(content []core.Content) string {
	only := -1
	for i := range content {
		if content[i].Type == core.ContentText {
			if only >= 0 {
				only = -1
				break
			}
			only = i
		}
	}
	if only >= 0 {
		// One text block: its text as it is, not a copy.
		return content[only].FullText()
	}
	var text strings.Builder
	for i := range content {
		if content[i].Type != core.ContentText {
			continue
		}
		if text.Len() > 0 {
			text.WriteByte('\n')
		}
		text.WriteString(content[i].FullText())
	}
	return text.String()
}

// Options configure how a provider talks HTTP. The zero value is usable.
type Options struct {
	// Client is the HTTP client to use; nil means a client with sane timeouts.
	Client HTTPDoer
	// Retry decides how often and how long to wait before giving up. The
	// zero value sends each request once: the agent retries failed turns
	// itself, where the person can see it.
	Retry RetryPolicy
	// Timeouts end requests that stop making progress; the zero value
	// means the defaults.
	Timeouts Timeouts
	// Now and Sleep are for tests; nil means the real clock.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
	// AfterFunc starts the timers of Timeouts, calling f after d unless
	// stopped; nil means time.AfterFunc. Tests pass a fake to fire them.
	// f must run on a goroutine of its own, as with time.AfterFunc, never
	// inside the AfterFunc call.
	AfterFunc func(d time.Duration, f func()) Timer
}
