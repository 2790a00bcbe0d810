package subagent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/tools"
	"github.com/cairn-dev/cairn/core/toolset"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

const waitLimit = 10 * time.Second

// model answers requests by who sends them: the parent (whose first
// message is "go") or a child (whose first message is its task prompt).
type model struct {
	mu sync.Mutex
	// answers maps a conversation's first message to its answers, in
	// order; each request takes the next.
	answers map[string][]faux.Response
	// tools records, per first message, the tools of its first request.
	tools map[string][]string
	// hold, when set, runs before a conversation's first answer (a
	// barrier for children).
	hold func(first string)
	seen map[string]int
}

func newModel(answers map[string][]faux.Response) *model {
	return &model{answers: answers, tools: map[string][]string{}, seen: map[string]int{}}
}

func (m *model) step(req *provider.Request) (faux.Response, error) {
	first := ""
	if u, ok := req.Messages[0].(*core.UserMessage); ok {
		first = core.PlainText(u.Content)
	}
	m.mu.Lock()
	n := m.seen[first]
	m.seen[first]++
	if n == 0 {
		var names []string
		for _, t := range req.Tools {
			names = append(names, t.Name)
		}
		m.tools[first] = names
	}
	answers := m.answers[first]
	hold := m.hold
	m.mu.Unlock()
	if n == 0 && hold != nil {
		hold(first)
	}
	if n >= len(answers) {
		return faux.Response{Text: "no more answers for " + first}, nil
	}
	return answers[n], nil
}

func (m *model) toolsOf(first string) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.tools[first]
}

// world is a parent session in a project directory, with cairn's tools,
// the task tool and a gate.
type world struct {
	t      testing.TB
	dir    string
	s      *agent.Session
	gate   *approval.Gate
	events <-chan core.Event
}

type worldOptions struct {
	mode    approval.Mode
	opts    Options
	file    bool // keep the parent's conversation in a session file
	answers map[string][]faux.Response
	hold    func(first string)
}

func newWorld(t testing.TB, o worldOptions) (*world, *model) {
	t.Helper()
	dir := t.TempDir()
	m := newModel(o.answers)
	m.hold = o.hold
	fp := faux.New(faux.Options{ChunkSize: 64})
	for range 64 {
		fp.PushStep(m.step)
	}
	gate, err := approval.Open(approval.Config{Mode: o.mode, Dir: dir, RulesFile: approval.ProjectRulesFile(dir)})
	if err != nil {
		t.Fatal(err)
	}
	o.opts.Cwd = dir
	builtin := append(tools.New(dir), New(o.opts))
	cfg := agent.Config{
		Model:    faux.Model,
		Open:     func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil },
		Toolset:  toolset.New(builtin, toolset.Options{}),
		Approver: gate,
		Sleep:    func(ctx context.Context, d time.Duration) error { return ctx.Err() },
	}
	if o.file {
		store := session.Store{Dir: filepath.Join(dir, "sessions")}
		cfg.Conversations = agent.NewFileConversations(store, dir, store.Create(dir))
	}
	s, err := agent.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	events, stop := s.Subscribe()
	t.Cleanup(func() { s.Close(); stop() })
	return &world{t: t, dir: dir, s: s, gate: gate, events: events}, m
}

// run prompts "go" and returns the events up to agent_settled, calling
// onEvent for each as it comes.
func (w *world) run(onEvent func(core.Event)) []core.Event {
	w.t.Helper()
	if err := w.s.Prompt("go", nil, agent.BehaviorNone); err != nil {
		w.t.Fatal(err)
	}
	var got []core.Event
	timeout := time.After(waitLimit)
	for {
		select {
		case e := <-w.events:
			got = append(got, e)
			if onEvent != nil {
				onEvent(e)
			}
			if _, ok := e.(core.Settled); ok {
				return got
			}
		case <-timeout:
			w.t.Fatalf("no agent_settled within %s (%d events)", waitLimit, len(got))
		}
	}
}

func taskCall(id, agentName, description, prompt string) core.Content {
	args, _ := json.Marshal(Args{Description: description, Prompt: prompt, SubagentType: agentName})
	return core.Content{Type: core.ContentToolCall, ID: id, Name: ToolName, Arguments: args}
}

