package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// piExamples are pi 0.87.1's example extensions (core/piext/testdata).
var piExamples, _ = filepath.Abs("../../core/piext/testdata/pi-examples")

// helloScript has the faux model call pi's hello example tool, then stop.
const helloScript = `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "hello", "arguments": {"name": "Ann"}}]},
  {"text": "Done."}
]}`

// A pi extension named with -e runs in the pi extension host: the model
// calls its tool, and the result is the extension's.
func TestPiExtensionFromFlag(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, helloScript)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo",
		"-e", filepath.Join(piExamples, "hello.ts"), "-p", "greet Ann")
	if !strings.Contains(r.stdout, `Hello, Ann!`) {
		t.Fatalf("exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// pi's own extensions directory (PI_CODING_AGENT_DIR/extensions) is read
// as pi reads it: its permission gate blocks a dangerous command when
// nobody can be asked.
func TestPiExtensionFromPiDir(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	piDir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(piDir, "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(piExamples, "permission-gate.ts"), filepath.Join(piDir, "extensions", "permission-gate.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir("victim", 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "PI_CODING_AGENT_DIR": piDir,
		"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "rm -rf victim"}}]},
	  {"text": "Done."}
	]}`)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "go")
	if _, err := os.Stat("victim"); err != nil {
		t.Fatalf("the command ran: %v\nstdout %.3000s\nstderr %s", err, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Dangerous command blocked (no UI for confirmation)") {
		t.Fatalf("exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// The project's .pi/extensions run only once the project is trusted.
func TestPiProjectExtensionsNeedTrust(t *testing.T) {
	needProgram(t, "node")
	project := t.TempDir()
	t.Chdir(project)
	if err := os.MkdirAll(filepath.Join(".pi", "extensions"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(piExamples, "hello.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(".pi", "extensions", "hello.ts"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, helloScript)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "greet Ann")
	if strings.Contains(r.stdout, "Hello, Ann!") {
		t.Fatalf("an untrusted project's extension ran:\n%.3000s", r.stdout)
	}
	r = invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "--trust-project", "-p", "greet Ann")
	if !strings.Contains(r.stdout, "Hello, Ann!") {
		t.Fatalf("trusted: exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// pi's appendEntry keeps a custom entry in the session file, in pi's
// format: a later run continuing the session finds it there.
func TestPiAppendEntryInSessionFile(t *testing.T) {
	needProgram(t, "node")
	entries, _ := filepath.Abs("../../core/piext/testdata/api/entries.ts")
	t.Chdir(t.TempDir())
	home := t.TempDir()
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": home,
		"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "Hi."}]}`)}
	if r := invoke(t, vars, nil, "--provider", "faux", "-p", "hi"); r.code != 0 {
		t.Fatalf("first run: exit %d\n%s", r.code, r.stderr)
	}
	if r := invoke(t, vars, nil, "--provider", "faux", "-c", "-e", entries, "-p", "/mark kept"); r.code != 0 {
		t.Fatalf("second run: exit %d\n%s", r.code, r.stderr)
	}
	var found bool
	_ = filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".jsonl") {
			data, _ := os.ReadFile(p)
			found = found || strings.Contains(string(data), `{"type":"custom","customType":"mark","data":{"note":"kept"},"id":`)
		}
		return nil
	})
	if !found {
		t.Error("no custom entry in the session file")
	}
}

// `cairn install npm:NAME` installs the package with npm into ~/.cairn/npm
// and adds it to "packages"; a session then runs its extension. The
// package is the test fixture, packed by npm and installed offline from
// its tarball (NAME@file:...), as a registry package would be.
func TestPiInstallPackage(t *testing.T) {
	needProgram(t, "node")
	needProgram(t, "npm")
	fixture, _ := filepath.Abs("../../core/piext/testdata/packages/pi-hello-pkg")
	work := t.TempDir()
	pack := exec.Command("npm", "pack", fixture, "--pack-destination", work)
	pack.Dir = work
	if out, err := pack.CombinedOutput(); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	t.Chdir(t.TempDir())
	home := t.TempDir()
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": home}
	getenv := func(k string) string { return vars[k] }
	var out, errb strings.Builder
	source := "npm:pi-hello-pkg@file:" + filepath.Join(work, "pi-hello-pkg-1.0.0.tgz")
	if code := installCommand(t.Context(), []string{source}, IOStreams{Out: &out, Err: &errb}, getenv); code != 0 {
		t.Fatalf("install: %d\n%s%s", code, out.String(), errb.String())
	}
	data, err := os.ReadFile(filepath.Join(home, "settings.json"))
	if err != nil || !strings.Contains(string(data), `"npm:pi-hello-pkg@file:`) {
		t.Fatalf("settings: %s %v", data, err)
	}
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "pkg_greet", "arguments": {"name": "Ann"}}]},
	  {"text": "Done."}
	]}`)
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "greet")
	if !strings.Contains(r.stdout, "Hello from a package, Ann!") {
		t.Fatalf("exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// `cairn ext list` shows the pi extension host and each pi extension in
// it, with what it registered, and a broken one with why (and fails).
func TestPiExtList(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	piDir := t.TempDir()
	exts := filepath.Join(piDir, "extensions")
	if err := os.MkdirAll(filepath.Join(exts, "helpers"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(piExamples, "todo.ts"), filepath.Join(exts, "todo.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(exts, "broken.ts"), []byte(`export default function () { throw new Error("no config file") }`), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "PI_CODING_AGENT_DIR": piDir}
	r := invoke(t, vars, nil, "ext", "list", "--timeout", "30")
	for _, want := range []string{
		"pi (user, ",
		"pi:broken (user, " + filepath.Join(exts, "broken.ts") + "): failed\n  Failed to load extension: no config file",
		"pi:todo (user, " + filepath.Join(exts, "todo.ts") + "): ready\n  tool todo: Manage a todo list",
		"  command /todos: Show all todos on the current branch",
		"pi:helpers (user, " + filepath.Join(exts, "helpers") + "): failed\n",
		`has no index.ts, index.js or package.json "pi.extensions"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("ext list lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code == 0 {
		t.Errorf("ext list succeeded with broken extensions:\n%s", r.stdout)
	}
}
