package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/escape"
)

// Limits of web_fetch.
const (
	// MaxBodyBytes is the most of a page read; the rest is left unread.
	MaxBodyBytes = 10 << 20
	// MaxResultBytes is the most of a page's text the model gets.
	MaxResultBytes = 100 << 10
	// CacheFor is how long a fetched page is answered from memory.
	CacheFor = 15 * time.Minute
	// maxRedirects bounds redirects within one host.
	maxRedirects = 10
	// fetchTimeout bounds one fetch, connection to last byte.
	fetchTimeout = 60 * time.Second
)

// Fetch is the web_fetch tool: it GETs an http or https URL, follows
// redirects within the host (a redirect to another host is reported, to
// be fetched, and approved, on its own), turns HTML into Markdown, caps
// what it reads and returns, refuses binary content, and keeps pages for
// CacheFor. It sends no credentials: no cookies, no provider headers, no
// authorization.
type Fetch struct {
	// Allowed, when set, refuses URLs the sandbox's network does not
	// allow, with the reason for the model; checked for every request,
	// redirects included.
	Allowed func(u *url.URL) error
	// Client is the HTTP client; nil means a plain client of cairn's
	// own. Tests pass one.
	Client *http.Client
	// UserAgent is sent as User-Agent.
	UserAgent string

	cache     cache
	plainOnce sync.Once
	plain     *http.Client
}

var fetchSpec = core.ToolSpec{
	Name: "web_fetch",
	Description: "Fetch a web page (http or https) and return its text: HTML as Markdown, other text as it is. " +
		"Redirects within the host are followed; a redirect to another host is reported, to fetch with a new call. " +
		"Pages are read up to 10 MB and the text returned is cut at 100 KB; binary content (images, PDFs, archives) is refused. " +
		"Each host needs the user's approval.",
	Parameters: json.RawMessage(`{"type":"object","required":["url"],"properties":{"url":{"type":"string","description":"The http or https URL to fetch"}},"additionalProperties":false}`),
}

// Spec describes the tool.
func (*Fetch) Spec() core.ToolSpec { return fetchSpec }

// Category is network: approved per host.
func (*Fetch) Category() core.ApprovalCategory { return core.CategoryNetwork }

// Kind is fetch.
func (*Fetch) Kind() core.ToolKind { return core.KindFetch }

// fetchDetails are what front ends get besides the text.
type fetchDetails struct {
	URL         string `json:"url"`
	Status      int    `json:"status,omitempty"`
	ContentType string `json:"contentType,omitempty"`
	Bytes       int    `json:"bytes"`
	Truncated   bool   `json:"truncated,omitempty"`
	Redirect    string `json:"redirect,omitempty"`
	Cached      bool   `json:"cached,omitempty"`
}

// Execute fetches the URL.
func (f *Fetch) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		URL string `json:"url"`
	}
	if err := json.Unmarshal(call.Arguments, &args); err != nil {
		return core.ErrorResult("web_fetch: " + err.Error()), nil
	}
	u, err := url.Parse(strings.TrimSpace(args.URL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return core.ErrorResult(fmt.Sprintf("web_fetch takes an http or https URL with a host; %q is not one.", escape.Visible(args.URL))), nil
	}
	u.Fragment = ""
	if f.Allowed != nil {
		if err := f.Allowed(u); err != nil {
			return core.ErrorResult(err.Error()), nil
		}
	}
	if r, ok := f.cache.get(u.String()); ok {
		return r, nil
	}
	r := f.fetch(ctx, u)
	if !r.IsError {
		f.cache.put(u.String(), r)
	}
	return r, nil
}

// errOtherHost stops the client at a redirect to another host.
var errOtherHost = errors.New("redirect to another host")

