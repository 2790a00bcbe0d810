package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestRewindUndoesWhatAToolDidAndRedoes: a tool deletes src (as `rm -rf
// src` through bash would); rewinding one prompt brings src back and
// takes the conversation back before the prompt; redo undoes both.
func TestRewindUndoesWhatAToolDidAndRedoes(t *testing.T) {
	root := t.TempDir()
	src := filepath.Join(root, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store, err := checkpoint.Open(checkpoint.Options{Project: root, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeTool{name: "rm", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		return core.TextResult("removed"), os.RemoveAll(src)
	}}
	f := newFixture(t, Config{Tools: []core.Tool{rm}, Checkpoints: store},
		faux.Response{Content: []core.Content{toolCall("c1", "rm", `{}`)}},
		faux.Response{Text: "done"})
	if err := f.s.Prompt("delete src", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("the tool did not remove src: %v", err)
	}
	pts, err := f.s.RewindPoints()
	if err != nil || len(pts) != 1 || pts[0].Checkpoint == "" || pts[0].Text != "delete src" {
		t.Fatalf("points %+v, %v", pts, err)
	}
	_, plan, err := f.s.PreviewRewind(context.Background(), 1)
	if err != nil || len(plan.Changes) != 2 {
		t.Fatalf("preview: %+v, %v", plan, err)
	}
	res, err := f.s.Rewind(context.Background(), RewindRequest{Steps: 1})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(src, "main.go")); err != nil || string(b) != "package main\n" {
		t.Fatalf("src/main.go after rewind: %q, %v", b, err)
	}
	if !res.Conversation || len(f.s.Messages()) != 0 || len(res.Code.NotRestored) != 0 {
		t.Fatalf("conversation %v, %d messages, not restored %v", res.Conversation, len(f.s.Messages()), res.Code.NotRestored)
	}
	if !f.s.RewindStatus().CanRedo {
		t.Error("get_state would not offer redo")
	}
	if _, err := f.s.Rewind(context.Background(), RewindRequest{Redo: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
	if n := len(f.s.Messages()); n != 4 {
		t.Fatalf("redo: %d messages, want the 4 of the prompt", n)
	}
}

// TestRewindConversationOnlyLeavesFiles: restore "conversation" keeps the
// files as they are.
func TestRewindConversationOnlyLeavesFiles(t *testing.T) {
	root := t.TempDir()
	store, err := checkpoint.Open(checkpoint.Options{Project: root, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	w := &fakeTool{name: "w", run: func(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
		return core.TextResult("ok"), os.WriteFile(filepath.Join(root, "new"), []byte("x"), 0o644)
	}}
	f := newFixture(t, Config{Tools: []core.Tool{w}, Checkpoints: store},
		faux.Response{Content: []core.Content{toolCall("c1", "w", `{}`)}},
		faux.Response{Text: "done"})
	if err := f.s.Prompt("write", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	res, err := f.s.Rewind(context.Background(), RewindRequest{Steps: 1, Restore: RestoreConversation})
	if err != nil || res.Code != nil {
		t.Fatalf("%+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(root, "new")); err != nil {
		t.Fatalf("conversation-only rewind touched the files: %v", err)
	}
	if _, err := f.s.Rewind(context.Background(), RewindRequest{Steps: 2}); err == nil {
		t.Fatal("rewinding past the first prompt should fail")
	}
}

// TestImpossibleRewindLeavesTheRunAlone: a rewind further back than the
// conversation goes is refused without stopping the prompt that runs.
func TestImpossibleRewindLeavesTheRunAlone(t *testing.T) {
	store, err := checkpoint.Open(checkpoint.Options{Project: t.TempDir(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	started, stopped := make(chan struct{}), make(chan struct{})
	wait := &fakeTool{name: "wait", run: func(ctx context.Context, _ core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
		close(started)
		<-ctx.Done()
		close(stopped)
		return core.TextResult("stopped"), ctx.Err()
	}}
	f := newFixture(t, Config{Tools: []core.Tool{wait}, Checkpoints: store},
		faux.Response{Content: []core.Content{toolCall("c1", "wait", `{}`)}},
		faux.Response{Text: "done"})
	if err := f.s.Prompt("wait for it", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	select {
	case <-started:
	case <-time.After(waitLimit):
		t.Fatal("the tool did not start")
	}
	stopping := false
	if _, err := f.s.Rewind(context.Background(), RewindRequest{Steps: 5, Stopping: func() { stopping = true }}); err == nil {
		t.Fatal("a rewind of 5 prompts in a conversation of 1 went ahead")
	}
	select {
	case <-stopped:
		t.Fatal("the impossible rewind stopped the running prompt")
	default:
	}
	if stopping {
		t.Error("the adapter was told the run would stop")
	}
	// One step back is possible: it stops the run.
	if _, err := f.s.Rewind(context.Background(), RewindRequest{Steps: 1}); err != nil {
		t.Fatal(err)
	}
	select {
	case <-stopped:
	case <-time.After(waitLimit):
		t.Fatal("the possible rewind did not stop the run")
	}
}

// TestRewindCountsThePromptComing: a prompt accepted but not yet in the
// conversation (its checkpoint or its hooks still running) is a point a
// rewind may go back past, so "two prompts back" is not refused while the
// second is starting; once it is in the conversation, three are too many.
func TestRewindCountsThePromptComing(t *testing.T) {
	f := onePromptDone(t)
	run := &activeRun{done: make(chan struct{})}
	f.s.mu.Lock()
	f.s.run = run
	f.s.mu.Unlock()
	defer func() {
		f.s.mu.Lock()
		f.s.run = nil
		f.s.mu.Unlock()
	}()
	if err := f.s.checkRewindable(2, true); err != nil {
		t.Errorf("two prompts back while the second starts: %v", err)
	}
	if err := f.s.checkRewindable(3, true); err == nil {
		t.Error("three prompts back while the second starts was allowed")
	}
	f.s.appendMessage(&core.UserMessage{Content: []core.Content{core.TextBlock("two")}})
	if err := f.s.checkRewindable(3, false); err == nil {
		t.Error("three prompts back was allowed once the second was in the conversation")
	}
}

// TestPromptWithoutCheckpointIsAPoint: a prompt whose checkpoint could not
// be taken (an abort during the scan, a full disk) is still a prompt a
// rewind counts, for the conversation only; it used to be skipped, so
// "one back" went two back.
func TestPromptWithoutCheckpointIsAPoint(t *testing.T) {
	f := onePromptDone(t)
	f.s.appendMessage(&core.UserMessage{Content: []core.Content{core.TextBlock("two")}})
	pts, err := f.s.RewindPoints()
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 2 || pts[0].Text != "one" || pts[0].Checkpoint == "" || pts[1].Text != "two" || pts[1].Checkpoint != "" {
		t.Fatalf("points %+v", pts)
	}
	if err := f.s.checkRewindable(1, true); err == nil {
		t.Error("restoring the files of a prompt with no checkpoint was allowed")
	}
}

// onePromptDone is a session with checkpoints after one prompt, "one",
// has run to its answer.
func onePromptDone(t *testing.T) *fixture {
	t.Helper()
	store, err := checkpoint.Open(checkpoint.Options{Project: t.TempDir(), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, Config{Checkpoints: store}, faux.Response{Text: "done"})
	if err := f.s.Prompt("one", nil, BehaviorNone); err != nil {
		t.Fatal(err)
	}
	f.untilSettled()
	return f
}
