package tui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// program runs the rig's model in teatest, connected to its session.
func (r *rig) program(width, height int) *teatest.TestModel {
	r.t.Helper()
	tm := teatest.NewTestModel(r.t, r.m, teatest.WithInitialTermSize(width, height))
	stop := r.m.Connect(tm.Send)
	r.t.Cleanup(func() {
		_ = tm.Quit()
		tm.WaitFinished(r.t, teatest.WithFinalTimeout(10*time.Second))
		stop()
	})
	return tm
}

// waitScreen waits until the terminal output shows want.
func waitScreen(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return strings.Contains(ansi.Strip(string(b)), want) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

func typeInto(tm *teatest.TestModel, s string) {
	for _, c := range s {
		tm.Send(key(string(c)))
	}
}

// TestPromptStreamsAnswer sends a prompt through the editor and sees the
// session's streamed answer drawn as markdown.
func TestPromptStreamsAnswer(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true, responses: []faux.Response{{Text: "# Title\n\nSome **bold** words and a `code` span."}}})
	tm := r.program(80, 24)
	typeInto(tm, "hello")
	tm.Send(key("enter"))
	waitScreen(t, tm, "bold words")
	r.waitSettled()
	msgs := r.sess.Messages()
	if len(msgs) != 2 || msgs[0].(*core.UserMessage).Text() != "hello" {
		t.Fatalf("conversation = %#v", msgs)
	}
}

// TestApprovalByKey shows the approval prompt for a bash call and answers
// it with y: the command runs and its output reaches the model.
func TestApprovalByKey(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true, responses: []faux.Response{
		{Content: []core.Content{call("c1", "bash", map[string]any{"command": "echo approved-$((6*7))"})}},
		{Text: "done"},
	}})
	r.m.opts.ApprovalGuard = time.Nanosecond
	tm := r.program(100, 30)
	typeInto(tm, "go")
	tm.Send(key("enter"))
	// The prompt says what "session" would remember before anyone agrees.
	waitScreen(t, tm, "Remembering allows bash: echo")
	tm.Send(key("y"))
	waitScreen(t, tm, "approved-42")
	r.waitSettled()
	var found bool
	for _, m := range r.sess.Messages() {
		if tr, ok := m.(*core.ToolResultMessage); ok && !tr.IsError && strings.Contains(tr.Content[0].Text, "approved-42") {
			found = true
		}
	}
	if !found {
		t.Fatal("the approved command's output is not in the conversation")
	}
}

// TestApprovalEscDenies answers the prompt with esc: the call is denied and
// the model is told.
func TestApprovalEscDenies(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true, responses: []faux.Response{
		{Content: []core.Content{call("c1", "bash", map[string]any{"command": "touch should-not-exist"})}},
		{Text: "ok"},
	}})
	r.m.opts.ApprovalGuard = time.Nanosecond
	tm := r.program(100, 30)
	typeInto(tm, "go")
	tm.Send(key("enter"))
	waitScreen(t, tm, "[y] once")
	tm.Send(key("esc"))
	r.waitSettled()
	for _, m := range r.sess.Messages() {
		if tr, ok := m.(*core.ToolResultMessage); ok {
			if !tr.IsError || !strings.Contains(tr.Content[0].Text, "denied") {
				t.Fatalf("result = %+v, want a denial", tr)
			}
			return
		}
	}
	t.Fatal("no tool result")
}

