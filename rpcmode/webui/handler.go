package webui

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
)

// The limits a Config leaves at zero take these values.
const (
	// DefaultMaxInFrame bounds one frame from the page: a prompt with a
	// long paste fits.
	DefaultMaxInFrame = 4 << 20
	// DefaultMaxOutFrame bounds one line from cairn; it is the ACP
	// adapter's own frame limit (acp.MaxFrameBytes).
	DefaultMaxOutFrame = 64 << 20
	// DefaultQueueFrames and DefaultQueueBytes bound the frames waiting to
	// be sent to one page.
	DefaultQueueFrames = 4096
	DefaultQueueBytes  = 64 << 20
	// DefaultWriteLimit is how long one frame may take to reach the page.
	DefaultWriteLimit = 30 * time.Second
)

// minTokenLen is the shortest token New accepts: 22 base64url characters
// carry 128 bits.
const minTokenLen = 22

// Config is what a Handler serves.
type Config struct {
	// Dial opens a newline-delimited ACP stream to cairn's sessions. It is
	// called once for each WebSocket connection, when the page connects,
	// with a context that ends with the connection; the Handler closes the
	// stream when the connection ends. Required.
	Dial func(ctx context.Context) (io.ReadWriteCloser, error)
	// Token is the secret every request carries as its path's first
	// segment (see NewToken); at least 22 characters. Required.
	Token string
	// MaxInFrame, MaxOutFrame, QueueFrames, QueueBytes and WriteLimit
	// override the defaults above (for tests).
	MaxInFrame, MaxOutFrame int
	QueueFrames, QueueBytes int
	WriteLimit              time.Duration
	// Warn receives what is worth telling the person running cairn (a
	// stream that could not be opened); nil drops it.
	Warn func(string)
}

//go:embed page
var pageFiles embed.FS

// asset is one embedded file, read once.
type asset struct {
	body        []byte
	contentType string
}

// Handler is the page's http.Handler: the embedded page and its files
// under /TOKEN/, and the WebSocket at /TOKEN/acp. A request without the
// token, or with another, gets 403 and an empty body; with the token, a
// path that is none of these gets 404.
type Handler struct {
	cfg    Config
	assets map[string]asset

	mu     sync.Mutex
	closed bool
	conns  sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc
}

// New checks cfg and returns its Handler.
func New(cfg Config) (*Handler, error) {
	if cfg.Dial == nil {
		return nil, errors.New("webui: Config.Dial is required")
	}
	if len(cfg.Token) < minTokenLen {
		return nil, fmt.Errorf("webui: the token must be at least %d characters (128 bits); use NewToken", minTokenLen)
	}
	if cfg.MaxInFrame <= 0 {
		cfg.MaxInFrame = DefaultMaxInFrame
	}
	if cfg.MaxOutFrame <= 0 {
		cfg.MaxOutFrame = DefaultMaxOutFrame
	}
	if cfg.QueueFrames <= 0 {
		cfg.QueueFrames = DefaultQueueFrames
	}
	if cfg.QueueBytes <= 0 {
		cfg.QueueBytes = DefaultQueueBytes
	}
	if cfg.WriteLimit <= 0 {
		cfg.WriteLimit = DefaultWriteLimit
	}
	if cfg.Warn == nil {
		cfg.Warn = func(string) {}
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	h := &Handler{cfg: cfg, assets: assets}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	return h, nil
}

// loadAssets reads the embedded page's files, keyed by their path under
// page/.
func loadAssets() (map[string]asset, error) {
	out := map[string]asset{}
	err := fs.WalkDir(pageFiles, "page", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := pageFiles.ReadFile(p)
		if err != nil {
			return err
		}
		out[strings.TrimPrefix(p, "page/")] = asset{body: b, contentType: contentType(p)}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("webui: read the embedded page: %w", err)
	}
	return out, nil
}

// contentType is a page file's type, by its extension.
func contentType(p string) string {
	switch path.Ext(p) {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js", ".mjs":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	default:
		return "text/plain; charset=utf-8"
	}
}

// contentSecurityPolicy lets the page load scripts, styles and
// connections from its own origin only ('self' covers the same origin's
// ws: and wss:), images from there or data: URLs, and nothing else: no
// inline script, no frames, forms, plugins or base URL.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// secure sets the headers every response carries, a refusal's included.
func secure(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cache-Control", "no-store")
}

// ServeHTTP serves the page, its files and the WebSocket to requests that
// carry the token.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	secure(w)
	tok, rest, slash := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	if !tokenMatches(tok, h.cfg.Token) {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "only GET is served here", http.StatusMethodNotAllowed)
		return
	}
	switch {
	case !slash:
		// /TOKEN: the page's files are relative to /TOKEN/.
		u := url.URL{Path: "/" + tok + "/", RawQuery: r.URL.RawQuery}
		http.Redirect(w, r, u.String(), http.StatusFound)
	case rest == "acp":
		h.serveWebSocket(w, r)
	case rest == "":
		h.serveAsset(w, r, "index.html")
	default:
		h.serveAsset(w, r, rest)
	}
}

// serveAsset writes one embedded file, or 404.
func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	a, ok := h.assets[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", a.contentType)
	w.Header().Set("Content-Length", fmt.Sprint(len(a.body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(a.body)
	}
}

// sameOrigin reports whether origin (an Origin header) is the origin the
// request was made to: its scheme (https with TLS) and its Host.
func sameOrigin(origin string, r *http.Request) bool {
	u, err := url.Parse(origin)
	if err != nil || origin == "" || u.Path != "" || u.RawQuery != "" || u.User != nil {
		return false
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return u.Scheme == scheme && u.Host != "" && strings.EqualFold(u.Host, r.Host)
}

// serveWebSocket accepts the page's WebSocket, opens its stream with Dial
// and carries frames both ways until either side ends.
func (h *Handler) serveWebSocket(w http.ResponseWriter, r *http.Request) {
	if !sameOrigin(r.Header.Get("Origin"), r) {
		w.WriteHeader(http.StatusForbidden)
		return
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		http.Error(w, "cairn is stopping", http.StatusServiceUnavailable)
		return
	}
	h.conns.Add(1)
	h.mu.Unlock()
	defer h.conns.Done()

	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return // Accept answered the request.
	}
	ctx, cancel := context.WithCancel(h.ctx)
	defer cancel()
	stream, err := h.cfg.Dial(ctx)
	if err != nil {
		h.cfg.Warn(fmt.Sprintf("the web page could not reach cairn's sessions: %v", err))
		conn.Close(websocket.StatusInternalError, closeReason("cairn could not open a session stream: "+err.Error()))
		return
	}
	pipe(ctx, conn, stream, h.cfg)
}

// Close ends every WebSocket connection, closing their streams, and waits
// for them; later connections are refused. The page's files are still
// served (the http.Server's Shutdown ends those).
func (h *Handler) Close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.cancel()
	h.conns.Wait()
}

// closeReason shortens a close frame's reason to what the protocol allows
// (123 bytes), at a character boundary.
func closeReason(s string) string {
	const max = 123
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