func toolCall(id, name, args string) core.Content {
	return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
}

// results are the tool results in the parent's conversation, by call id.
func results(s *agent.Session) map[string]*core.ToolResultMessage {
	out := map[string]*core.ToolResultMessage{}
	for _, m := range s.Messages() {
		if r, ok := m.(*core.ToolResultMessage); ok {
			out[r.ToolCallID] = r
		}
	}
	return out
}

// barrier returns a hold that lets no child answer until n children have
// sent their first request, so passing it proves they were in flight
// together; it fails the test after waitLimit.
func barrier(t *testing.T, n int) (hold func(string), reached func() bool) {
	var mu sync.Mutex
	count := 0
	all := make(chan struct{})
	ok := false
	return func(first string) {
			if first == "go" {
				return
			}
			mu.Lock()
			count++
			if count == n {
				ok = true
				close(all)
			}
			mu.Unlock()
			select {
			case <-all:
			case <-time.After(waitLimit):
				t.Errorf("child %q waited %s for the others: the children did not run together", first, waitLimit)
			}
		}, func() bool {
			mu.Lock()
			defer mu.Unlock()
			return ok
		}
}

// Two task calls in one answer run together, each child with its
// definition's tools, and the parent gets both answers.
func TestTwoTasksRunInParallel(t *testing.T) {
	hold, reached := barrier(t, 2)
	w, m := newWorld(t, worldOptions{mode: approval.ModeAuto, hold: hold, answers: map[string][]faux.Response{
		"go": {
			{Content: []core.Content{taskCall("c1", "explore", "find A", "look for A"), taskCall("c2", "general-purpose", "find B", "look for B")}},
			{Text: "both done"},
		},
		"look for A": {{Text: "A is in a.go"}},
		"look for B": {{Text: "B is in b.go"}},
	}})
	w.run(nil)
	if !reached() {
		t.Fatal("the two children's requests were never in flight together")
	}
	res := results(w.s)
	if got := core.PlainText(res["c1"].Content); got != "A is in a.go" || res["c1"].IsError {
		t.Errorf("explore's result = %q (error %v)", got, res["c1"].IsError)
	}
	if got := core.PlainText(res["c2"].Content); got != "B is in b.go" || res["c2"].IsError {
		t.Errorf("general-purpose's result = %q (error %v)", got, res["c2"].IsError)
	}
	if got := m.toolsOf("look for A"); !slices.Equal(got, ExploreTools) {
		t.Errorf("explore's tools = %v, want %v", got, ExploreTools)
	}
	parent := m.toolsOf("go")
	want := slices.DeleteFunc(slices.Clone(parent), func(n string) bool { return n == ToolName })
	if got := m.toolsOf("look for B"); !slices.Equal(got, want) || slices.Contains(got, ToolName) {
		t.Errorf("general-purpose's tools = %v, want the parent's but task: %v", got, want)
	}
	var d Details
	if err := json.Unmarshal(res["c1"].Details, &d); err != nil || d.Agent != "explore" || d.Turns != 1 || d.Usage.TotalTokens == 0 {
		t.Errorf("details = %+v (%v)", d, err)
	}
}

