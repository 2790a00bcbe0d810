package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/provider/openai"
	"github.com/cairn-dev/cairn/core/provider/providertest"
	"github.com/cairn-dev/cairn/core/session"
)

// TestAgentEndSaysWhetherARetryFollows checks pi 0.87's willRetry.
func TestAgentEndSaysWhetherARetryFollows(t *testing.T) {
	full := providertest.SSE(t, "openai-chat/text.0.sse")
	resp := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"busy","type":"server_error"}}`)}
	srv := providertest.NewServer(t, resp, full)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 100}
	f := newFixture(t, Config{Model: model, Open: func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil }, Retry: DefaultRetry})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	var retries []bool
	for _, e := range f.untilSettled() {
		if end, ok := e.(core.AgentEnd); ok {
			retries = append(retries, end.WillRetry)
		}
	}
	if len(retries) != 2 || !retries[0] || retries[1] {
		t.Fatalf("agent_end willRetry = %v, want [true false]", retries)
	}
}

// TestPromptDuringARetryWaitIsRefused: the agent is busy while a retry
// waits, so a plain prompt is refused (ErrBusy) as pi 0.87 refuses it, and
// the retry goes on (pi 0.73 cancelled it and ran the prompt).
func TestPromptDuringARetryWaitIsRefused(t *testing.T) {
	resp := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"busy","type":"server_error"}}`)}
	full := providertest.SSE(t, "openai-chat/text.0.sse")
	srv := providertest.NewServer(t, resp, full)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 100}
	waiting, release := make(chan struct{}), make(chan struct{})
	f := newFixture(t, Config{Model: model, Open: func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: DefaultRetry,
		// The retry wait lasts until the test releases it: no clock.
		Sleep: func(ctx context.Context, _ time.Duration) error { close(waiting); <-release; return ctx.Err() }})
	_ = f.s.Prompt("first", nil, BehaviorNone)
	<-waiting
	if err := f.s.Prompt("second", nil, BehaviorNone); !errors.Is(err, ErrBusy) {
		t.Fatalf("a prompt during a retry wait: %v, want ErrBusy", err)
	}
	close(release)
	evs := f.untilSettled()
	if s := evs[len(evs)-1].(core.Settled); s.Error != "" {
		t.Fatalf("the retried prompt settled with %q", s.Error)
	}
	var users []string
	for _, m := range f.s.Messages() {
		if u, ok := m.(*core.UserMessage); ok {
			users = append(users, u.Text())
		}
	}
	if strings.Join(users, ",") != "first" || len(srv.Requests()) != 2 {
		t.Errorf("users %v, %d requests", users, len(srv.Requests()))
	}
}

// TestSteerWhenIdleIsQueued checks pi's steer: on an idle agent the
// message waits for the next prompt and goes with it.
func TestSteerWhenIdleIsQueued(t *testing.T) {
	f := newFixture(t, Config{}, faux.Response{Text: "ok"})
	if err := f.s.Steer("also mind the tests", nil); err != nil {
		t.Fatal(err)
	}
	if st := f.s.State(); st.IsStreaming || st.PendingMessageCount != 1 {
		t.Fatalf("after an idle steer: %+v", st)
	}
	_ = f.s.Prompt("fix the parser", nil, BehaviorNone)
	f.untilSettled()
	var users []string
	for _, m := range f.s.Messages() {
		if u, ok := m.(*core.UserMessage); ok {
			users = append(users, u.Text())
		}
	}
	if strings.Join(users, ",") != "fix the parser,also mind the tests" {
		t.Errorf("user messages %v", users)
	}
}

// TestRunDeclaresTheSystemPrompt checks pi 0.87's system messages: the
// first run declares the prompt and tools, a later run with the same ones
// declares nothing, and a changed prompt is declared again in full.
func TestRunDeclaresTheSystemPrompt(t *testing.T) {
	cwd := "/project"
	tool := echoTool("read")
	f := newFixture(t, Config{Tools: []core.Tool{tool}, SystemSections: func([]core.Tool) []core.PromptSection {
		return []core.PromptSection{{Name: "preamble", Text: "You help."}, {Name: "cwd", Text: cwd}}
	}}, faux.Response{Text: "one"}, faux.Response{Text: "two"}, faux.Response{Text: "three"})
	run := func() []string {
		_ = f.s.Prompt("go", nil, BehaviorNone)
		var roles []string
		for _, e := range f.untilSettled() {
			if ms, ok := e.(core.MessageStart); ok {
				roles = append(roles, string(ms.Message.MessageRole()))
			}
		}
		return roles
	}
	if got := strings.Join(run(), ","); got != "system,user,assistant" {
		t.Fatalf("first run: %s", got)
	}
	sm := f.s.Messages()[0].(*core.SystemMessage)
	if len(sm.Sections) != 2 || len(sm.ToolsAdded) != 1 || sm.ToolsAdded[0].Name != "read" || sm.Replace {
		t.Errorf("leading system message %+v", sm)
	}
	if got := strings.Join(run(), ","); got != "user,assistant" {
		t.Errorf("second run with nothing changed: %s", got)
	}
	cwd = "/elsewhere"
	if got := strings.Join(run(), ","); got != "system,user,assistant" {
		t.Errorf("run after a change: %s", got)
	}
	if st := core.SystemStateOf(f.s.Messages()); st.Sections[1].Text != "/elsewhere" || len(st.Tools) != 1 {
		t.Errorf("replayed state %+v", st)
	}
	for _, m := range core.ToLLM(f.s.Messages()) {
		if _, ok := m.(*core.SystemMessage); ok {
			t.Fatal("a system message would be sent as a message")
		}
	}
}