// fetch does the request and turns the answer into the result.
func (f *Fetch) fetch(ctx context.Context, u *url.URL) core.ToolResult {
	client := f.client()
	host := approval.URLHost(u.String())
	var redirect *url.URL
	c := *client
	c.Jar = nil
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if approval.URLHost(req.URL.String()) != host {
			redirect = req.URL
			return errOtherHost
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("more than %d redirects", maxRedirects)
		}
		if f.Allowed != nil {
			return f.Allowed(req.URL)
		}
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return core.ErrorResult("web_fetch: " + err.Error())
	}
	req.Header.Set("Accept", "text/markdown, text/html;q=0.9, text/plain;q=0.8, application/json;q=0.7, */*;q=0.1")
	if f.UserAgent != "" {
		req.Header.Set("User-Agent", f.UserAgent)
	}
	resp, err := c.Do(req)
	if redirect != nil {
		return withDetails(core.TextResult(fmt.Sprintf("%s redirected to %s, on another host. To follow it, call web_fetch with that URL (it needs its own approval).",
			u, escape.Visible(redirect.String()))), fetchDetails{URL: u.String(), Redirect: redirect.String()})
	}
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) && ue.Err != nil {
			err = ue.Err
		}
		return core.ErrorResult(fmt.Sprintf("web_fetch %s: %v", u, err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBodyBytes+1))
	if err != nil && len(body) == 0 {
		return core.ErrorResult(fmt.Sprintf("web_fetch %s: reading the page: %v", u, err))
	}
	truncated := len(body) > MaxBodyBytes
	if truncated {
		body = body[:MaxBodyBytes]
	}
	d := fetchDetails{URL: resp.Request.URL.String(), Status: resp.StatusCode, Bytes: len(body), Truncated: truncated}
	kind, binary := contentKind(resp.Header.Get("Content-Type"), body)
	d.ContentType = kind
	if binary {
		return withDetails(core.ErrorResult(fmt.Sprintf("web_fetch reads text; %s is %s (binary content), so it was not read.", u, kind)), d)
	}
	text := string(body)
	if kind == "text/html" || kind == "application/xhtml+xml" {
		md, err := htmltomarkdown.ConvertString(text, converter.WithDomain(resp.Request.URL.Scheme+"://"+resp.Request.URL.Host))
		if err == nil {
			text = md
		}
	}
	text = strings.ToValidUTF8(text, "\uFFFD")
	var notes []string
	if truncated {
		notes = append(notes, fmt.Sprintf("only the first %d MB of the page were read", MaxBodyBytes>>20))
	}
	if len(text) > MaxResultBytes {
		cut := MaxResultBytes
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		notes = append(notes, fmt.Sprintf("the text was cut at %d KB of %d KB", cut>>10, len(text)>>10))
		text = text[:cut]
		d.Truncated = true
	}
	if len(notes) > 0 {
		text += "\n\n[" + strings.Join(notes, "; ") + "]"
	}
	if resp.StatusCode >= 400 {
		return withDetails(core.ErrorResult(fmt.Sprintf("%s answered %s:\n\n%s", u, resp.Status, text)), d)
	}
	return withDetails(core.TextResult(text), d)
}

// client is f's HTTP client, or a plain one: its own transport (proxy
// settings from the environment), no cookie jar.
func (f *Fetch) client() *http.Client {
	if f.Client != nil {
		return f.Client
	}
	f.plainOnce.Do(func() { f.plain = plainClient() })
	return f.plain
}

// plainClient is an HTTP client of cairn's own for the web tools: its own
// transport (proxy settings from the environment), no cookie jar, nothing
// shared with the providers' clients.
func plainClient() *http.Client {
	t := &http.Transport{Proxy: http.ProxyFromEnvironment, TLSHandshakeTimeout: 15 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second, MaxIdleConns: 4, IdleConnTimeout: 30 * time.Second}
	return &http.Client{Transport: t}
}

// contentKind is the page's media type (from Content-Type, else sniffed)
// and whether it is binary: anything but text, JSON, XML and JavaScript,
// or a body holding NUL bytes in its first 8 KB.
func contentKind(header string, body []byte) (string, bool) {
	kind, _, err := mime.ParseMediaType(header)
	if header == "" || err != nil {
		kind, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	kind = strings.ToLower(kind)
	head := body[:min(len(body), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return kind, true
	}
	switch {
	case strings.HasPrefix(kind, "text/"), kind == "application/json", kind == "application/xml", kind == "application/xhtml+xml",
		kind == "application/javascript", kind == "application/ecmascript", strings.HasSuffix(kind, "+json"), strings.HasSuffix(kind, "+xml"):
		return kind, false
	}
	return kind, true
}

// withDetails attaches details to r.
func withDetails(r core.ToolResult, d fetchDetails) core.ToolResult {
	if b, err := json.Marshal(d); err == nil {
		r.Details = b
	}
	return r
}
