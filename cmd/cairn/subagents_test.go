package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/subagent"
)

// A cairn killed with SIGKILL while two subagents run leaves valid files:
// the parent's session up to the answer that started them, and beside it
// each child's transcript with what that child had completed (its tool
// call and result); the next prompt with --continue works.
func TestResumeAfterKillDuringSubagents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "cairn")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	work, dir := t.TempDir(), t.TempDir()
	task := func(id, prompt string) string {
		return `{"type":"toolCall","id":"` + id + `","name":"task","arguments":{"description":"look ` + id +
			`","prompt":"` + prompt + `","subagent_type":"explore"}}`
	}
	long := strings.Repeat("slow words ", 20000)
	script := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(script, []byte(`{"chunkSize": 4, "tokensPerSecond": 200, "responses": [
	  {"content": [`+task("t1", "Look one.")+`, `+task("t2", "Look two.")+`]},
	  {"content": [{"type":"toolCall","id":"l1","name":"ls","arguments":{}}]},
	  {"content": [{"type":"toolCall","id":"l2","name":"ls","arguments":{}}]},
	  {"text": "`+long+`"}, {"text": "`+long+`"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CAIRN_DIR="+dir, "CAIRN_FAUX_SCRIPT="+script)
	cmd := exec.Command(bin, "--provider", "faux", "--mode", "json", "-p", "look twice")
	cmd.Dir, cmd.Env = work, env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	defer func() {
		if !killed {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
		}
	}()
	// Each child's second turn starts once its ls call and result are
	// recorded: then both have completed something, and both still run.
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 0, 64<<10), 4<<20)
	secondTurns := map[string]int{}
	for secondTurns["t1"] < 2 || secondTurns["t2"] < 2 {
		if !lines.Scan() {
			t.Fatalf("json mode ended before both children were in their second turn: %v", lines.Err())
		}
		var e struct {
			Type          string `json:"type"`
			ToolCallID    string `json:"toolCallId"`
			PartialResult struct {
				Details struct {
					Event struct {
						Type string `json:"type"`
					} `json:"event"`
				} `json:"details"`
			} `json:"partialResult"`
		}
		if json.Unmarshal(lines.Bytes(), &e) == nil && e.Type == "tool_execution_update" && e.PartialResult.Details.Event.Type == "turn_start" {
			secondTurns[e.ToolCallID]++
		}
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	killed = true

	path, err := session.Store{Root: filepath.Join(dir, "sessions")}.Latest(work)
	if err != nil {
		t.Fatal(err)
	}
	f, err := session.Open(path)
	if err != nil {
		t.Fatalf("the session file is not readable after the kill: %v", err)
	}
	if w := f.Warnings(); len(w) != 0 {
		t.Errorf("the session file has bad lines after the kill: %v", w)
	}
	if got := roles(f.Context().Messages); got != "system,user,assistant" {
		t.Errorf("parent's messages after the kill = %s", got)
	}
	_ = f.Close()
	transcripts := subagent.Transcripts(path)
	for _, id := range []string{"t1", "t2"} {
		p, ok := transcripts[id]
		if !ok {
			t.Errorf("no transcript for task %s (have %v)", id, transcripts)
			continue
		}
		c, err := session.Open(p)
		if err != nil {
			t.Errorf("transcript of %s: %v", id, err)
			continue
		}
		if w := c.Warnings(); len(w) != 0 {
			t.Errorf("transcript of %s has bad lines: %v", id, w)
		}
		if got := roles(c.Context().Messages); !strings.HasSuffix(got, "user,assistant,toolResult") {
			t.Errorf("transcript of %s holds %s, want the child's prompt, its ls call and the result", id, got)
		}
		_ = c.Close()
	}

	script2 := filepath.Join(t.TempDir(), "script2.json")
	if err := os.WriteFile(script2, []byte(`{"responses": [{"text": "back again"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	again := exec.Command(bin, "--provider", "faux", "--continue", "-p", "three")
	again.Dir, again.Env = work, append(env, "CAIRN_FAUX_SCRIPT="+script2)
	deadline := time.AfterFunc(30*time.Second, func() { _ = again.Process.Kill() })
	defer deadline.Stop()
	out, err := again.Output()
	if err != nil || string(out) != "back again\n" {
		t.Fatalf("prompt after resume: %v, %q", err, out)
	}
	// The resumed session closed the interrupted task calls with what each
	// child had completed, linked to its transcript.
	f, err = session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	closed := map[string]*core.ToolResultMessage{}
	for _, m := range f.Context().Messages {
		if r, ok := m.(*core.ToolResultMessage); ok {
			closed[r.ToolCallID] = r
		}
	}
	for _, id := range []string{"t1", "t2"} {
		r := closed[id]
		if r == nil {
			t.Errorf("task %s has no result after the resume", id)
			continue
		}
		var d subagent.Details
		_ = json.Unmarshal(r.Details, &d)
		text := core.PlainText(r.Content)
		if !r.IsError || !strings.Contains(text, "interrupted") || !strings.Contains(text, "1 answers and 1 tool calls") ||
			d.Transcript != transcripts[id] || d.Turns != 1 {
			t.Errorf("task %s's result after the resume: %q, details %+v", id, text, d)
		}
	}
	if got := roles(f.Context().Messages); got != "system,user,assistant,toolResult,toolResult,user,assistant" {
		t.Errorf("messages after the resume = %s", got)
	}
}

func roles(msgs []core.Message) string {
	var out []string
	for _, m := range msgs {
		out = append(out, string(m.MessageRole()))
	}
	return strings.Join(out, ",")
}

// jsonrpc shows a task call's subagent as tool.progress of its execution,
// saying the agent, task and step, before its tool.complete with the
// child's answer.
func TestJSONRPCSubagentProgress(t *testing.T) {
	task := `{"type":"toolCall","id":"t1","name":"task","arguments":{"description":"look around","prompt":"Look.","subagent_type":"explore"}}`
	srv, _ := fauxServer(t, `{"responses": [{"content": [`+task+`]},
	  {"content": [{"type":"toolCall","id":"l1","name":"ls","arguments":{}}]},
	  {"text": "Nothing much here."}, {"text": "done"}]}`)
	c := dialJSONRPC(t, srv.path)
	c.initialize()
	c.call("agent.query", map[string]any{"message": "look"})
	msgs := c.until(isMethod("stream.complete"))
	var progress []string
	var complete map[string]any
	for _, m := range msgs {
		switch m["method"] {
		case "tool.progress":
			if complete == nil {
				progress = append(progress, params(m)["progress"].(map[string]any)["message"].(string))
			}
		case "tool.complete":
			complete = params(m)
		}
	}
	joined := strings.Join(progress, "\n")
	if !strings.Contains(joined, "explore: look around") || !strings.Contains(joined, "ls") {
		t.Errorf("tool.progress messages = %q", progress)
	}
	if complete == nil || complete["status"] != "success" || complete["result"].(map[string]any)["output"] != "Nothing much here." {
		t.Errorf("tool.complete = %v", complete)
	}
}