// A child's write in default mode asks through the parent's questions,
// labelled with the subagent and its task; a rule remembered from it is
// the parent's.
func TestChildAsksThroughParentLabelled(t *testing.T) {
	w, _ := newWorld(t, worldOptions{mode: approval.ModeDefault, answers: map[string][]faux.Response{
		"go": {
			{Content: []core.Content{taskCall("c1", "general-purpose", "write notes", "write the notes")}},
			{Text: "ok"},
		},
		"write the notes": {
			{Content: []core.Content{toolCall("w1", "write", `{"path":"notes.txt","content":"hi"}`)}},
			{Text: "wrote notes.txt"},
		},
	}})
	var asked []core.Question
	w.run(func(e core.Event) {
		if q, ok := e.(core.Question); ok {
			asked = append(asked, q)
			if err := w.s.Answer(q.ID, core.Answer{Value: string(approval.OptionAllowSession)}); err != nil {
				t.Error(err)
			}
		}
	})
	if len(asked) != 1 {
		t.Fatalf("%d questions in the parent's stream, want 1", len(asked))
	}
	q := asked[0]
	if q.Purpose != core.PurposeApproval || q.ToolCallID != "c1" || q.Subagent == "" ||
		!strings.Contains(q.Title, "general-purpose") || !strings.Contains(q.Title, "write notes") || !strings.Contains(q.Title, "notes.txt") {
		t.Errorf("question = %+v, want an approval of the write under call c1, labelled with the agent and task", q)
	}
	if data, err := os.ReadFile(filepath.Join(w.dir, "notes.txt")); err != nil || string(data) != "hi" {
		t.Errorf("notes.txt = %q, %v", data, err)
	}
	if got := core.PlainText(results(w.s)["c1"].Content); got != "wrote notes.txt" {
		t.Errorf("result = %q", got)
	}
	rules := w.gate.Rules(approval.ScopeSession)
	if len(rules) != 1 || rules[0].Tool != "write" {
		t.Errorf("the parent's gate remembers %v, want the write rule from the child's answer", rules)
	}
}

// explore has no write tool at all: a write it tries is an unknown tool,
// and nothing is asked.
func TestExploreHasNoWriteTool(t *testing.T) {
	w, m := newWorld(t, worldOptions{mode: approval.ModeDefault, answers: map[string][]faux.Response{
		"go": {
			{Content: []core.Content{taskCall("c1", "explore", "look", "look around")}},
			{Text: "ok"},
		},
		"look around": {
			{Content: []core.Content{toolCall("w1", "write", `{"path":"x.txt","content":"hi"}`), toolCall("b1", "bash", `{"command":"touch y"}`)}},
			{Text: "could not write"},
		},
	}})
	events := w.run(nil)
	for _, e := range events {
		if q, ok := e.(core.Question); ok {
			t.Errorf("explore asked %q", q.Title)
		}
	}
	for _, name := range []string{"write", "edit", "bash"} {
		if slices.Contains(m.toolsOf("look around"), name) {
			t.Errorf("explore was offered %s", name)
		}
	}
	for _, f := range []string{"x.txt", "y"} {
		if _, err := os.Stat(filepath.Join(w.dir, f)); err == nil {
			t.Errorf("explore made %s", f)
		}
	}
}

// The parent's usage counts its children's.
func TestUsageRollsUp(t *testing.T) {
	child := core.Usage{Input: 100, Output: 50, TotalTokens: 150, Cost: core.Cost{Total: 0.5}}
	parent := core.Usage{Input: 10, Output: 5, TotalTokens: 15, Cost: core.Cost{Total: 0.25}}
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, answers: map[string][]faux.Response{
		"go":   {{Content: []core.Content{taskCall("c1", "explore", "look", "look")}, Usage: &parent}, {Text: "ok", Usage: &parent}},
		"look": {{Text: "found", Usage: &child}},
	}})
	w.run(nil)
	st := w.s.Stats()
	if st.Usage.TotalTokens != 180 || st.Usage.Input != 120 {
		t.Errorf("stats usage = %+v; want 180 tokens, 120 of them input", st.Usage)
	}
}

// The parent's abort stops every child.
func TestAbortStopsChildren(t *testing.T) {
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, hold: func(first string) {
		if first != "go" {
			started <- struct{}{}
			<-release
		}
	}, answers: map[string][]faux.Response{
		"go": {{Content: []core.Content{taskCall("c1", "explore", "a", "a"), taskCall("c2", "explore", "b", "b")}}},
		"a":  {{Text: "A"}},
		"b":  {{Text: "B"}},
	}})
	go func() {
		for range 2 {
			<-started
		}
		w.s.Abort()
		close(release)
	}()
	w.run(nil)
	for id, r := range results(w.s) {
		if !r.IsError {
			t.Errorf("call %s ended %q, not as an error after the abort", id, core.PlainText(r.Content))
		}
	}
}

