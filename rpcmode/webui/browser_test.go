package webui

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// browserLimit bounds each browser test.
const browserLimit = 60 * time.Second

// chromiumPath finds Debian's chromium. Without it the browser tests skip,
// except under CI, where they fail.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("the browser tests need chromium (apt-get install -y chromium)")
	}
	t.Skip("chromium is not installed (apt-get install -y chromium)")
	return ""
}

// pageErrors collects what the page reported as errors: uncaught
// exceptions and console or browser log entries at level error (a
// Content-Security-Policy violation among them).
type pageErrors struct {
	mu   sync.Mutex
	list []string
}

func (p *pageErrors) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg = "exception: " + e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
	case *cdplog.EventEntryAdded:
		if e.Entry.Level != cdplog.EntryLevelError {
			return
		}
		msg = fmt.Sprintf("%s: %s (%s)", e.Entry.Source, e.Entry.Text, e.Entry.URL)
	default:
		return
	}
	p.mu.Lock()
	p.list = append(p.list, msg)
	p.mu.Unlock()
}

// none fails the test if the page reported an error.
func (p *pageErrors) none(t *testing.T) {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.list) > 0 {
		t.Fatalf("the page reported errors:\n%s", strings.Join(p.list, "\n"))
	}
}

// newBrowser starts a headless chromium with a fresh profile, its window
// width by height, and returns a tab's context and what the tab reports as
// errors.
func newBrowser(t *testing.T, width, height int) (context.Context, *pageErrors) {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath(t)),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true), // the tests run as root
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	errs := &pageErrors{}
	ctx, cancelTab := chromedp.NewContext(alloc, chromedp.WithListener(errs.listen))
	ctx, cancelLimit := context.WithTimeout(ctx, browserLimit)
	t.Cleanup(func() {
		cancelLimit()
		cancelTab()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx, errs
}

// startPage serves the page for c on a free loopback port and returns its
// URL, the token included.
func startPage(t *testing.T, c *fakeCairn) string {
	t.Helper()
	token, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	s, err := Start(ListenConfig{}, Config{Dial: c.Dial, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s.URL()
}

// pageURL is the page's address for a session in c's directory.
func pageURL(base string, c *fakeCairn) string {
	return base + "?cwd=" + url.QueryEscape(c.cwd)
}

func bashCall(id, command string) faux.Response {
	args, _ := json.Marshal(map[string]string{"command": command})
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: "bash", Arguments: args}}}
}

// do runs steps in the tab, failing the test with what the page shows.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatalf("%s: %v\nthe page shows:\n%s", what, err, shown(ctx))
	}
}

// value runs an action that returns a value, failing the test on an error.
func value[T any](t *testing.T, ctx context.Context, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%v\nthe page shows:\n%s", err, shown(ctx))
	}
	return v
}

