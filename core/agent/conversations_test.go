package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// execTool is a tool that needs exec approval.
func execTool(name string) *fakeTool {
	t := echoTool(name)
	t.category = core.CategoryExec
	return t
}

// approvalGate asks for every exec call.
func approvalGate(t *testing.T, timeout time.Duration) *approval.Gate {
	t.Helper()
	g, err := approval.Open(approval.Config{Mode: approval.ModeDefault, Dir: t.TempDir(), Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestQuestionTravelsInTheEventStream checks that an approval is a typed
// question between its tool call's start and end, answered by value.
func TestQuestionTravelsInTheEventStream(t *testing.T) {
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: approvalGate(t, 0)},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"make deploy"}`)}},
		faux.Response{Text: "deployed"})
	if err := f.s.Prompt("deploy", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	var q core.Question
	f.until(func(e core.Event) bool {
		var ok bool
		q, ok = e.(core.Question)
		return ok
	})
	if q.Purpose != core.PurposeApproval || q.ToolCallID != "c1" || q.Kind != core.QuestionSelect || q.ID == "" {
		t.Fatalf("question %+v", q)
	}
	if got := q.OptionLabel(string(approval.OptionAllowOnce)); got != "Allow once" {
		t.Errorf("label of allow_once = %q", got)
	}
	if len(f.s.OpenQuestions()) != 1 {
		t.Errorf("open questions: %v", f.s.OpenQuestions())
	}
	if err := f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionAllowOnce)}); err != nil {
		t.Fatal(err)
	}
	if err := f.s.Answer(q.ID, core.Answer{Value: string(approval.OptionAllowOnce)}); !errors.Is(err, ErrNoQuestion) {
		t.Errorf("second answer: %v, want ErrNoQuestion", err)
	}
	evs := f.untilSettled()
	seq := names(withoutUpdates(evs))
	want := "question_closed tool_execution_running tool_execution_end message_start(toolResult) message_end(toolResult)"
	if !strings.HasPrefix(seq, want) {
		t.Errorf("after the answer: %s\nwant it to start %s", seq, want)
	}
}

// TestQuestionDeadlineIsTheCores checks that the core, not the front end,
// gives up on an unanswered question when its timeout passes.
func TestQuestionDeadlineIsTheCores(t *testing.T) {
	expire := make(chan time.Time)
	var asked time.Duration
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: approvalGate(t, time.Minute),
		After: func(d time.Duration) <-chan time.Time { asked = d; return expire }},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"make deploy"}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("deploy", nil, BehaviorNone)
	var q core.Question
	f.until(func(e core.Event) bool { var ok bool; q, ok = e.(core.Question); return ok })
	if asked != time.Minute || q.Deadline.IsZero() || q.Timeout != time.Minute {
		t.Fatalf("timer %v, question %+v", asked, q)
	}
	expire <- time.Now()
	var closed core.QuestionClosed
	var end core.ToolExecutionEnd
	for _, e := range f.untilSettled() {
		switch e := e.(type) {
		case core.QuestionClosed:
			closed = e
		case core.ToolExecutionEnd:
			end = e
		}
	}
	if closed.ID != q.ID || closed.Outcome != core.TimedOut {
		t.Errorf("closed %+v", closed)
	}
	if !end.Result.IsError || !strings.Contains(end.Result.Content[0].Text, "in time") {
		t.Errorf("result %+v", end.Result)
	}
}

// TestUnattendedRefusesByPolicy checks that with nobody to ask no
// question is published and the model is told how to allow the call.
func TestUnattendedRefusesByPolicy(t *testing.T) {
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: approvalGate(t, 0), Unattended: true},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"rm -rf build"}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("clean", nil, BehaviorNone)
	for _, e := range f.untilSettled() {
		switch e := e.(type) {
		case core.Question:
			t.Fatalf("unattended session asked %+v", e)
		case core.ToolExecutionEnd:
			text := e.Result.Content[0].Text
			if !strings.HasPrefix(text, approval.PolicyDenialPrefix) || !strings.Contains(text, "--approval") || approval.IsDenial(text) {
				t.Errorf("result %q", text)
			}
		}
	}
}

// TestDismissedQuestionDenies checks a front end closing the prompt.
func TestDismissedQuestionDenies(t *testing.T) {
	f := newFixture(t, Config{Tools: []core.Tool{execTool("bash")}, Approver: approvalGate(t, 0)},
		faux.Response{Content: []core.Content{toolCall("c1", "bash", `{"command":"ls"}`)}},
		faux.Response{Text: "ok"})
	_ = f.s.Prompt("list", nil, BehaviorNone)
	var q core.Question
	f.until(func(e core.Event) bool { var ok bool; q, ok = e.(core.Question); return ok })
	if err := f.s.Dismiss(q.ID); err != nil {
		t.Fatal(err)
	}
	for _, e := range f.untilSettled() {
		if c, ok := e.(core.QuestionClosed); ok && c.Outcome != core.Dismissed {
			t.Errorf("outcome %v", c.Outcome)
		}
		if end, ok := e.(core.ToolExecutionEnd); ok && !approval.IsDenial(end.Result.Content[0].Text) {
			t.Errorf("result %+v", end.Result)
		}
	}
}

// TestBashResultWaitsForTheTurn checks that a `!cmd` result recorded while
// the agent works joins the conversation when it settles, and one from
// before a conversation change is dropped.
func TestBashResultWaitsForTheTurn(t *testing.T) {
	release := make(chan struct{})
	slow := &fakeTool{name: "wait", run: func(ctx context.Context, _ core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		<-release
		return core.TextResult("done"), nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{slow}},
		faux.Response{Content: []core.Content{toolCall("c1", "wait", `{}`)}},
		faux.Response{Text: "finished"})
	gen := f.s.Generation()
	_ = f.s.Prompt("go", nil, BehaviorNone)
	f.until(func(e core.Event) bool { _, ok := e.(core.ToolExecutionStart); return ok })
	code := 0
	bash := &core.BashExecutionMessage{Command: "git status", Output: "clean", ExitCode: &code}
	if !f.s.AddBashExecution(bash, gen) {
		t.Fatal("result refused while busy")
	}
	for _, m := range f.s.Messages() {
		if m == core.Message(bash) {
			t.Fatal("result joined the conversation in the middle of a turn")
		}
	}
	close(release)
	f.untilSettled()
	msgs := f.s.Messages()
	if msgs[len(msgs)-1] != core.Message(bash) {
		t.Fatalf("last message %T, want the bash result after the turn", msgs[len(msgs)-1])
	}
	if err := f.s.NewConversation(""); err != nil {
		t.Fatal(err)
	}
	if f.s.AddBashExecution(bash, gen) {
		t.Error("a result from before the conversation changed was accepted")
	}
	if f.s.Generation() == gen || len(f.s.Messages()) != 0 {
		t.Errorf("generation %v, %d messages after NewConversation", f.s.Generation(), len(f.s.Messages()))
	}
}

// TestFileConversations switches between session files through the
// session: new, open (with the model restored), fork, branch, tree, name.
func TestFileConversations(t *testing.T) {
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	think := core.Model{ID: "think", API: faux.API, Provider: "faux", Reasoning: true}
	find := func(p, id string) (core.Model, error) {
		if p == think.Provider && id == think.ID {
			return think, nil
		}
		return core.Model{}, errors.New("no such model")
	}
	file := store.Create(dir)
	// A new session starts by recording its model and thinking level, as
	// cmd/cairn does.
	if err := file.AppendModelChange(think.Provider, think.ID); err != nil {
		t.Fatal(err)
	}
	if err := file.AppendThinkingLevel(core.ThinkingHigh); err != nil {
		t.Fatal(err)
	}
	convs := NewFileConversations(store, dir, file)
	f := newFixture(t, Config{Conversations: convs, FindModel: find, Model: think, Thinking: core.ThinkingHigh},
		faux.Response{Text: "first answer"}, faux.Response{Text: "second answer"})
	_ = f.s.Prompt("first question", nil, BehaviorNone)
	f.untilSettled()
	_ = f.s.Prompt("second question", nil, BehaviorNone)
	f.untilSettled()
	if err := f.s.SetName("parser work"); err != nil {
		t.Fatal(err)
	}
	first := f.s.Conversation()
	if first.File == "" || first.Name != "parser work" {
		t.Fatalf("conversation %+v", first)
	}
	points, err := f.s.ForkPoints()
	if err != nil || len(points) != 2 || points[1].Text != "second question" {
		t.Fatalf("fork points %+v, %v", points, err)
	}
	nodes, err := f.s.Tree()
	if err != nil || len(nodes) == 0 {
		t.Fatalf("tree %v, %v", nodes, err)
	}

	// Forking at the second question keeps the first exchange.
	text, err := f.s.Fork(points[1].EntryID)
	if err != nil || text != "second question" {
		t.Fatalf("fork: %q, %v", text, err)
	}
	if got := len(f.s.Messages()); got != 2 {
		t.Errorf("forked conversation holds %d messages, want 2", got)
	}
	if f.s.Conversation().ID == first.ID {
		t.Error("fork kept the session id")
	}

	// A new conversation is empty; switching back restores the model.
	if err := f.s.SetModel(faux.Model); err != nil {
		t.Fatal(err)
	}
	if err := f.s.NewConversation(""); err != nil || len(f.s.Messages()) != 0 {
		t.Fatalf("new: %v, %d messages", err, len(f.s.Messages()))
	}
	if err := f.s.OpenConversation(first.File); err != nil {
		t.Fatal(err)
	}
	st := f.s.State()
	if len(f.s.Messages()) != 4 || st.Model.ID != "think" || st.Thinking != core.ThinkingHigh {
		t.Errorf("reopened: %d messages, model %s, thinking %s", len(f.s.Messages()), st.Model.ID, st.Thinking)
	}
	list, err := f.s.ListConversations()
	if err != nil || len(list) < 2 {
		t.Errorf("list: %d, %v", len(list), err)
	}

	// Entries reads the whole file back; Clone copies the branch to a new
	// file at its tip.
	entries, leaf, err := f.s.Entries()
	if err != nil || len(entries) < 6 || leaf != entries[len(entries)-1].ID {
		t.Fatalf("entries: %d, leaf %q, %v", len(entries), leaf, err)
	}
	before := len(f.s.Messages())
	if err := f.s.Clone(); err != nil {
		t.Fatal(err)
	}
	if c := f.s.Conversation(); c.File == first.File || c.File == "" || len(f.s.Messages()) != before {
		t.Errorf("clone: %+v with %d messages", c, len(f.s.Messages()))
	}
}

// TestMemoryConversations: with --no-session, as in pi, the conversation
// keeps its entries in memory, so entries, fork and clone work (before,
// they failed with ErrNoSessionFile); only opening a file is refused.
func TestMemoryConversations(t *testing.T) {
	f := newFixture(t, Config{}, faux.Response{Text: "hi"}, faux.Response{Text: "again"})
	if !f.s.InMemory() {
		t.Fatal("a session without conversations is not in memory")
	}
	for _, q := range []string{"hello", "and more"} {
		_ = f.s.Prompt(q, nil, BehaviorNone)
		f.untilSettled()
	}
	points, _ := f.s.ForkPoints()
	if len(points) != 2 || points[0].Text != "hello" {
		t.Fatalf("fork points %+v", points)
	}
	if err := f.s.OpenConversation("/x.jsonl"); !errors.Is(err, ErrNoSessionFile) {
		t.Errorf("open: %v", err)
	}
	entries, leaf, err := f.s.Entries()
	if err != nil || len(entries) != 4 || leaf != entries[3].ID {
		t.Fatalf("entries %d, leaf %q, %v", len(entries), leaf, err)
	}
	first := f.s.Conversation()
	if err := f.s.Clone(); err != nil {
		t.Fatalf("clone: %v", err)
	}
	if c := f.s.Conversation(); c.ID == first.ID || c.File != "" || c.Path != "" || len(f.s.Messages()) != 4 {
		t.Errorf("clone: %+v with %d messages", c, len(f.s.Messages()))
	}
	text, err := f.s.Fork(points[1].EntryID)
	if err != nil || text != "and more" || len(f.s.Messages()) != 2 {
		t.Errorf("fork: %q, %v, %d messages", text, err, len(f.s.Messages()))
	}
}
