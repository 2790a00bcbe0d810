package acp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildCairn builds the cairn binary into a temporary directory.
func buildCairn(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cairn")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/cairn-dev/cairn/cmd/cairn").CombinedOutput()
	if err != nil {
		t.Fatalf("build cairn: %v\n%s", err, out)
	}
	return bin
}

// checker returns a check that reports, by name, a value the client saw
// that is not the one wanted.
func checker(t *testing.T) func(what string, got, want any) {
	return func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %#v, want %#v", what, got, want)
		}
	}
}

// needNode returns the node binary and the client's directory, or skips
// (fails under CI) when node or the client's node_modules is missing.
func needNode(t *testing.T) (string, string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "acpclient"))
	if err != nil {
		t.Fatal(err)
	}
	skip := func(why string) {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s (CI is set, so this fails instead of skipping)", why)
		}
		t.Skip(why)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node is not installed; the official ACP client needs it")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk")); err != nil {
		skip("the ACP client's packages are not installed: run npm ci --prefix rpcmode/acp/testdata/acpclient --ignore-scripts --no-audit --no-fund")
	}
	return node, dir
}

// TestOfficialClient drives a built cairn with the official ACP TypeScript
// SDK (@agentclientprotocol/sdk 2.4.0): initialize, a new session, a text
// turn, edits allowed once, rejected and allowed always, a cancel while a
// permission request waits, a mode change, a cancel while a tool runs, and
// a load that replays the history.
func TestOfficialClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	bin := buildCairn(t)
	project := t.TempDir()
	for name, text := range map[string]string{"a.txt": "one\n", "b.txt": "bee\n"} {
		if err := os.WriteFile(filepath.Join(project, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(id, oldText, newText string) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": id, "name": "edit",
			"arguments": map[string]any{"path": "a.txt", "edits": []any{map[string]string{"oldText": oldText, "newText": newText}}}}}}
	}
	text := func(s string) map[string]any { return map[string]any{"text": s} }
	script, _ := json.Marshal(map[string]any{"responses": []any{
		text("Hello from cairn."),
		edit("call_1", "one", "two"), text("edited"),
		edit("call_2", "two", "three"), text("left alone"),
		edit("call_3", "two", "three"), text("edited"),
		edit("call_4", "three", "four"), text("edited again"),
		map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": "call_6", "name": "edit",
			"arguments": map[string]any{"path": "b.txt", "edits": []any{map[string]string{"oldText": "bee", "newText": "wasp"}}}}}},
		map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": "call_5", "name": "bash",
			"arguments": map[string]any{"command": "echo started; sleep 30"}}}},
	}})
	out := runClientScript(t, node, dir, "client.mjs", bin, project, script)
	var seen struct {
		AgentName      string            `json:"agentName"`
		Modes          []string          `json:"modes"`
		ConfigOptions  []string          `json:"configOptions"`
		Text           string            `json:"text"`
		AllowOnce      []string          `json:"allowOnce"`
		Diff           map[string]string `json:"diff"`
		AfterAllow     string            `json:"afterAllow"`
		RejectOnce     []string          `json:"rejectOnce"`
		AfterReject    string            `json:"afterReject"`
		AskedForAlways []string          `json:"askedForAlways"`
		AfterAlways    string            `json:"afterAlways"`
		CancelPermStop string            `json:"cancelPermissionStop"`
		CancelPerm     []string          `json:"cancelPermissionStatuses"`
		AfterCancel    string            `json:"afterCancelPermission"`
		ModeUpdate     string            `json:"modeUpdate"`
		CancelStop     string            `json:"cancelStop"`
		CancelStatuses []string          `json:"cancelStatuses"`
		ReplayKinds    []string          `json:"replayKinds"`
		ReplayUser     []string          `json:"replayUser"`
		UnknownLoad    any               `json:"unknownLoad"`
		ExitCode       int               `json:"exitCode"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	check := checker(t)
	check("agent name", seen.AgentName, "cairn")
	check("modes", seen.Modes, []string{"default", "auto_edit", "plan", "yolo"})
	check("config options", seen.ConfigOptions, []string{"mode", "model", "thought_level"})
	check("text", seen.Text, "Hello from cairn.")
	check("allow once statuses", seen.AllowOnce, []string{"pending", "in_progress", "completed"})
	check("diff", seen.Diff, map[string]string{"type": "diff", "path": filepath.Join(project, "a.txt"), "oldText": "one", "newText": "two"})
	check("file after allow", seen.AfterAllow, "two\n")
	check("reject once statuses", seen.RejectOnce, []string{"pending", "failed"})
	check("file after reject", seen.AfterReject, "two\n")
	check("calls asked about after allow always", seen.AskedForAlways, []string{"call_3"})
	check("file after allow always", seen.AfterAlways, "four\n")
	check("stop reason when cancelled during a permission request", seen.CancelPermStop, "cancelled")
	check("statuses of the call cancelled during its permission request", seen.CancelPerm, []string{"pending", "failed"})
	check("file after the cancelled edit", seen.AfterCancel, "bee\n")
	check("mode update", seen.ModeUpdate, "yolo")
	check("cancel stop reason", seen.CancelStop, "cancelled")
	if n := len(seen.CancelStatuses); n < 3 || seen.CancelStatuses[0] != "pending" || !slices.Contains(seen.CancelStatuses, "in_progress") || seen.CancelStatuses[n-1] != "failed" {
		t.Errorf("cancelled call statuses = %v, want pending, in_progress…, failed", seen.CancelStatuses)
	}
	check("replayed kinds", seen.ReplayKinds, []string{"agent_message_chunk", "tool_call", "tool_call_update", "user_message_chunk"})
	check("replayed user text", seen.ReplayUser, []string{"hello", "edit once", "edit rejected", "edit always", "edit again", "edit b", "run something slow"})
	check("unknown load", seen.UnknownLoad, float64(CodeResourceNotFound))
	check("exit code", seen.ExitCode, 0)
}

// runClientScript runs a node script of testdata/acpclient against the
// cairn binary in project, with the faux model's script, and returns its
// stdout (one JSON line).
func runClientScript(t *testing.T, node, dir, name, bin, project string, script []byte, args ...string) []byte {
	t.Helper()
	return runClientScriptIn(t, node, dir, name, bin, project, t.TempDir(), script, args...)
}

// runClientScriptIn is runClientScript with cairnDir as CAIRN_DIR; args
// follow the project on the script's command line.
func runClientScriptIn(t *testing.T, node, dir, name, bin, project, cairnDir string, script []byte, args ...string) []byte {
	t.Helper()
	scriptFile := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(scriptFile, script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, append([]string{filepath.Join(dir, name), bin, project}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_DIR="+cairnDir, "CAIRN_FAUX_SCRIPT="+scriptFile)
	var stderr limitedBuffer
	cmd.Stderr = &stderr
	done := make(chan struct{})
	var out []byte
	var err error
	go func() {
		out, err = cmd.Output()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not finish within 90s; stderr:\n%s", name, stderr.String())
	}
	if err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr:\n%s", name, err, out, stderr.String())
	}
	return out
}

// TestOfficialClientDelegation drives a built cairn with the official SDK
// as an editor offering its files and terminals: the edit reads the
// editor's unsaved buffer and writes through it, the write goes to the
// editor, the command runs in the editor's terminal, and the disk is not
// touched by cairn.
func TestOfficialClientDelegation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	bin := buildCairn(t)
	project := t.TempDir()
	if err := os.WriteFile(filepath.Join(project, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	call := func(id, name string, args map[string]any) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}}}
	}
	script, _ := json.Marshal(map[string]any{"responses": []any{
		call("call_1", "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]string{"oldText": "unsaved", "newText": "saved by cairn"}}}),
		call("call_2", "write", map[string]any{"path": "sub/c.txt", "content": "new\n"}),
		call("call_3", "bash", map[string]any{"command": "echo from the editor's terminal; exit 3"}),
		map[string]any{"text": "done"},
	}})
	out := runClientScript(t, node, dir, "delegate.mjs", bin, project, script)
	var seen struct {
		StopReason      string            `json:"stopReason"`
		Calls           []string          `json:"calls"`
		Buffers         map[string]string `json:"buffers"`
		TerminalContent []string          `json:"terminalContent"`
		FinalStatus     string            `json:"finalStatus"`
		ExitCode        int               `json:"exitCode"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	a, c := filepath.Join(project, "a.txt"), filepath.Join(project, "sub", "c.txt")
	if seen.StopReason != "end_turn" || seen.ExitCode != 0 {
		t.Errorf("stop reason %q, exit code %d", seen.StopReason, seen.ExitCode)
	}
	if len(seen.Calls) != 5 || seen.Calls[0] != "read "+a || seen.Calls[1] != "write "+a || seen.Calls[2] != "write "+c ||
		!strings.HasSuffix(seen.Calls[3], " -c echo from the editor's terminal; exit 3") || seen.Calls[4] != "release term-1" {
		t.Errorf("the editor was called for %q", seen.Calls)
	}
	if seen.Buffers[a] != "one\nsaved by cairn\n" || seen.Buffers[c] != "new\n" {
		t.Errorf("the editor's buffers: %q", seen.Buffers)
	}
	if !reflect.DeepEqual(seen.TerminalContent, []string{"term-1", "term-1"}) || seen.FinalStatus != "failed" {
		t.Errorf("terminal content %q, final status %q", seen.TerminalContent, seen.FinalStatus)
	}
	if got := readFile(t, a); got != "one\n" {
		t.Errorf("a.txt on disk = %q; the editor's buffer is not saved by cairn", got)
	}
	if _, err := os.Stat(c); !os.IsNotExist(err) {
		t.Errorf("sub/c.txt exists on disk (stat %v); only the editor holds it", err)
	}
}

