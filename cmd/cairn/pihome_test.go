package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoTerminalAnswersAsPrint: as pi does, a prompt on the command line
// with standard input or output not a terminal is answered as with -p.
func TestNoTerminalAnswersAsPrint(t *testing.T) {
	vars := textScript(t)
	var out, errb bytes.Buffer
	streams := IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb, InIsTerminal: true, OutIsTerminal: false}
	code := run(context.Background(), []string{"--provider", "faux", "--no-session", "hello"}, streams, func(k string) string {
		if k == "CAIRN_DIR" {
			return t.TempDir()
		}
		return vars[k]
	})
	if code != 0 || strings.TrimSpace(out.String()) != "ok" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// TestModeJSONTakesAPrompt: pi's documented `--mode json "prompt"`.
func TestModeJSONTakesAPrompt(t *testing.T) {
	r := invoke(t, textScript(t), nil, "--provider", "faux", "--no-session", "--mode", "json", "hello")
	if r.code != 0 || !strings.Contains(r.stdout, `"type":"agent_end"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}

// TestPiCommandsAreRefused: `cairn install npm:x` is pi's package command,
// not a prompt; it is refused, saying why and how to send the words.
func TestPiCommandsAreRefused(t *testing.T) {
	for name := range piCommands {
		r := invoke(t, textScript(t), nil, name, "x")
		if r.code != exitUsage || !strings.Contains(r.stderr, "`pi "+name+"` is a pi command") || !strings.Contains(r.stderr, "cairn -p -- "+name) {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
	r := invoke(t, textScript(t), nil, "--provider", "faux", "--no-session", "-p", "--", "list", "files")
	if r.code != 0 {
		t.Errorf("-p -- list files: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestPiHomeOnly: with pi's home and no ~/.cairn, a run uses pi's default
// model, pi's prompt templates and pi's session directory.
func TestPiHomeOnly(t *testing.T) {
	home := t.TempDir()
	piDir := filepath.Join(home, ".pi", "agent")
	for path, text := range map[string]string{
		"settings.json":  `{"defaultProvider": "faux", "defaultModel": "faux-1"}`,
		"prompts/is.md":  "---\ndescription: issue\n---\nLook at issue $1 closely.\n",
		"sessions/.keep": "",
	} {
		p := filepath.Join(piDir, path)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vars := textScript(t)
	vars["HOME"] = home
	vars["CAIRN_DIR"] = ""
	project := t.TempDir()
	t.Chdir(project)
	stdin := `{"id":"s","type":"get_state"}` + "\n" + `{"id":"p","type":"prompt","message":"/is 1234"}` + "\n" + `{"id":"m","type":"get_messages"}` + "\n"
	r := invoke(t, vars, &stdin, "--mode", "rpc")
	if r.code != 0 || !strings.Contains(r.stdout, `"provider":"faux"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "Look at issue 1234 closely.") {
		t.Errorf("pi's prompt template /is was not expanded:\n%s", r.stdout)
	}
	files, _ := filepath.Glob(filepath.Join(piDir, "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Errorf("the session went to %v, want one file in pi's session directory", files)
	}
	if _, err := os.Stat(filepath.Join(home, ".cairn", "sessions")); err == nil {
		t.Error("cairn made ~/.cairn/sessions on a machine with pi's home only")
	}
}
