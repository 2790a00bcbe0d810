package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// extExamples is where the example extensions live (absolute: tests
// change directory).
var extExamples, _ = filepath.Abs("../../docs/examples/extensions")

// needProgram skips when a language's program is missing, except in CI.
func needProgram(t *testing.T, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is needed in CI: %v", name, err)
		}
		t.Skipf("%s is not installed", name)
	}
}

// extHome is a cairn directory whose extensions directory holds the
// example files named, and a working directory of its own.
func extHome(t *testing.T, files ...string) map[string]string {
	t.Helper()
	t.Chdir(t.TempDir())
	home := t.TempDir()
	dir := filepath.Join(home, "extensions")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		src, err := filepath.Abs(filepath.Join(extExamples, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(src, filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	return map[string]string{"CAIRN_DIR": home, "PATH": os.Getenv("PATH"), "HOME": os.Getenv("HOME")}
}

// In print mode a dialog fails at once with the typed error: /greet's
// select is refused and the command says so.
func TestPrintExtensionDialogFailsFast(t *testing.T) {
	needProgram(t, "python3")
	vars := extHome(t, "greet.py")
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "not asked"}]}`)
	r := invoke(t, vars, nil, "--no-session", "--provider", "faux", "-p", "/greet")
	if !strings.Contains(r.stderr, "no UI in this mode") || strings.Contains(r.stdout, "not asked") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// The Node gate blocks a dangerous command in print mode (nobody to
// ask) and lets a harmless one run.
func TestPrintExtensionGateBlocksRm(t *testing.T) {
	needProgram(t, "node")
	vars := extHome(t, "guard.mjs")
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "rm -rf victim"}}]},
	  {"text": "Done."}
	]}`)
	if err := os.Mkdir("victim", 0o755); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "go")
	if _, err := os.Stat("victim"); err != nil {
		t.Fatalf("the command ran: %v", err)
	}
	if !strings.Contains(r.stdout, `Dangerous command blocked (no UI to ask)`) {
		t.Fatalf("exit %d\nstdout %.4000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	// --no-extensions: no gate.
	r = invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "--no-extensions", "-p", "go")
	if _, err := os.Stat("victim"); err == nil {
		t.Fatalf("--no-extensions still ran the gate\nstdout %.3000s", r.stdout)
	}
}

// The Go tool is offered to the model and its result comes back.
func TestPrintExtensionTool(t *testing.T) {
	home := extHome(t)
	installWordcount(t, home["CAIRN_DIR"])
	home["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "word_count", "arguments": {"text": "a b c"}}]},
	  {"text": "Done."}
	]}`)
	r := invoke(t, home, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "count")
	if !strings.Contains(r.stdout, `"text":"3 words, 1 lines"`) {
		t.Fatalf("exit %d\nstdout %.4000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// A project's extensions run only once the project is trusted.
func TestProjectExtensionsNeedTrust(t *testing.T) {
	needProgram(t, "node")
	vars := extHome(t)
	if err := os.MkdirAll(".cairn/extensions", 0o755); err != nil {
		t.Fatal(err)
	}
	src, _ := filepath.Abs(filepath.Join(extExamples, "guard.mjs"))
	if err := os.Symlink(src, ".cairn/extensions/guard.mjs"); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, vars, nil, "ext", "list")
	if r.code != exitOK || strings.Contains(r.stdout, "guard") || !strings.Contains(r.stdout, "not trusted") {
		t.Fatalf("untrusted: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = invoke(t, vars, nil, "ext", "list", "--trust-project")
	if r.code != exitOK || !strings.Contains(r.stdout, "guard (project") || !strings.Contains(r.stdout, "ready") || !strings.Contains(r.stdout, "events: tool_call") {
		t.Fatalf("trusted: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// Extensions start beside the session: rpc answers while one never
// finishes starting (it never answers initialize), and the extension is
// stopped when the input ends.
func TestRPCDoesNotWaitForExtensions(t *testing.T) {
	vars := extHome(t)
	script := filepath.Join(vars["CAIRN_DIR"], "extensions", "mute")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec cat >/dev/null\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "unused"}]}`)
	in := `{"id":"1","type":"get_state"}` + "\n" + `{"id":"2","type":"get_commands"}` + "\n"
	r := invoke(t, vars, &in, "--mode", "rpc", "--no-session", "--provider", "faux")
	if r.code != exitOK || !strings.Contains(r.stdout, `"id":"1","type":"response","command":"get_state","success":true`) ||
		!strings.Contains(r.stdout, `"command":"get_commands","success":true,"data":{"commands":[]}`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// An extension's tool is approved like any other: print mode, with
// nobody to ask, refuses it in the default approval mode.
func TestPrintExtensionToolNeedsApproval(t *testing.T) {
	home := extHome(t)
	installWordcount(t, home["CAIRN_DIR"])
	home["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "word_count", "arguments": {"text": "a b c"}}]},
	  {"text": "Done."}
	]}`)
	r := invoke(t, home, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "default", "-p", "count")
	if strings.Contains(r.stdout, `3 words, 1 lines`) || !strings.Contains(r.stdout, `"toolName":"word_count"`) || !strings.Contains(r.stdout, `"isError":true`) {
		t.Fatalf("exit %d\nstdout %.4000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// installWordcount builds the Go example into cairnDir's extensions.
func installWordcount(t *testing.T, cairnDir string) {
	t.Helper()
	dir := filepath.Join(cairnDir, "extensions", "wordcount")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "wordcount"), ".")
	build.Dir = filepath.Join(extExamples, "wordcount")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "extension.json"), []byte(`{"command":"./wordcount"}`), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An extension that crashes mid-call: the call fails with the last lines
// of its stderr, the run goes on to its answer, and the crash is told
// once.
func TestPrintExtensionCrashMidCall(t *testing.T) {
	vars := extHome(t)
	script := "#!/bin/sh\nread line\n" +
		`echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1,"tools":[{"name":"boom","description":"Crashes.","parameters":{"type":"object"}}]}}'` +
		"\nread line\necho 'fatal: out of cheese' >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(vars["CAIRN_DIR"], "extensions", "crasher"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "boom", "arguments": {}}]},
	  {"text": "Still here."}
	]}`)
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "go")
	if r.code != exitOK || !strings.Contains(r.stdout, `out of cheese`) || !strings.Contains(r.stdout, `exit status 3`) ||
		!strings.Contains(r.stdout, `"isError":true`) || !strings.Contains(r.stdout, `Still here.`) {
		t.Fatalf("exit %d\nstdout %.4000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stdout+r.stderr, `extension \"crasher\" stopped`) + strings.Count(r.stderr, `extension "crasher" stopped`); n != 1 {
		t.Errorf("the crash is told %d times\nstdout %.4000s\nstderr %s", n, r.stdout, r.stderr)
	}
}
