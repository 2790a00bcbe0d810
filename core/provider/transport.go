package provider

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"golang.org/x/net/html"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/redact"
)

// HTTPDoer sends one HTTP request; *http.Client is one.
type HTTPDoer interface {
	Do(*http.Request) (*http.Response, error)
}

// RetryPolicy decides how often a request is retried before its stream
// starts. Once the first byte of a response body has been read a request is
// never retried here: the agent decides what to do with a broken stream.
type RetryPolicy struct {
	// MaxRetries is how many times to retry after the first attempt. Zero
	// or a negative value means no retries: the agent retries failed turns
	// itself, visibly (auto_retry events), and retrying here as well would
	// multiply the requests a failing provider gets and hide them.
	MaxRetries int
	// BaseDelay is the first backoff; it doubles with each retry, with
	// jitter. Zero means 1 s.
	BaseDelay time.Duration
	// MaxDelay caps the backoff and any Retry-After the server asks for;
	// a server asking for longer is not retried. Zero means 60 s.
	MaxDelay time.Duration
	// OnRetry, when set, is told before each wait so a front end can show
	// that a retry is coming.
	OnRetry func(attempt int, wait time.Duration, err *Error)
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.BaseDelay == 0 {
		p.BaseDelay = time.Second
	}
	if p.MaxDelay == 0 {
		p.MaxDelay = 60 * time.Second
	}
	return p
}

// defaultClient dials with the default connect timeout.
var defaultClient = newClient(DefaultConnectTimeout)

// ErrorDecoder turns a non-2xx response into a typed error. body holds up to
// 1 MiB of the response body.
type ErrorDecoder func(status int, header http.Header, body []byte) *Error

// Send performs an HTTP request with retries. newRequest builds a fresh
// request for each attempt. It returns a 2xx response whose body the caller
// must close, or a *Error. Errors never contain apiKey.
func Send(ctx context.Context, opts Options, providerName, apiKey string, newRequest func(context.Context) (*http.Request, error), decode ErrorDecoder) (*http.Response, error) {
	limits := opts.Timeouts.withDefaults()
	client := opts.Client
	if client == nil {
		client = clientFor(limits.Connect)
	}
	afterFunc := opts.AfterFunc
	if afterFunc == nil {
		afterFunc = realAfterFunc
	}
	sleep := opts.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	policy := opts.Retry.withDefaults()
	for attempt := 0; ; attempt++ {
		// Each attempt has its own context, which the watchdog cancels
		// when a time limit passes; the body's Close releases it.
		actx, cancel := context.WithCancel(ctx)
		req, err := newRequest(actx)
		if err != nil {
			cancel()
			return nil, &Error{Provider: providerName, Message: redact.Secrets(err.Error(), apiKey), Err: err}
		}
		w := &watchdog{provider: providerName, limits: limits, afterFunc: afterFunc, cancel: cancel}
		w.start()
		resp, err := client.Do(req)
		var perr *Error
		if err != nil {
			w.stop()
			cancel()
			if ctx.Err() != nil {
				return nil, NetworkError(providerName, ctx.Err())
			}
			if berr, ok := bodyErrorOf(err); ok {
				return nil, &Error{Provider: providerName, Message: redact.Secrets(berr.Error(), apiKey), Err: berr}
			}
			if perr = w.expired(); perr == nil {
				perr = connectError(providerName, req, redactError(err, apiKey), apiKey)
			}
		} else if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			resp.Body = &watchedBody{rc: resp.Body, w: w}
			if herr := htmlAnswer(resp, providerName, apiKey); herr != nil {
				return nil, herr
			}
			return resp, nil
		} else {
			resp.Body = &watchedBody{rc: resp.Body, w: w}
			perr = responseError(resp, providerName, apiKey, now(), decode)
			if terr := w.expired(); terr != nil {
				perr = terr
			}
		}
		if !perr.Retryable || attempt >= policy.MaxRetries {
			return nil, perr
		}
		wait := backoff(policy, attempt)
		if perr.RetryAfter > 0 {
			if perr.RetryAfter > policy.MaxDelay {
				return nil, perr
			}
			wait = perr.RetryAfter
		}
		if policy.OnRetry != nil {
			policy.OnRetry(attempt+1, wait, perr)
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, NetworkError(providerName, err)
		}
	}
}