// shown is the page's text, for a failure's message.
func shown(ctx context.Context) string {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.body ? document.body.innerText : ''`))
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	return s
}

type css = chromedp.CSS

// settled is a script that resolves once cond holds, checked at each
// frame.
func settled(cond string) string {
	return `new Promise((resolve) => { const check = () => (` + cond + `) ? resolve() : requestAnimationFrame(check); check(); })`
}

// The page opened with its token shows an answer as it streams, renders
// its markdown without running what the model wrote (nor fetching its
// image), and reports no error (no CSP violation); it asks before a
// command runs: approved, the command runs and its output appears.
func TestBrowserFollowsAndApproves(t *testing.T) {
	answer := "Hello **from** the scripted model.\n\n```go\nfmt.Println(42)\n```\n\n" +
		"<img src=x onerror=\"document.title='pwned'\"><script>document.title='pwned'</script>" +
		"[link](javascript:document.title='pwned')"
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{ChunkSize: 8},
		faux.Response{Thinking: "Thinking it over.", Text: answer},
		bashCall("call_1", "echo approved-and-ran"),
		faux.Response{Text: "The command ran."},
	)
	ctx, errs := newBrowser(t, 1200, 900)
	defer errs.none(t)
	base := startPage(t, c)

	do(t, ctx, "the first answer",
		chromedp.Navigate(pageURL(base, c)),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.SendKeys(css(`#prompt`), "say hello"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.msg.agent pre code`)),
		chromedp.WaitEnabled(css(`#send`)),
	)
	agent := value(t, ctx, chromedp.Text(css(`.msg.agent`)))
	code := value(t, ctx, chromedp.Text(css(`.msg.agent pre code`)))
	if !strings.Contains(agent, "Hello from the scripted model.") || !strings.Contains(code, "fmt.Println(42)") {
		t.Fatalf("the answer shows %q (code %q)", agent, code)
	}
	if n := value(t, ctx, chromedp.Evaluate[int](`document.querySelectorAll('.msg.agent strong').length`)); n != 1 {
		t.Fatalf("%d <strong> in the answer, want the markdown's one", n)
	}
	title := value(t, ctx, chromedp.Title())
	evil := value(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector('.msg.agent script, .msg.agent [onerror], .msg.agent a[href^="javascript"], .msg.agent img[src]')`))
	if title == "pwned" || evil {
		t.Fatalf("the model's markup ran or survived: title %q, dangerous markup left %v", title, evil)
	}
	if th := value(t, ctx, chromedp.TextContent(css(`.thought-text`))); th != "Thinking it over." {
		t.Fatalf("the thought shows %q", th)
	}

	do(t, ctx, "the approved command",
		chromedp.SendKeys(css(`#prompt`), "run the command"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.question button.option.allow_once`)),
		chromedp.Click(css(`.question button.option.allow_once`)),
		chromedp.WaitVisible(css(`.tool[data-status="completed"] pre.output`)),
		chromedp.WaitEnabled(css(`#send`)),
	)
	if out := value(t, ctx, chromedp.Text(css(`.tool[data-status="completed"] pre.output`))); !strings.Contains(out, "approved-and-ran") {
		t.Fatalf("the command's output shows %q", out)
	}
	if last := value(t, ctx, chromedp.Text(css(`#log > :last-child`))); !strings.Contains(last, "The command ran.") {
		t.Fatalf("the last item shows %q, want the answer after the command", last)
	}
	if outcome := value(t, ctx, chromedp.Text(css(`.question .outcome`))); !strings.Contains(outcome, "You chose") {
		t.Fatalf("the question says %q", outcome)
	}
}

// A question nobody answers in time is withdrawn by cairn
// ($/cancel_request); the page closes it as answered elsewhere.
func TestBrowserClosesAWithdrawnQuestion(t *testing.T) {
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{},
		bashCall("call_1", "echo never"),
		faux.Response{Text: "It was not allowed."},
	)
	c.timeout = 2 * time.Second
	ctx, errs := newBrowser(t, 1200, 900)
	defer errs.none(t)
	base := startPage(t, c)
	do(t, ctx, "the withdrawn question",
		chromedp.Navigate(pageURL(base, c)),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.SendKeys(css(`#prompt`), "run it"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.question button.option`)),
		chromedp.WaitVisible(css(`.question.closed .outcome`)),
	)
	outcome := value(t, ctx, chromedp.Text(css(`.question .outcome`)))
	disabled := value(t, ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll('.question button')].every(b => b.disabled)`))
	if !strings.Contains(outcome, "Answered elsewhere") || !disabled {
		t.Fatalf("the question says %q, buttons disabled %v", outcome, disabled)
	}
}

// A wrong token gets 403 and no page; a WebSocket with a wrong token, or
// from another origin that knows the token, is refused and opens no
// stream.
func TestBrowserWrongTokenRefused(t *testing.T) {
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{})
	ctx, _ := newBrowser(t, 800, 600) // its refusals are logged as errors
	base := startPage(t, c)
	u, _ := url.Parse(base)
	token := strings.Trim(u.Path, "/")
	wrong := []byte(token)
	wrong[0] ^= 1
	wrongBase := u.Scheme + "://" + u.Host + "/" + string(wrong) + "/"

	// Chromium shows its own error page for an error status with an
	// empty body: nothing of the page loads.
	_, err := chromedp.RunResponse(ctx, chromedp.Navigate(wrongBase))
	if err == nil || !strings.Contains(err.Error(), "ERR_HTTP_RESPONSE_CODE_FAILURE") {
		t.Fatalf("opening the page with a wrong token: %v, want an HTTP error status", err)
	}
	if value(t, ctx, chromedp.Evaluate[bool](`!!document.querySelector('#prompt, script[src]')`)) {
		t.Fatal("a wrong token got the page")
	}
	// The statuses, as the browser sees them, from the page's own origin.
	do(t, ctx, "the page", chromedp.Navigate(base), chromedp.WaitVisible(css(`#status.ok`)))
	for _, p := range []string{"", "app.js", "vendor/marked.esm.js", "acp"} {
		got := value(t, ctx, chromedp.Evaluate[string](fmt.Sprintf(`fetch(%q).then(async (r) => r.status + ' ' + JSON.stringify(await r.text()))`, wrongBase+p), chromedp.EvalAwaitPromise))
		if got != `403 ""` {
			t.Errorf("%s with a wrong token: %s, want 403 and nothing", p, got)
		}
	}

	openWS := func(target string) string {
		js := fmt.Sprintf(`new Promise((resolve) => {
			const ws = new WebSocket(%q);
			ws.onopen = () => { resolve('open'); ws.close(); };
			ws.onclose = (e) => resolve('closed ' + e.code);
		})`, target)
		return value(t, ctx, chromedp.Evaluate[string](js, chromedp.EvalAwaitPromise))
	}
	wsBase := "ws://" + u.Host + "/"
	// From the page's own origin, a wrong token.
	dialsBefore := c.Dials()
	if got := openWS(wsBase + string(wrong) + "/acp"); got == "open" {
		t.Fatal("a WebSocket with a wrong token was opened")
	}
	// From another origin, the right token.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<!doctype html><title>elsewhere</title><p>elsewhere</p>")
	}))
	defer other.Close()
	do(t, ctx, "another site", chromedp.Navigate(other.URL))
	if got := openWS(wsBase + token + "/acp"); got == "open" {
		t.Fatal("a WebSocket from another origin was opened")
	}
	if c.Dials() != dialsBefore {
		t.Fatalf("refused WebSockets opened %d streams", c.Dials()-dialsBefore)
	}
}

