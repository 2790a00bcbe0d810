package piext

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// subagent: the tool runs "the agent it runs in" again, with pi's command
// line, for the named agent (from ~/.pi/agent/agents) and answers with that
// agent's last message. Here the agent run is a stand-in that records its
// arguments and prints one assistant message in pi's json mode; that cairn
// itself answers is cmd/cairn's TestPiSubagentRunsCairn.
func driveSubagent(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	agents := filepath.Join(home, ".pi", "agent", "agents")
	if err := os.MkdirAll(agents, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := "---\nname: scout\ndescription: Looks around\ntools: read, ls\n---\n\nYou are a scout.\n"
	if err := os.WriteFile(filepath.Join(agents, "scout.md"), []byte(agent), 0o600); err != nil {
		t.Fatal(err)
	}
	argsFile := filepath.Join(dir, "args")
	cli := filepath.Join(dir, "cairn")
	msg := `{"type":"message_end","message":{"role":"assistant","content":[{"type":"text","text":"scouted: three files"}],"stopReason":"stop","usage":{"input":3,"output":4}}}`
	script := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\n' \"$@\" > '%s'\necho '%s'\n", argsFile, msg)
	if err := os.WriteFile(cli, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	h := startHostIn(t, dir, map[string]string{"HOME": home, "CAIRN_PI_CLI": cli}, "print", "subagent")
	if got := text(h.tool(t, "subagent", `{"agent": "scout", "task": "what is here?"}`)); !strings.Contains(got, "scouted: three files") {
		t.Errorf("subagent answered %q", got)
	}
	data, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatalf("the agent was not run: %v", err)
	}
	args := strings.Split(strings.TrimSpace(string(data)), "\n")
	want := []string{"--mode", "json", "-p", "--no-session"}
	if len(args) < len(want) || strings.Join(args[:len(want)], " ") != strings.Join(want, " ") || args[len(args)-1] != "Task: what is here?" {
		t.Errorf("the agent ran with %q", args)
	}
	if !strings.Contains(string(data), "--tools\nread,ls\n") {
		t.Errorf("the agent's tools were not passed: %q", args)
	}
}

// truncated-tool: its rg tool runs ripgrep and keeps the first 50 KB or
// 2000 lines of what it finds (here the bytes run out first), saying where the whole output is.
func driveTruncatedTool(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("ripgrep is needed in CI: %v", err)
		}
		t.Skip("ripgrep (rg) is not installed")
	}
	dir := t.TempDir()
	var many strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&many, "needle %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "many.txt"), []byte(many.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "one.txt"), []byte("hay\nlone pin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostIn(t, dir, nil, "print", "truncated-tool.ts")
	if got := text(h.tool(t, "rg", `{"pattern": "pin"}`)); got != "./one.txt:2:lone pin\n" {
		t.Errorf("one match: %q", got)
	}
	if got := text(h.tool(t, "rg", `{"pattern": "absent-word"}`)); got != "No matches found" {
		t.Errorf("no match: %q", got)
	}
	got := text(h.tool(t, "rg", `{"pattern": "needle"}`))
	i := strings.Index(got, "Full output saved to: ")
	if !strings.Contains(got, "[Output truncated: showing ") || !strings.Contains(got, "(50.0KB of ") || i < 0 {
		t.Fatalf("truncated: %.300s ... %.300s", got, got[max(0, len(got)-300):])
	}
	full := strings.TrimSuffix(got[i+len("Full output saved to: "):], "]")
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(full)) })
	if data, err := os.ReadFile(full); err != nil || strings.Count(string(data), "needle") != 3000 {
		t.Errorf("full output %s: %d needles, %v", full, strings.Count(string(data), "needle"), err)
	}
}