// TestApprovalGuardDropsEarlyKeys checks that a key arriving within the
// guard after the prompt appeared does not answer it, and one after does.
func TestApprovalGuardDropsEarlyKeys(t *testing.T) {
	r := newRig(t, rigOptions{})
	now := testClock
	r.m.now = func() time.Time { return now }
	r.m.opts.ApprovalGuard = 300 * time.Millisecond
	// A real question, asked through the session as the gate asks it.
	reply := r.ask(core.Question{Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow bash: ls?", Options: approvalOptions(approval.OptionAllowOnce, approval.OptionDeny)})
	now = now.Add(100 * time.Millisecond)
	r.send(key("y"))
	select {
	case a := <-reply:
		t.Fatalf("a key inside the guard answered: %+v", a)
	default:
	}
	now = now.Add(300 * time.Millisecond)
	r.send(key("y"))
	select {
	case a := <-reply:
		if a.out != core.Answered || a.a.Value != string(approval.OptionAllowOnce) {
			t.Fatalf("answer = %+v", a)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a key after the guard did not answer")
	}
}

// TestEscAbortsStream interrupts a slow answer with esc.
func TestEscAbortsStream(t *testing.T) {
	r := newSlowRig(t)
	tm := r.program(80, 24)
	typeInto(tm, "go")
	tm.Send(key("enter"))
	waitScreen(t, tm, "slow words")
	tm.Send(key("esc"))
	r.waitSettled()
	msgs := r.sess.Messages()
	last, ok := msgs[len(msgs)-1].(*core.AssistantMessage)
	if !ok || last.StopReason != core.StopAborted {
		t.Fatalf("last message = %#v, want an aborted answer", msgs[len(msgs)-1])
	}
	waitScreen(t, tm, "Interrupted")
}

// newSlowRig is a rig whose model streams slowly enough to interrupt.
func newSlowRig(t *testing.T) *rig {
	return newRig(t, rigOptions{realClock: true, faux: &faux.Options{ChunkSize: 2, TokensPerSecond: 200},
		responses: []faux.Response{{Text: strings.Repeat("slow words ", 400)}}})
}

// TestBashModeJoinsContext runs `!echo` in a PTY: its output shows and the
// bash execution joins the conversation; `!!` keeps it out.
func TestBashModeJoinsContext(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true})
	tm := r.program(80, 24)
	typeInto(tm, "!echo hi-from-bash")
	tm.Send(key("enter"))
	waitScreen(t, tm, "exit 0")
	typeInto(tm, "!!echo secret")
	tm.Send(key("enter"))
	waitScreen(t, tm, "exit 0 · not sent to the model")
	// The result joins the conversation in the same update that draws its
	// exit status, so it is there once the screen shows it.
	var got []*core.BashExecutionMessage
	for _, m := range r.sess.Messages() {
		if b, ok := m.(*core.BashExecutionMessage); ok {
			got = append(got, b)
		}
	}
	if len(got) != 2 {
		t.Fatalf("bash executions in the conversation: %d, want 2", len(got))
	}
	if !strings.Contains(got[0].Output, "hi-from-bash") || got[0].ExcludeFromContext {
		t.Errorf("first = %+v", got[0])
	}
	if !got[1].ExcludeFromContext {
		t.Errorf("!! was not kept out of context: %+v", got[1])
	}
}

// TestQueueWhileBusy sends a steering message while the agent works: it is
// shown as queued, and delivered.
func TestQueueWhileBusy(t *testing.T) {
	r := newSlowRig(t)
	r.fp.Push(faux.Response{Text: "second answer"})
	tm := r.program(80, 24)
	typeInto(tm, "first")
	tm.Send(key("enter"))
	waitScreen(t, tm, "slow words")
	typeInto(tm, "and also this")
	tm.Send(key("enter"))
	waitScreen(t, tm, "steer: and also this")
	r.waitSettled()
	var users []string
	for _, m := range r.sess.Messages() {
		if u, ok := m.(*core.UserMessage); ok {
			users = append(users, u.Text())
		}
	}
	if len(users) != 2 || users[1] != "and also this" {
		t.Fatalf("user messages = %q", users)
	}
}

// TestScrollStopsFollowing checks that scrolling up leaves the bottom,
// new items do not move the view, and scrolling back down follows again.
func TestScrollStopsFollowing(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(tea.WindowSizeMsg{Width: 80, Height: 20})
	for i := range 50 {
		r.m.say(core.NotifyInfo, "line "+strings.Repeat("x", i%7)+" #"+strconv.Itoa(i))
	}
	if !strings.Contains(r.m.render(), "#49") {
		t.Fatal("the newest line is not on screen")
	}
	r.send(key("pgup"))
	before := r.m.render()
	if strings.Contains(before, "#49") {
		t.Fatal("page up did not scroll")
	}
	r.m.say(core.NotifyInfo, "newer #50")
	if r.m.render() != before {
		t.Fatal("a new item moved a scrolled-up view")
	}
	for range 10 {
		r.send(key("pgdown"))
	}
	if !strings.Contains(r.m.render(), "#50") || !r.m.tr.follow {
		t.Fatal("scrolling to the bottom did not follow the stream again")
	}
}

// TestLongTranscriptDrawsOnlyVisibleItems checks that a frame of a
// 5,000-message transcript draws only what is on screen.
func TestLongTranscriptDrawsOnlyVisibleItems(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.showConversation(longConversation(2500))
	r.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	_ = r.m.render()
	drawn := 0
	for _, e := range r.m.tr.entries {
		if e.rendered {
			drawn++
		}
	}
	if drawn == 0 || drawn > 40 {
		t.Fatalf("%d of %d items were drawn for one 40-line screen", drawn, len(r.m.tr.entries))
	}
}

// longConversation is exchanges user/answer pairs.
func longConversation(exchanges int) []core.Message {
	var out []core.Message
	for i := range exchanges {
		out = append(out,
			&core.UserMessage{Content: []core.Content{text("Question number " + strconv.Itoa(i) + ": how does the parser handle empty input?")}},
			answer(text("## Answer "+strconv.Itoa(i)+"\n\nThe parser returns an **error** for empty input.\n\n```go\nif s == \"\" {\n\treturn 0, errEmpty\n}\n```\n\nSee `parse.go`.")),
		)
	}
	return out
}

// TestFirstRunRefusesPrompts keeps prompts from reaching a session with no
// credentials, while slash commands and !cmd still work.
func TestFirstRunRefusesPrompts(t *testing.T) {
	r := newRig(t, rigOptions{firstRun: true})
	r.typeText("hello")
	r.send(key("enter"))
	if r.m.busy || len(r.sess.Messages()) != 0 {
		t.Fatal("a prompt was sent without a model")
	}
	if !strings.Contains(ansi.Strip(r.m.render()), "No model is set up") {
		t.Fatal("the first-run screen is not shown")
	}
}

// TestMessageSentWhileStoppingStartsTheNextPrompt interrupts a run and
// sends a message before the run has stopped (its command ignores SIGTERM,
// so the run lasts the bash tool's kill grace): the message waits, then goes
// as the next prompt (the stopping run would have kept it queued).
func TestMessageSentWhileStoppingStartsTheNextPrompt(t *testing.T) {
	r := newRig(t, rigOptions{realClock: true, responses: []faux.Response{
		{Content: []core.Content{call("b1", "bash", map[string]any{"command": "trap '' TERM; sleep 5"})}},
		{Text: "here again"},
	}})
	r.gate.SetMode(approval.ModeYolo)
	events, stop := r.sess.Subscribe()
	defer stop()
	r.typeText("run it")
	r.send(key("enter"))
	for e := range events {
		if s, ok := e.(core.ToolExecutionStart); ok && s.ToolName == "bash" {
			break
		}
	}
	r.send(key("esc"))
	r.typeText("are you there?")
	r.send(key("enter"))
	if len(r.m.afterAbort) != 1 || r.m.ed.Value() != "" {
		t.Fatalf("the message is not held: held %d, draft %q", len(r.m.afterAbort), r.m.ed.Value())
	}
	r.waitSettled()
	r.send(eventsMsg{core.Settled{}})
	r.waitSettled()
	var users []string
	for _, msg := range r.sess.Messages() {
		if u, ok := msg.(*core.UserMessage); ok {
			users = append(users, u.Content[0].Text)
		}
	}
	last, _ := r.sess.Messages()[len(r.sess.Messages())-1].(*core.AssistantMessage)
	if len(users) != 2 || users[1] != "are you there?" || last == nil || last.Content[0].Text != "here again" {
		t.Fatalf("user messages %q, last answer %#v", users, last)
	}
}