// The page lists the sessions and switches between them: the one picked
// is replayed (session/load), the other's messages are gone from the log.
func TestBrowserSwitchesSessions(t *testing.T) {
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{},
		faux.Response{Text: "Answer to the first."},
		faux.Response{Text: "Answer to the second."},
	)
	ctx, errs := newBrowser(t, 1200, 900)
	defer errs.none(t)
	base := startPage(t, c)
	do(t, ctx, "two sessions",
		chromedp.Navigate(pageURL(base, c)),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.SendKeys(css(`#prompt`), "the first question"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.msg.agent p`)),
		chromedp.WaitEnabled(css(`#send`)),
		chromedp.Click(css(`#new-session button`)),
		chromedp.Evaluate[chromedp.Void](settled(`document.querySelectorAll('#log > *').length === 0`), chromedp.EvalAwaitPromise),
		chromedp.SendKeys(css(`#prompt`), "the second question"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.msg.agent p`)),
		chromedp.WaitEnabled(css(`#send`)),
		chromedp.Evaluate[chromedp.Void](settled(`document.querySelectorAll('#sessions button.session').length === 2`), chromedp.EvalAwaitPromise),
	)
	if log := value(t, ctx, chromedp.Text(css(`#log`))); !strings.Contains(log, "Answer to the second.") || strings.Contains(log, "first") {
		t.Fatalf("the second session shows %q", log)
	}
	// The first session is the one not current.
	do(t, ctx, "back to the first",
		chromedp.Click(css(`#sessions button.session:not([aria-current])`)),
		chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('log').innerText.includes('Answer to the first.')`), chromedp.EvalAwaitPromise),
	)
	log := value(t, ctx, chromedp.Text(css(`#log`)))
	if !strings.Contains(log, "the first question") || strings.Contains(log, "second") {
		t.Fatalf("the first session, replayed, shows %q", log)
	}
}

// Stop cancels the turn and answers its open question as cancelled: the
// command never runs.
func TestBrowserStopCancelsTheTurn(t *testing.T) {
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{},
		bashCall("call_1", "echo must-not-run > ran.txt"),
	)
	ctx, errs := newBrowser(t, 1200, 900)
	defer errs.none(t)
	base := startPage(t, c)
	do(t, ctx, "the stopped turn",
		chromedp.Navigate(pageURL(base, c)),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.SendKeys(css(`#prompt`), "run it"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.question button.option`)),
		chromedp.Click(css(`#stop`)),
		chromedp.WaitVisible(css(`.question.closed .outcome`)),
		chromedp.WaitEnabled(css(`#send`)),
		chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('log').innerText.includes('Stopped: cancelled')`), chromedp.EvalAwaitPromise),
	)
	if outcome := value(t, ctx, chromedp.Text(css(`.question .outcome`))); outcome != "Cancelled." {
		t.Fatalf("the question says %q", outcome)
	}
	if value(t, ctx, chromedp.Evaluate[bool](`!document.getElementById('stop').hidden`)) {
		t.Fatal("Stop is still shown after the turn ended")
	}
	if _, err := os.Stat(filepath.Join(c.cwd, "ran.txt")); err == nil {
		t.Fatal("the cancelled command ran")
	}
}