// A child stops at its turn limit and says so.
func TestTurnLimit(t *testing.T) {
	loop := faux.Response{Content: []core.Content{toolCall("l", "ls", `{}`)}}
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, opts: Options{MaxTurns: 2}, answers: map[string][]faux.Response{
		"go":   {{Content: []core.Content{taskCall("c1", "explore", "loop", "loop")}}, {Text: "ok"}},
		"loop": {loop, loop, loop, loop},
	}})
	w.run(nil)
	r := results(w.s)["c1"]
	if !r.IsError || !strings.Contains(core.PlainText(r.Content), "turn limit") {
		t.Errorf("result = %q, want the turn limit", core.PlainText(r.Content))
	}
}

// Progress reaches the parent as updates of the task call: started, the
// child's steps, done, in order.
func TestProgressUpdates(t *testing.T) {
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, answers: map[string][]faux.Response{
		"go":   {{Content: []core.Content{taskCall("c1", "explore", "look", "look")}}, {Text: "ok"}},
		"look": {{Content: []core.Content{toolCall("l", "ls", `{}`)}}, {Text: "found"}},
	}})
	var statuses []core.SubagentStatus
	var ids []uint64
	for _, e := range w.run(nil) {
		if u, ok := e.(core.ToolExecutionUpdate); ok && u.Partial.Subagent != nil {
			statuses = append(statuses, u.Partial.Subagent.Status)
			ids = append(ids, u.Partial.Subagent.ID)
		}
	}
	if len(statuses) < 3 || statuses[0] != core.SubagentStarted || statuses[len(statuses)-1] != core.SubagentDone ||
		!slices.Contains(statuses, core.SubagentToolCall) {
		t.Errorf("statuses = %v", statuses)
	}
	for _, id := range ids {
		if id != ids[0] {
			t.Errorf("ids = %v, want one subagent id", ids)
			break
		}
	}
}

// A parent with a session file keeps each child's transcript beside it,
// linked from the result's details.
func TestTranscriptBesideSession(t *testing.T) {
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, file: true, answers: map[string][]faux.Response{
		"go":   {{Content: []core.Content{taskCall("c1", "explore", "look", "look")}}, {Text: "ok"}},
		"look": {{Content: []core.Content{toolCall("l", "ls", `{}`)}}, {Text: "found"}},
	}})
	w.run(nil)
	var d Details
	_ = json.Unmarshal(results(w.s)["c1"].Details, &d)
	if d.Transcript == "" || filepath.Dir(d.Transcript) != TranscriptDir(w.s.Conversation().Path) {
		t.Fatalf("transcript %q, want one in %s", d.Transcript, TranscriptDir(w.s.Conversation().Path))
	}
	f, err := session.Open(d.Transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx := f.Context()
	if len(ctx.Messages) != 4 || len(f.Warnings()) != 0 {
		t.Errorf("transcript holds %d messages (%v), want user, call, result, answer", len(ctx.Messages), f.Warnings())
	}
	if got := Transcripts(w.s.Conversation().Path); got["c1"] != d.Transcript {
		t.Errorf("Transcripts = %v", got)
	}
}

// With maxParallel 1 the children of one answer run one after the other.
func TestParallelLimit(t *testing.T) {
	var mu sync.Mutex
	running, most := 0, 0
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAuto, opts: Options{MaxParallel: 1}, hold: func(first string) {
		if first == "go" {
			return
		}
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // gives an overlapping child time to arrive; the assertion does not depend on it
		mu.Lock()
		running--
		mu.Unlock()
	}, answers: map[string][]faux.Response{
		"go": {{Content: []core.Content{taskCall("c1", "explore", "a", "a"), taskCall("c2", "explore", "b", "b")}}, {Text: "ok"}},
		"a":  {{Text: "A"}},
		"b":  {{Text: "B"}},
	}})
	w.run(nil)
	if most != 1 {
		t.Errorf("%d children answered at once, want 1", most)
	}
	if r := results(w.s); core.PlainText(r["c1"].Content) != "A" || core.PlainText(r["c2"].Content) != "B" {
		t.Errorf("results = %q, %q", core.PlainText(r["c1"].Content), core.PlainText(r["c2"].Content))
	}
}