// responseError reads a failed response's body and decodes it.
func responseError(resp *http.Response, providerName, apiKey string, now time.Time, decode ErrorDecoder) *Error {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	var perr *Error
	if decode != nil {
		perr = decode(resp.StatusCode, resp.Header, body)
	}
	if perr == nil {
		perr = &Error{}
	}
	perr.Provider = providerName
	perr.Status = resp.StatusCode
	if perr.Message == "" {
		perr.Message = http.StatusText(resp.StatusCode)
	}
	perr.Message = redact.Secrets(perr.Message, apiKey)
	if !perr.Retryable && !PermanentCode(perr.Code) {
		perr.Retryable = RetryableStatus(resp.StatusCode)
	}
	// Anthropic says outright whether a retry can help; believe it.
	switch resp.Header.Get("X-Should-Retry") {
	case "false":
		perr.Retryable = false
	case "true":
		perr.Retryable = true
	}
	if resp.StatusCode == http.StatusBadRequest {
		// The request itself is wrong: sending it again cannot help,
		// whatever the body's error type claims (pi never retries a 400).
		perr.Retryable = false
	}
	if ra := ParseRetryAfter(resp.Header, now); ra > 0 {
		perr.RetryAfter = ra
	}
	if perr.Hint == "" {
		perr.Hint = StatusHint(resp.StatusCode, "")
	}
	return perr
}

// redactError returns err with the secrets gone from its text; a *Error
// stays a *Error (a copy), so callers still see its status and whether to
// retry.
func redactError(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	var perr *Error
	if errors.As(err, &perr) && perr == err {
		c := *perr
		c.Message = redact.Secrets(c.Message, secrets...)
		c.Code = redact.Secrets(c.Code, secrets...)
		c.Hint = redact.Secrets(c.Hint, secrets...)
		if c.Err != nil {
			c.Err = redactError(c.Err, secrets...)
		}
		return &c
	}
	return redact.Error(err, secrets...)
}

// backoff returns the wait before retry number attempt+1: BaseDelay doubled
// per attempt, capped at MaxDelay, with up to 25% jitter either way, never above MaxDelay.
func backoff(p RetryPolicy, attempt int) time.Duration {
	d := p.BaseDelay << attempt
	if d > p.MaxDelay || d <= 0 {
		d = p.MaxDelay
	}
	jitter := time.Duration(rand.Int64N(int64(d)/2+1)) - d/4
	return min(d+jitter, p.MaxDelay)
}

// Sleep waits for d or until ctx ends, whichever comes first; it returns
// ctx.Err() when ctx ended first. Retry waits use it.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// StreamError converts an error from reading a response body into a typed
// error: an abort when ctx was cancelled, otherwise a retryable network
// failure.
func StreamError(ctx context.Context, providerName string, err error) *Error {
	if ctx.Err() != nil {
		return NetworkError(providerName, ctx.Err())
	}
	var perr *Error
	if errors.As(err, &perr) {
		return perr // already typed, as the time limits' errors are
	}
	if errors.Is(err, ErrSSEEventTooLong) {
		return &Error{Provider: providerName, Message: err.Error(), Err: err}
	}
	e := NetworkError(providerName, err)
	e.Message = "stream interrupted: " + err.Error()
	return e
}

// Fail ends the message being built after err and returns what a
// provider's Stream should: the message, stopped as StopAborted when ctx was
// cancelled and StopError otherwise, and the error.
func Fail(ctx context.Context, b *Builder, err error) (*core.AssistantMessage, error) {
	if ctx.Err() != nil {
		var perr *Error
		if !errors.As(err, &perr) || perr.Retryable {
			err = NetworkError(providerNameOf(err), ctx.Err())
		}
		return b.Fail(core.StopAborted, err), err
	}
	return b.Fail(core.StopError, err), err
}

func providerNameOf(err error) string {
	var perr *Error
	if errors.As(err, &perr) {
		return perr.Provider
	}
	return ""
}

// htmlAnswer returns the error for a successful answer that is a web page
// (text/html): a captive portal, a proxy's login page, or a base URL that
// names a website rather than the API. Sending it again would bring the
// same page, so the error is not retryable, and it says what to check.
// It closes resp's body when it returns one; nil otherwise.
func htmlAnswer(resp *http.Response, providerName, apiKey string) *Error {
	media, _, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if err != nil || media != "text/html" && media != "application/xhtml+xml" {
		return nil
	}
	page, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	where := ""
	if resp.Request != nil && resp.Request.URL != nil {
		where = " from " + redact.URL(resp.Request.URL.String())
	}
	msg := "answered with a web page (HTTP " + strconv.Itoa(resp.StatusCode) + ", " + media + ")" + where + ", not the API"
	if title := pageTitle(page); title != "" {
		msg += ": " + strconv.Quote(redact.Secrets(title, apiKey))
	}
	return &Error{Provider: providerName, Status: resp.StatusCode, Message: msg,
		Hint: "check the base URL (it must name the API, such as https://api.openai.com/v1, not a website) and whether a captive portal or proxy wants you to sign in first"}
}

// maxTitle bounds the page title an error quotes.
const maxTitle = 120

// pageTitle returns the text of page's <title>, on one line, escaped and
// cut to maxTitle characters, or "".
func pageTitle(page []byte) string {
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			if name, _ := z.TagName(); string(name) != "title" || z.Next() != html.TextToken {
				continue
			}
			title := strings.Join(strings.Fields(string(z.Text())), " ")
			if r := []rune(title); len(r) > maxTitle {
				title = string(r[:maxTitle-1]) + "…"
			}
			return escape.Visible(title)
		}
	}
}
