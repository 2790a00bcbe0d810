package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cairn-dev/cairn/core/redact"
)

// Error is a failed model request, typed so callers can decide what to do:
// retry (Retryable, RetryAfter), tell the person (Error, Hint), or branch on
// the HTTP status and the provider's own error type.
type Error struct {
	// Provider is the provider name the request went to ("anthropic").
	Provider string
	// Status is the HTTP status, or 0 when the failure was not an HTTP answer
	// (a dropped connection, an error event inside the stream).
	Status int
	// Code is the provider's error type or code ("overloaded_error",
	// "rate_limit_exceeded", "RESOURCE_EXHAUSTED"), when it gave one.
	Code string
	// Message is the provider's own explanation, or ours when it gave none.
	Message string
	// Retryable says whether sending the same request again may succeed.
	Retryable bool
	// RetryAfter is how long the provider asked us to wait, if it said.
	RetryAfter time.Duration
	// Hint tells the person what to do about it, if we know.
	Hint string
	// Err is the underlying error, if any.
	Err error
}

// Error formats the failure for a person: who failed, how, and what to do.
func (e *Error) Error() string {
	var b strings.Builder
	if e.Provider != "" {
		b.WriteString(e.Provider)
		b.WriteString(": ")
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", e.Status)
		if text := http.StatusText(e.Status); text != "" {
			b.WriteString(" ")
			b.WriteString(text)
		}
		if e.Message != "" || e.Code != "" {
			b.WriteString(": ")
		}
	}
	switch {
	case e.Code != "" && e.Message != "":
		fmt.Fprintf(&b, "%s (%s)", e.Message, e.Code)
	case e.Message != "":
		b.WriteString(e.Message)
	case e.Code != "":
		b.WriteString(e.Code)
	case e.Err != nil && e.Status == 0:
		b.WriteString(e.Err.Error())
	}
	if e.Hint != "" {
		if s := b.String(); s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "?") && !strings.HasSuffix(s, "!") {
			b.WriteString(".")
		}
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(e.Hint)
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// IsRetryable reports whether err is a provider error worth retrying.
func IsRetryable(err error) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Retryable
}

// RetryableStatus reports whether an HTTP status is worth retrying: 408, 409,
// 429, every 5xx, and Anthropic's 529 "overloaded".
func RetryableStatus(status int) bool {
	switch {
	case status == http.StatusRequestTimeout, status == http.StatusConflict, status == http.StatusTooManyRequests:
		return true
	case status >= 500:
		return true
	}
	return false
}

// permanentCodes are provider error codes that no retry can fix, even when
// they arrive with a status (429, 5xx) that is normally worth retrying.
var permanentCodes = map[string]bool{
	"insufficient_quota":                   true,
	"billing_hard_limit_reached":           true,
	"billing_not_active":                   true,
	"invalid_api_key":                      true,
	"context_length_exceeded":              true,
	"model_not_found":                      true,
	"PERMISSION_DENIED":                    true,
	"UNAUTHENTICATED":                      true,
	"invalid_request_error":                true,
	"authentication_error":                 true,
	"permission_error":                     true,
	"not_found_error":                      true,
	"request_too_large":                    true,
	"unsupported_country_region_territory": true,
}

// PermanentCode reports whether a provider error code means retrying cannot
// help (an exhausted quota, a bad key, an oversized request).
func PermanentCode(code string) bool { return permanentCodes[code] }

// StatusHint says what a person can do about an HTTP status, given the
// environment variable that holds the provider's key (may be empty).
func StatusHint(status int, keyEnv string) string {
	switch status {
	case http.StatusUnauthorized:
		if keyEnv != "" {
			return "Check the API key in " + keyEnv + " (or the provider's apiKey in models.json)"
		}
		return "Check the provider's API key"
	case http.StatusForbidden:
		return "The API key is not allowed to use this model or endpoint"
	case http.StatusNotFound:
		return "Check the model id and the provider's base URL"
	case http.StatusRequestEntityTooLarge:
		return "The request is too large; compact the conversation or send smaller files"
	case http.StatusTooManyRequests:
		return "Rate limited; wait a moment or check your plan's limits"
	}
	if status >= 500 {
		return "The provider is having trouble; try again shortly"
	}
	return ""
}

// NetworkError wraps a failure to reach the server or to keep reading from it.
// Connection failures are retryable; a cancelled context is not.
func NetworkError(provider string, err error) *Error {
	e := &Error{Provider: provider, Err: err, Retryable: true}
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		e.Retryable = false
		e.Message = "request was aborted"
	case errors.Is(err, context.DeadlineExceeded):
		e.Message = "request timed out"
	case errors.As(err, &netErr) && netErr.Timeout():
		e.Message = "connection timed out"
		e.Hint = "Check your network or the provider's base URL"
	default:
		e.Message = "connection failed: " + err.Error()
		e.Hint = "Check your network or the provider's base URL"
	}
	return e
}

// ParseRetryAfter reads how long a response asks us to wait: retry-after-ms,
// then Retry-After as seconds or as an HTTP date. It returns 0 when neither
// is present or valid.
func ParseRetryAfter(h http.Header, now time.Time) time.Duration {
	if ms := h.Get("Retry-After-Ms"); ms != "" {
		if v, err := strconv.ParseFloat(ms, 64); err == nil && v > 0 {
			return scaleDuration(v, time.Millisecond)
		}
	}
	ra := h.Get("Retry-After")
	if ra == "" {
		return 0
	}
	if v, err := strconv.ParseFloat(ra, 64); err == nil {
		if !(v > 0) { // also rejects NaN
			return 0
		}
		return scaleDuration(v, time.Second)
	}
	if t, err := http.ParseTime(ra); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// scaleDuration converts v units to a Duration, saturating instead of
// overflowing, so an absurd wait stays too long to retry rather than turning
// negative.
func scaleDuration(v float64, unit time.Duration) time.Duration {
	if d := v * float64(unit); d < float64(math.MaxInt64) {
		return time.Duration(d)
	}
	return math.MaxInt64
}

// connectError types a failure to get a response. A refused connection to
// this machine fails at once, not retryable: a local server that is not
// running will not start during a backoff, and retrying only delays the
// message that says what is wrong.
func connectError(provider string, req *http.Request, err error, apiKey string) *Error {
	if errors.Is(err, syscall.ECONNREFUSED) && isLoopback(req.URL.Hostname()) {
		u := *req.URL
		u.RawQuery, u.Fragment, u.User = "", "", nil
		return &Error{Provider: provider, Err: err,
			Message: "nothing is listening at " + redact.Secrets(u.String(), apiKey) + " — is the server running?",
			Hint:    "Start the model server, or check the provider's base URL"}
	}
	return NetworkError(provider, err)
}

// isLoopback reports whether host names this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
