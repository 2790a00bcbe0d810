package acp

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOfficialClientExtensions drives a built cairn with the official ACP
// SDK and the three example extensions (docs/examples/extensions): an
// extension's select and confirm become session/request_permission, its
// status (which ACP has no place for) a notice, its tool answers, and the
// Node gate blocks rm -rf when the editor picks Block.
func TestOfficialClientExtensions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds cairn and runs node")
	}
	node, dir := needNode(t)
	if _, err := exec.LookPath("python3"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("python3 is needed in CI")
		}
		t.Skip("python3 is not installed")
	}
	bin := buildCairn(t)
	home := t.TempDir()
	ext := filepath.Join(home, "extensions")
	examples, _ := filepath.Abs("../../docs/examples/extensions")
	if err := os.MkdirAll(filepath.Join(ext, "wordcount"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("go", "build", "-o", filepath.Join(ext, "wordcount", "wordcount"), "github.com/cairn-dev/cairn/docs/examples/extensions/wordcount").CombinedOutput(); err != nil {
		t.Fatalf("build wordcount: %v\n%s", err, out)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(ext, "wordcount", "extension.json"), []byte(`{"command":"./wordcount"}`), 0o644))
	must(os.Symlink(filepath.Join(examples, "greet.py"), filepath.Join(ext, "greet.py")))
	must(os.Symlink(filepath.Join(examples, "guard.mjs"), filepath.Join(ext, "guard.mjs")))
	project := t.TempDir()
	must(os.Mkdir(filepath.Join(project, "victim"), 0o755))
	call := func(id, name string, args map[string]any) map[string]any {
		return map[string]any{"content": []any{map[string]any{"type": "toolCall", "id": id, "name": name, "arguments": args}}}
	}
	script, _ := json.Marshal(map[string]any{"responses": []any{
		call("call_wc", "word_count", map[string]any{"text": "one two three"}),
		map[string]any{"text": "counted"},
		call("call_rm", "bash", map[string]any{"command": "rm -rf victim"}),
		map[string]any{"text": "blocked"},
	}})
	scriptFile := filepath.Join(t.TempDir(), "script.json")
	must(os.WriteFile(scriptFile, script, 0o644))
	cmd := exec.Command(node, filepath.Join(dir, "extensions.mjs"), bin, project)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_DIR="+home, "CAIRN_FAUX_SCRIPT="+scriptFile)
	cmd.WaitDelay = 5 * time.Second
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("extensions.mjs: %v\nstdout: %s\nstderr:\n%s", err, out, stderr.String())
	}
	var seen struct {
		Commands                []string
		Greet, Count, Clean, Rm string
		GreetText               string
		WordCount, RmText       string
		Asked                   []struct {
			Title   string
			Options []string
		}
	}
	if err := json.Unmarshal(out, &seen); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if !strings.Contains(strings.Join(seen.Commands, ","), "greet") {
		t.Errorf("commands = %v", seen.Commands)
	}
	if seen.Greet != "end_turn" || !strings.Contains(seen.GreetText, "greeted ann with Ahoy") {
		t.Errorf("/greet: %s, %q", seen.Greet, seen.GreetText)
	}
	if !strings.Contains(seen.WordCount, "3 words, 1 lines") {
		t.Errorf("word_count: %q", seen.WordCount)
	}
	if seen.Rm != "failed" || !strings.Contains(seen.RmText, "Blocked by user") {
		t.Errorf("rm: %s, %q", seen.Rm, seen.RmText)
	}
	if _, err := os.Stat(filepath.Join(project, "victim")); err != nil {
		t.Errorf("rm ran: %v", err)
	}
	if len(seen.Asked) > 0 && !strings.HasPrefix(seen.Asked[0].Title, "Extension greet: ") {
		t.Errorf("the dialog does not name the extension that opened it: %q", seen.Asked[0].Title)
	}
	if len(seen.Asked) != 3 || strings.Join(seen.Asked[0].Options, ",") != "Hello:allow_once,Good morning:allow_once,Ahoy:allow_once" ||
		strings.Join(seen.Asked[1].Options, ",") != "yes:allow_once,no:reject_once" {
		t.Errorf("asked: %+v", seen.Asked)
	}
	if t.Failed() {
		t.Logf("stdout: %s\nstderr:\n%s", out, stderr.String())
	}
}
