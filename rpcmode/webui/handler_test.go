package webui

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waitLimit bounds every wait in these tests.
const waitLimit = 15 * time.Second

// pipeCairn is a Dial whose streams the test holds the other end of.
type pipeCairn struct {
	streams chan net.Conn
}

func newPipeCairn() *pipeCairn { return &pipeCairn{streams: make(chan net.Conn, 8)} }

func (p *pipeCairn) Dial(context.Context) (io.ReadWriteCloser, error) {
	a, b := net.Pipe()
	p.streams <- b
	return a, nil
}

// next is cairn's end of the next stream opened.
func (p *pipeCairn) next(t *testing.T) net.Conn {
	t.Helper()
	select {
	case c := <-p.streams:
		t.Cleanup(func() { c.Close() })
		return c
	case <-time.After(waitLimit):
		t.Fatal("no stream was opened")
		return nil
	}
}

const testToken = "abcdefghijklmnopqrstuvwxyzABCDEF0123456789-"

// serve runs a Handler for cfg (Token and Dial filled in when empty) on an
// httptest server.
func serve(t *testing.T, cfg Config) (*httptest.Server, *Handler) {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	h, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		srv.Close()
	})
	return srv, h
}

func get(t *testing.T, url string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestTokenIsLongAndRandom(t *testing.T) {
	a, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := NewToken()
	if len(a) < 22 || a == b {
		t.Fatalf("tokens %q and %q: want two different ones of at least 128 bits", a, b)
	}
	if strings.ContainsAny(a, "/?#%+=") {
		t.Fatalf("token %q needs escaping in a URL path", a)
	}
	if _, err := New(Config{Dial: newPipeCairn().Dial, Token: "short"}); err == nil {
		t.Fatal("New took a token shorter than 128 bits")
	}
}

// Every path, asset and WebSocket alike, without the token or with
// another gets 403 and nothing else.
func TestWrongTokenGetsNothing(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial})
	wrong := "abcdefghijklmnopqrstuvwxyzABCDEF0123456789_"
	for _, path := range []string{
		"/", "/index.html", "/app.js", "/acp", "/" + wrong + "/", "/" + wrong + "/app.js", "/" + wrong + "/acp",
		"/" + testToken[:len(testToken)-1] + "/", "/" + testToken + "x/", "/x/" + testToken + "/", "/vendor/marked.esm.js",
	} {
		resp, body := get(t, srv.URL+path, nil)
		if resp.StatusCode != http.StatusForbidden || body != "" {
			t.Errorf("GET %s: %d %q, want 403 and an empty body", path, resp.StatusCode, body)
		}
		if resp.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("GET %s: no Content-Security-Policy", path)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	origin := http.Header{"Origin": {srv.URL}}
	_, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/"+wrong+"/acp", &websocket.DialOptions{HTTPHeader: origin})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("WebSocket with a wrong token: err %v, response %v; want 403", err, resp)
	}
	select {
	case <-cairn.streams:
		t.Fatal("a refused WebSocket opened a stream")
	default:
	}
}

func TestPageIsServedWithTheToken(t *testing.T) {
	srv, _ := serve(t, Config{Dial: newPipeCairn().Dial})
	resp, body := get(t, srv.URL+"/"+testToken+"/", nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, `<script type="module" src="app.js">`) {
		t.Fatalf("page: %d %q", resp.StatusCode, body)
	}
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") {
		t.Errorf("Content-Security-Policy %q allows something unsafe", csp)
	}
	if got := resp.Header.Get("Referrer-Policy"); got != "no-referrer" {
		t.Errorf("Referrer-Policy %q: the token would leak to links", got)
	}
	for path, ctype := range map[string]string{
		"app.js": "text/javascript", "vendor/marked.esm.js": "text/javascript", "vendor/purify.es.mjs": "text/javascript", "style.css": "text/css",
	} {
		resp, body := get(t, srv.URL+"/"+testToken+"/"+path, nil)
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) || body == "" {
			t.Errorf("%s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if resp, _ := get(t, srv.URL+"/"+testToken+"/nothing.js", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a missing file: %d, want 404", resp.StatusCode)
	}
	if resp, _ := get(t, srv.URL+"/"+testToken+"/vendor", nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a directory: %d, want 404 (no listings)", resp.StatusCode)
	}
	resp, _ = get(t, srv.URL+"/"+testToken+"?cwd=/x", nil)
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/"+testToken+"/?cwd=/x" {
		t.Errorf("/TOKEN: %d to %q, want a redirect to /TOKEN/ keeping the query", resp.StatusCode, resp.Header.Get("Location"))
	}
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/"+testToken+"/", strings.NewReader("x"))
	if r, err := http.DefaultClient.Do(req); err != nil || r.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v, want 405", r, err)
	} else {
		r.Body.Close()
	}
}