// limitedBuffer keeps the first 64 KiB written to it.
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (l *limitedBuffer) String() string { return string(l.b) }

// TestOfficialClientThreads drives a built cairn with the official SDK as
// an editor with many threads on one connection: a thread run and closed,
// then two threads in two directories prompting at once (both waiting for
// a permission together), a load of the closed third while both run, a
// cancel in one that leaves the other running, and a list of every
// directory's sessions.
func TestOfficialClientThreads(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	bin := buildCairn(t)
	project, other := t.TempDir(), t.TempDir()
	for d, marker := range map[string]string{project: "in the project\n", other: "in the other directory\n"} {
		if err := os.WriteFile(filepath.Join(d, "marker.txt"), []byte(marker), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script, _ := json.Marshal(map[string]any{"responses": []any{
		map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": "call_cat", "name": "bash",
			"arguments": map[string]any{"command": "cat marker.txt"}}}},
		map[string]any{"text": "done"},
	}})
	out := runClientScript(t, node, dir, "threads.mjs", bin, project, script, other)
	var seen struct {
		Close       bool     `json:"close"`
		Distinct    bool     `json:"distinct"`
		COutput     string   `json:"cOutput"`
		BothAsked   []bool   `json:"bothAsked"`
		LoadedThird []string `json:"loadedThird"`
		AStop       string   `json:"aStop"`
		BStop       string   `json:"bStop"`
		BOutput     string   `json:"bOutput"`
		A2Stop      string   `json:"a2Stop"`
		ListedCwds  []string `json:"listedCwds"`
		ExitCode    int      `json:"exitCode"`
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("client output %q: %v", out, err)
	}
	check := checker(t)
	check("session/close offered", seen.Close, true)
	check("three distinct sessions", seen.Distinct, true)
	check("the third thread's output (project)", strings.TrimSpace(seen.COutput), "in the project")
	check("both asked at once", seen.BothAsked, []bool{true, true})
	check("the third thread's replay", seen.LoadedThird, []string{"third thread"})
	check("the cancelled thread's stop", seen.AStop, "cancelled")
	check("the other thread's stop", seen.BStop, "end_turn")
	check("the other thread's output (its own directory)", strings.TrimSpace(seen.BOutput), "in the other directory")
	check("the cancelled thread's next turn", seen.A2Stop, "end_turn")
	want := []string{project, other}
	slices.Sort(want)
	check("listed directories", seen.ListedCwds, want)
	check("exit code", seen.ExitCode, 0)
}
