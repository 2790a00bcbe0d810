package webui

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/rpcmode/acp"
)

// oneLive is a process with one live session.
type oneLive struct{ s acp.LiveSession }

func (l oneLive) Sessions() []acp.LiveSession { return []acp.LiveSession{l.s} }

func (l oneLive) Find(id string) (acp.LiveSession, error) {
	if l.s.Host.Session.Conversation().ID == id {
		return l.s, nil
	}
	return acp.LiveSession{}, errors.New("no live session " + id)
}

// liveDial is what cairn gives the page (cmd/cairn's liveDial): each page
// joins the process's live sessions with acp.ServeLive.
func liveDial(t *testing.T, live acp.Live) func(context.Context) (io.ReadWriteCloser, error) {
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait)
	return func(ctx context.Context) (io.ReadWriteCloser, error) {
		page, agentEnd := net.Pipe()
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = acp.ServeLive(ctx, agentEnd, agentEnd, acp.Host{Version: "test"}, live)
			agentEnd.Close()
		}()
		return page, nil
	}
}

// Issue 46 over issue 42's attach server: a session another front end
// owns (here the test, as the TUI would) is joined by the page, which
// shows what was said before it came, then the owner's next turn as it
// streams; the page approves the command that turn asks for, the command
// runs, and the owner sees the question answered by another client.
func TestBrowserJoinsALiveSession(t *testing.T) {
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{ChunkSize: 8},
		faux.Response{Text: "Said before the page came."},
		bashCall("call_1", "echo ran-for-the-owner"),
		faux.Response{Text: "The owner's command ran."},
	)
	h, err := c.host(c.cwd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Session.Close)
	events, stop := h.Session.Subscribe()
	defer stop()
	settle := func() {
		t.Helper()
		timeout := time.After(browserLimit)
		for {
			select {
			case e := <-events:
				if _, ok := e.(core.Settled); ok {
					return
				}
			case <-timeout:
				t.Fatal("the owner's turn did not settle")
			}
		}
	}
	if err := h.Session.Prompt("before the page", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	settle()

	page := startPageDial(t, liveDial(t, oneLive{acp.LiveSession{Host: h, Front: "tui", Started: time.Now()}}))
	bctx, errs := newBrowser(t, 1200, 900)
	defer errs.none(t)
	do(t, bctx, "the live session's history",
		chromedp.Navigate(page),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.WaitVisible(css(`.msg.agent`)),
		// The markdown is drawn at most once a frame: the text follows.
		chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('log').innerText.includes('Said before the page came.')`), chromedp.EvalAwaitPromise),
	)

	// The owner's next turn asks; the page answers.
	if err := h.Session.Prompt("run it, owner", nil, agent.BehaviorNone); err != nil {
		t.Fatal(err)
	}
	do(t, bctx, "the owner's question, answered on the page",
		chromedp.WaitVisible(css(`.question button.option.allow_once`)),
		chromedp.Click(css(`.question button.option.allow_once`)),
		chromedp.WaitVisible(css(`.tool[data-status="completed"] pre.output`)),
	)
	var closed *core.QuestionClosed
	timeout := time.After(browserLimit)
	for closed == nil {
		select {
		case e := <-events:
			if q, ok := e.(core.QuestionClosed); ok {
				closed = &q
			}
		case <-timeout:
			t.Fatal("the owner never saw the question closed")
		}
	}
	if closed.Outcome != core.Answered || closed.Answer != string(approval.OptionAllowOnce) {
		t.Errorf("the owner saw %+v", *closed)
	}
	settle()
	do(t, bctx, "the end of the owner's turn",
		chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('log').innerText.includes("The owner's command ran.")`), chromedp.EvalAwaitPromise))
	if out := value(t, bctx, chromedp.Text(css(`.tool[data-status="completed"] pre.output`))); !strings.Contains(out, "ran-for-the-owner") {
		t.Fatalf("the command's output shows %q", out)
	}
	if got := value(t, bctx, chromedp.Text(css(`#log`))); !strings.Contains(got, "run it, owner") || !strings.Contains(got, "The owner's command ran.") {
		t.Fatalf("the page does not show the owner's turn:\n%s", got)
	}
}