// The WebSocket takes only the page's own origin.
func TestWebSocketOrigin(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial})
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/" + testToken + "/acp"
	host := strings.TrimPrefix(srv.URL, "http://")
	for _, origin := range []string{"", "null", "http://evil.example", "https://" + host, "http://" + host + ".evil.example", "http://" + host + "/path", "ws://" + host} {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		_, resp, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: h})
		cancel()
		if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("Origin %q: err %v; want 403", origin, err)
		}
	}
	select {
	case <-cairn.streams:
		t.Fatal("a refused WebSocket opened a stream")
	default:
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {srv.URL}}})
	if err != nil {
		t.Fatalf("the page's own origin was refused: %v", err)
	}
	cairn.next(t)
	c.Close(websocket.StatusNormalClosure, "")
}

func TestSameOrigin(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/x", nil)
	for origin, want := range map[string]bool{
		"http://127.0.0.1:8080":   true,
		"HTTP://127.0.0.1:8080":   true, // url.Parse lowers the scheme
		"https://127.0.0.1:8080":  false,
		"http://127.0.0.1:8081":   false,
		"http://127.0.0.1":        false,
		"http://localhost:8080":   false,
		"":                        false,
		"null":                    false,
		"http://u@127.0.0.1:8080": false,
	} {
		if got := sameOrigin(origin, r); got != want {
			t.Errorf("sameOrigin(%q) = %v, want %v", origin, got, want)
		}
	}
}

func TestListenNeedsTLSBeyondLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0", "", "::", "192.0.2.1", "example.com"} {
		if addr == "" {
			continue // "" is the default, loopback
		}
		_, err := Start(ListenConfig{Addr: addr}, Config{Dial: newPipeCairn().Dial, Token: testToken})
		if err == nil || !strings.Contains(err.Error(), "--tls-cert") {
			t.Errorf("Start on %q without TLS: %v, want a refusal naming --tls-cert", addr, err)
		}
	}
	if _, err := Start(ListenConfig{TLSCert: "cert.pem"}, Config{Dial: newPipeCairn().Dial, Token: testToken}); err == nil {
		t.Error("a certificate without its key was taken")
	}
	if _, err := Start(ListenConfig{Port: 70000}, Config{Dial: newPipeCairn().Dial, Token: testToken}); err == nil {
		t.Error("port 70000 was taken")
	}
	for _, addr := range []string{"", "127.0.0.1", "localhost", "::1", "127.0.0.2"} {
		if !isLoopback(orDefault(addr)) {
			t.Errorf("%q is not taken as loopback", addr)
		}
	}
}

func orDefault(addr string) string {
	if addr == "" {
		return DefaultAddr
	}
	return addr
}

func TestServerServesUntilCancelled(t *testing.T) {
	s, err := Start(ListenConfig{}, Config{Dial: newPipeCairn().Dial, Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/"+testToken+"/") {
		t.Fatalf("URL %q", s.URL())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	resp, _ := get(t, s.URL(), nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", s.URL(), resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitLimit):
		t.Fatal("Serve did not return after its context ended")
	}
}