// TestMaxThinkingIsTheHighestOffered checks pi's opt-in max level: no model
// cairn knows offers it, so it becomes the model's highest level.
func TestMaxThinkingIsTheHighestOffered(t *testing.T) {
	for _, tt := range []struct {
		id   string
		want core.ThinkingLevel
	}{{"think", core.ThinkingHigh}, {"gpt-5.2", core.ThinkingXHigh}} {
		m := core.Model{ID: tt.id, API: faux.API, Provider: "faux", Reasoning: true}
		f := newFixture(t, Config{Model: m})
		if err := f.s.SetThinkingLevel(core.ThinkingMax); err != nil {
			t.Fatal(err)
		}
		if got := f.s.State().Thinking; got != tt.want {
			t.Errorf("%s: max became %s, want %s", tt.id, got, tt.want)
		}
	}
	if _, err := core.ParseThinkingLevel("max"); err != nil {
		t.Errorf("max is not a level: %v", err)
	}
}

// TestBrokenToolArgumentsAreAnError checks that a call whose arguments did
// not arrive as JSON is not run with none: the model is told what arrived,
// and the turn goes on.
func TestBrokenToolArgumentsAreAnError(t *testing.T) {
	ran := false
	tool := &fakeTool{name: "write", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		ran = true
		return core.TextResult("written"), nil
	}}
	// vLLM is known to send a call's whole arguments again at the end.
	broken := `{"path":"a.txt"}{"path":"a.txt"}`
	call := toolCall("c1", "write", broken)
	f := newFixture(t, Config{Tools: []core.Tool{tool}}, faux.Response{Content: []core.Content{call}}, faux.Response{Text: "retrying"})
	_ = f.s.Prompt("write it", nil, BehaviorNone)
	var end core.ToolExecutionEnd
	for _, e := range f.untilSettled() {
		if e, ok := e.(core.ToolExecutionEnd); ok {
			end = e
		}
	}
	text := end.Result.Content[0].Text
	if ran || !end.Result.IsError || !strings.Contains(text, "not valid JSON") || !strings.Contains(text, broken) {
		t.Fatalf("ran=%v, result %q", ran, text)
	}
	if last, _ := f.s.LastAssistantText(); last != "retrying" {
		t.Errorf("the turn did not go on: %q", last)
	}
}

// TestCallsOfATruncatedAnswerDoNotRun checks pi's rule: an answer cut off
// at the output limit may hold incomplete calls, so none runs and each is
// answered with an error saying so.
func TestCallsOfATruncatedAnswerDoNotRun(t *testing.T) {
	ran := false
	tool := &fakeTool{name: "write", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		ran = true
		return core.TextResult("written"), nil
	}}
	f := newFixture(t, Config{Tools: []core.Tool{tool}},
		faux.Response{Content: []core.Content{toolCall("c1", "write", `{}`)}, StopReason: core.StopLength},
		faux.Response{Text: "shorter now"})
	_ = f.s.Prompt("write it", nil, BehaviorNone)
	var end core.ToolExecutionEnd
	for _, e := range f.untilSettled() {
		if e, ok := e.(core.ToolExecutionEnd); ok {
			end = e
		}
	}
	if ran || !end.Result.IsError || !strings.Contains(end.Result.Content[0].Text, "output token limit") {
		t.Fatalf("ran=%v, result %+v", ran, end.Result)
	}
}

// TestRetryRecordsAContextEditAndACancelledRetryLeavesTheAttemptOut: as in
// pi 0.87.1, before the wait the failed attempt leaves the context and a
// context_edit entry records it (entry_appended); aborting the wait keeps
// it out of the messages and of the session's context.
func TestRetryRecordsAContextEditAndACancelledRetryLeavesTheAttemptOut(t *testing.T) {
	resp := providertest.Response{Status: 503, Body: []byte(`{"error":{"message":"busy","type":"server_error"}}`)}
	srv := providertest.NewServer(t, resp)
	prov := openai.New(provider.Options{Retry: provider.RetryPolicy{MaxRetries: -1}})
	model := core.Model{ID: "m", API: "openai-completions", Provider: "openai", BaseURL: srv.URL + "/v1", ContextWindow: 128000, MaxTokens: 100}
	dir := t.TempDir()
	store := session.Store{Dir: dir}
	file := store.Create(dir)
	waiting := make(chan struct{})
	f := newFixture(t, Config{Model: model, Open: func(core.Model) (Connection, error) { return Connection{Provider: prov}, nil },
		Retry: DefaultRetry, Conversations: NewFileConversations(store, dir, file),
		Sleep: func(ctx context.Context, _ time.Duration) error { close(waiting); <-ctx.Done(); return ctx.Err() }})
	_ = f.s.Prompt("hi", nil, BehaviorNone)
	evs := f.until(func(e core.Event) bool { _, ok := e.(core.EntryAppended); return ok })
	<-waiting
	if got := names(withoutUpdates(evs)); !strings.HasSuffix(got, "agent_end auto_retry_start entry_appended") {
		t.Errorf("events: %s", got)
	}
	edit, _ := evs[len(evs)-1].(core.EntryAppended).Entry.(session.Entry)
	if ce, ok := edit.Payload.(*session.ContextEditEntry); !ok || ce.Replacement != nil {
		t.Fatalf("entry_appended: %+v", edit)
	}
	f.s.Abort()
	f.untilSettled()
	for _, m := range f.s.Messages() {
		if a, ok := m.(*core.AssistantMessage); ok && a.StopReason == core.StopError {
			t.Errorf("the failed attempt is still in the messages")
		}
	}
	if ctx := file.Context(); len(ctx.Messages) != 1 {
		t.Errorf("the session's context holds %d messages, want the user's alone", len(ctx.Messages))
	}
}