// A child's calls follow the parent's mode as it is: in auto_edit its
// write runs unasked, as the parent's would.
func TestChildFollowsParentMode(t *testing.T) {
	w, _ := newWorld(t, worldOptions{mode: approval.ModeAutoEdit, answers: map[string][]faux.Response{
		"go":       {{Content: []core.Content{taskCall("c1", "general-purpose", "write", "write it")}}, {Text: "ok"}},
		"write it": {{Content: []core.Content{toolCall("w1", "write", `{"path":"a.txt","content":"x"}`)}}, {Text: "done"}},
	}})
	for _, e := range w.run(nil) {
		if q, ok := e.(core.Question); ok {
			t.Errorf("asked %q in auto_edit", q.Title)
		}
	}
	if _, err := os.Stat(filepath.Join(w.dir, "a.txt")); err != nil {
		t.Errorf("the child's write did not run: %v", err)
	}
}

// An answer cut off by a crash is closed: a task call without a transcript
// says its child completed nothing, another call that it did not finish;
// an answer that has its results is left alone.
func TestInterruptedClosesTheLastAnswer(t *testing.T) {
	a := &core.AssistantMessage{StopReason: core.StopToolUse, Content: []core.Content{
		taskCall("t1", "explore", "look", "look"), toolCall("b1", "bash", `{"command":"ls"}`)}}
	got := Interrupted([]core.Message{a}, filepath.Join(t.TempDir(), "s.jsonl"), 1)
	if len(got) != 2 || got[0].ToolCallID != "t1" || got[1].ToolCallID != "b1" || !got[0].IsError || !got[1].IsError {
		t.Fatalf("results = %+v", got)
	}
	if text := core.PlainText(got[0].Content); !strings.Contains(text, "completed nothing") {
		t.Errorf("task result = %q", text)
	}
	if text := core.PlainText(got[1].Content); text != interruptedText {
		t.Errorf("bash result = %q", text)
	}
	if got := Interrupted([]core.Message{a, got[0], got[1]}, "x.jsonl", 1); got != nil {
		t.Errorf("an answer with its results got %d more", len(got))
	}
}

// A task's description is the model's text: in the child's questions and
// in the progress the parent shows under the task call, its control
// characters and invisible format characters are escaped, so it cannot
// retitle the terminal, clear it or reorder what the question says.
func TestDescriptionEscapedInQuestionsAndProgress(t *testing.T) {
	desc := "notes \x1b]0;pwned\x07\x1b[2J\u202eevil"
	w, _ := newWorld(t, worldOptions{mode: approval.ModeDefault, answers: map[string][]faux.Response{
		"go": {
			{Content: []core.Content{taskCall("c1", "general-purpose", desc, "write the notes")}},
			{Text: "ok"},
		},
		"write the notes": {
			{Content: []core.Content{toolCall("w1", "write", `{"path":"notes.txt","content":"hi"}`)}},
			{Text: "wrote notes.txt"},
		},
	}})
	raw := func(s string) bool { return strings.ContainsAny(s, "\x1b\x07\u202e") }
	var questions int
	events := w.run(func(e core.Event) {
		if q, ok := e.(core.Question); ok {
			questions++
			if raw(q.Title) || raw(q.Subagent) || raw(q.Message) {
				t.Errorf("question holds raw control characters: %q / %q", q.Title, q.Subagent)
			}
			if !strings.Contains(q.Title, `\x1b]0;pwned`) {
				t.Errorf("question title %q does not show the escaped description", q.Title)
			}
			if err := w.s.Answer(q.ID, core.Answer{Value: string(approval.OptionDeny)}); err != nil {
				t.Error(err)
			}
		}
	})
	if questions != 1 {
		t.Fatalf("%d questions, want 1", questions)
	}
	for _, e := range events {
		if u, ok := e.(core.ToolExecutionUpdate); ok {
			if text := core.PlainText(u.Partial.Content); raw(text) {
				t.Errorf("progress %q holds raw control characters", text)
			}
		}
	}
}
