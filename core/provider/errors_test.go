package provider_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/provider"
)

func TestErrorText(t *testing.T) {
	inner := errors.New("read tcp: connection reset by peer")
	tests := []struct {
		err  *provider.Error
		want string
	}{
		{&provider.Error{Provider: "anthropic", Status: 429, Code: "rate_limit_error", Message: "Number of requests exceeded", Hint: "Rate limited; wait a moment"},
			"anthropic: HTTP 429 Too Many Requests: Number of requests exceeded (rate_limit_error). Rate limited; wait a moment"},
		{&provider.Error{Provider: "anthropic", Status: 529, Code: "overloaded_error", Message: "Overloaded"},
			"anthropic: HTTP 529: Overloaded (overloaded_error)"},
		{&provider.Error{Provider: "openai", Status: 400, Code: "invalid_request_error"},
			"openai: HTTP 400 Bad Request: invalid_request_error"},
		{&provider.Error{Provider: "openai", Status: 401, Message: "Incorrect API key", Hint: "Check the API key in OPENAI_API_KEY"},
			"openai: HTTP 401 Unauthorized: Incorrect API key. Check the API key in OPENAI_API_KEY"},
		{&provider.Error{Status: 500}, "HTTP 500 Internal Server Error"},
		{&provider.Error{Provider: "google", Status: 503, Err: inner}, "google: HTTP 503 Service Unavailable"},
		{&provider.Error{Provider: "openai", Err: inner}, "openai: read tcp: connection reset by peer"},
		{&provider.Error{Provider: "openai", Message: "stream interrupted", Err: inner}, "openai: stream interrupted"},
		{&provider.Error{Provider: "p", Code: "server_error"}, "p: server_error"},
		{&provider.Error{Message: "m", Hint: "h"}, "m. h"},
		{&provider.Error{}, ""},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("%+v\n got %q\nwant %q", *tt.err, got, tt.want)
		}
	}
}

func TestErrorWrapping(t *testing.T) {
	inner := errors.New("inner")
	pe := &provider.Error{Provider: "p", Retryable: true, Err: inner}
	wrapped := fmt.Errorf("turn 3: %w", fmt.Errorf("stream: %w", pe))
	if !provider.IsRetryable(wrapped) {
		t.Error("IsRetryable false through wrapping")
	}
	if !errors.Is(wrapped, inner) {
		t.Error("errors.Is does not reach the underlying error")
	}
	var got *provider.Error
	if !errors.As(wrapped, &got) || got != pe {
		t.Error("errors.As does not find the provider error")
	}
	if provider.IsRetryable(fmt.Errorf("x: %w", &provider.Error{Retryable: false})) {
		t.Error("non-retryable error reported retryable")
	}
	if provider.IsRetryable(nil) || provider.IsRetryable(errors.New("plain")) || provider.IsRetryable(context.Canceled) {
		t.Error("non-provider error reported retryable")
	}
}

func TestRetryableStatus(t *testing.T) {
	for status, want := range map[int]bool{
		400: false, 401: false, 403: false, 404: false, 413: false, 422: false,
		408: true, 409: true, 429: true, 500: true, 502: true, 503: true, 504: true, 529: true,
		200: false, 302: false,
	} {
		if got := provider.RetryableStatus(status); got != want {
			t.Errorf("RetryableStatus(%d) = %v, want %v", status, got, want)
		}
	}
}

func TestStatusHint(t *testing.T) {
	if got := provider.StatusHint(401, "ANTHROPIC_API_KEY"); !strings.Contains(got, "ANTHROPIC_API_KEY") {
		t.Errorf("401 hint %q does not name the key variable", got)
	}
	if got := provider.StatusHint(401, ""); got == "" || strings.Contains(got, " in ") {
		t.Errorf("401 hint without a variable: %q", got)
	}
	for _, status := range []int{403, 404, 413, 429, 500, 503, 529} {
		if provider.StatusHint(status, "") == "" {
			t.Errorf("no hint for %d", status)
		}
	}
	for _, status := range []int{200, 400, 422} {
		if got := provider.StatusHint(status, ""); got != "" {
			t.Errorf("hint for %d: %q", status, got)
		}
	}
}

// timeoutError is a net.Error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestNetworkError(t *testing.T) {
	tests := []struct {
		err       error
		retryable bool
		message   string
	}{
		{context.Canceled, false, "request was aborted"},
		{fmt.Errorf("do: %w", context.Canceled), false, "request was aborted"},
		{context.DeadlineExceeded, true, "request timed out"},
		{timeoutError{}, true, "connection timed out"},
		{errors.New("dial tcp: connection refused"), true, "connection failed: dial tcp: connection refused"},
	}
	for _, tt := range tests {
		e := provider.NetworkError("p", tt.err)
		if e.Retryable != tt.retryable || e.Message != tt.message || e.Provider != "p" || e.Status != 0 {
			t.Errorf("NetworkError(%v) = %+v", tt.err, e)
		}
		if !errors.Is(e, tt.err) {
			t.Errorf("NetworkError(%v) does not wrap it", tt.err)
		}
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		name string
		h    map[string]string
		want time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "2"}, 2 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"zero", map[string]string{"Retry-After": "0"}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"garbage", map[string]string{"Retry-After": "soon"}, 0},
		{"milliseconds", map[string]string{"retry-after-ms": "1500"}, 1500 * time.Millisecond},
		{"milliseconds win", map[string]string{"retry-after-ms": "250", "Retry-After": "9"}, 250 * time.Millisecond},
		{"zero milliseconds fall back", map[string]string{"retry-after-ms": "0", "Retry-After": "3"}, 3 * time.Second},
		{"bad milliseconds fall back", map[string]string{"retry-after-ms": "x", "Retry-After": "3"}, 3 * time.Second},
		{"http date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"http date past", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"http date now", map[string]string{"Retry-After": now.Format(http.TimeFormat)}, 0},
		{"rfc850 date", map[string]string{"Retry-After": now.Add(10 * time.Second).Format(time.RFC850)}, 10 * time.Second},
		{"NaN", map[string]string{"Retry-After": "NaN"}, 0},
		{"NaN milliseconds", map[string]string{"retry-after-ms": "NaN"}, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.h {
			h.Set(k, v)
		}
		if got := provider.ParseRetryAfter(h, now); got != tt.want {
			t.Errorf("%s: %v gives %v, want %v", tt.name, tt.h, got, tt.want)
		}
	}
}

// A server asking for an absurdly long wait must come out as a long wait (so
// Send refuses to retry), never as a wrapped-around negative duration.
func TestParseRetryAfterHugeValuesSaturate(t *testing.T) {
	for _, h := range []map[string]string{
		{"Retry-After": "99999999999"},
		{"Retry-After": "1e20"},
		{"Retry-After": "+Inf"},
		{"retry-after-ms": "1e30"},
	} {
		hdr := http.Header{}
		for k, v := range h {
			hdr.Set(k, v)
		}
		if got := provider.ParseRetryAfter(hdr, time.Now()); got < 24*time.Hour {
			t.Errorf("%v gives %v, want a very long wait", h, got)
		}
	}
}
