package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// TestPiCommandsAreRefused: `cairn remove npm:x` is pi's package command,
// not a prompt; it is refused, saying why and how to send the words.
func TestPiCommandsAreRefused(t *testing.T) {
	for name := range piCommands {
		r := invoke(t, textScript(t), nil, name, "x")
		if r.code != exitUsage || !strings.Contains(r.stderr, "`pi "+name+"` is a pi command") || !strings.Contains(r.stderr, `cairn -p -- "`+name) {
			t.Errorf("%s: exit %d, stderr %q", name, r.code, r.stderr)
		}
	}
	r := invoke(t, textScript(t), nil, "--provider", "faux", "--no-session", "-p", "--", "list files")
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
	// The host waits for each answer, as stdin's end stops what runs.
	c, _ := startChildWith(t, vars, "--mode", "rpc")
	c.send(`{"id":"s","type":"get_state"}`)
	if _, st := c.until("get_state", "s"); !strings.Contains(fmt.Sprint(st), "provider:faux") {
		t.Fatalf("get_state does not name pi's default provider: %v", st)
	}
	c.send(`{"id":"p","type":"prompt","message":"/is 1234"}`)
	for f := c.next(30 * time.Second); f.str("type") != "agent_settled"; f = c.next(30 * time.Second) {
	}
	c.send(`{"id":"m","type":"get_messages"}`)
	if _, m := c.until("get_messages", "m"); !strings.Contains(fmt.Sprint(m), "Look at issue 1234 closely.") {
		t.Errorf("pi's prompt template /is was not expanded: %v", m)
	}
	c.in.Close()
	c.waitExit(15 * time.Second)
	files, _ := filepath.Glob(filepath.Join(piDir, "sessions", "*", "*.jsonl"))
	if len(files) != 1 {
		t.Errorf("the session went to %v, want one file in pi's session directory", files)
	}
	if _, err := os.Stat(filepath.Join(home, ".cairn", "sessions")); err == nil {
		t.Error("cairn made ~/.cairn/sessions on a machine with pi's home only")
	}
}

// piSessionID is the id of the session pi 0.73.1 wrote in
// core/session/testdata/pi-0.73.1.jsonl.
const piSessionID = "01a1fcd0-2376-7724-a311-717804497f2d"

// piSessionFixture is that file (absolute: tests change directory).
var piSessionFixture, _ = filepath.Abs("../../core/session/testdata/pi-0.73.1.jsonl")

// withPiSession makes a HOME whose pi session directory holds pi's own
// session file, moved to project, and returns its variables.
func withPiSession(t *testing.T, project string) map[string]string {
	t.Helper()
	home := t.TempDir()
	data, err := os.ReadFile(piSessionFixture)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte(`"cwd":"/tmp/pi/work"`), []byte(`"cwd":`+strconvQuote(project)), 1)
	dir := filepath.Join(home, ".pi", "agent", "sessions", "--"+strings.ReplaceAll(strings.TrimPrefix(project, "/"), "/", "-")+"--")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "2026-11-21T06-34-21-432Z_"+piSessionID+".jsonl"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, "cairn-own"), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPiSessionsAreFound: with cairn's own directory elsewhere, ACP's
// session/list and --session ID-PREFIX find the session pi wrote.
func TestPiSessionsAreFound(t *testing.T) {
	project := t.TempDir()
	t.Chdir(project)
	vars := withPiSession(t, project)
	d := startACP(t, vars)
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	d.send(2, "session/list", map[string]any{"cwd": project})
	if got := fmt.Sprint(d.await(t, 2)["result"]); !strings.Contains(got, piSessionID) {
		t.Errorf("session/list does not show pi's session: %s", got)
	}
	d.finish(t)

	stdin := `{"id":"s","type":"get_state"}` + "\n"
	r := invoke(t, vars, &stdin, "--provider", "faux", "--mode", "rpc", "--session", "01a1fcd0")
	if r.code != 0 || !strings.Contains(r.stdout, `"sessionId":"`+piSessionID+`"`) {
		t.Fatalf("--session with the start of pi's session id: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestAtFileGoesBeforeThePrompt: pi's `@file` puts the file before the
// prompt, in the form pi 0.87.1 sends (checked against pi itself:
// `pi --mode json @f.md hi` sends the same user text).
func TestAtFileGoesBeforeThePrompt(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("f.md", []byte("file body\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("empty.md", nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := ""
	r := invoke(t, textScript(t), &empty, "--provider", "faux", "--no-session", "--mode", "json", "@f.md", "@empty.md", "hi")
	abs, _ := filepath.Abs("f.md")
	want, _ := json.Marshal("<file name=\"" + abs + "\">\nfile body\n\n</file>\nhi")
	if r.code != 0 || !strings.Contains(r.stdout, `"role":"user","content":[{"type":"text","text":`+string(want)) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	r = invoke(t, textScript(t), &empty, "--provider", "faux", "--no-session", "-p", "@missing.md", "hi")
	if r.code == 0 || !strings.Contains(r.stderr, "@missing.md") {
		t.Fatalf("a missing @file: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestPiKeysAreProtected: pi's auth.json holds keys as cairn's models.json
// does; a model's read of it is asked about, so a run with nobody to ask
// refuses it.
func TestPiKeysAreProtected(t *testing.T) {
	home := t.TempDir()
	piDir := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(piDir, 0o700); err != nil {
		t.Fatal(err)
	}
	auth := filepath.Join(piDir, "auth.json")
	if err := os.WriteFile(auth, []byte(`{"openai": {"type": "api_key", "key": "sk-secret-pi-key"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	script := writeScript(t, `{"responses": [{"content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": `+strconvQuote(auth)+`}}]}, {"text": "done"}]}`)
	r := invoke(t, map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, "own"), "CAIRN_FAUX_SCRIPT": script}, nil,
		"--provider", "faux", "--no-session", "--mode", "json", "--approval", "auto_edit", "read it")
	if strings.Contains(r.stdout, "sk-secret-pi-key") {
		t.Fatalf("the model read pi's key:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, `"toolName":"read"`) {
		t.Fatalf("no read call was made: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// TestListModelsNamesNoKeyForAnUnsetVariable: pi's models.json naming its
// key "$CROFAI_API_KEY" has a key only while the variable is set.
func TestListModelsNamesNoKeyForAnUnsetVariable(t *testing.T) {
	home := t.TempDir()
	piDir := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(piDir, 0o755); err != nil {
		t.Fatal(err)
	}
	models := `{"providers": {"crof": {"baseUrl": "https://crof.example/v1", "api": "openai-completions", "apiKey": "$CROFAI_API_KEY", "models": [{"id": "crof-m"}]}}}`
	if err := os.WriteFile(filepath.Join(piDir, "models.json"), []byte(models), 0o644); err != nil {
		t.Fatal(err)
	}
	row := func(vars map[string]string) string {
		r := invoke(t, vars, nil, "--list-models", "crof")
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.HasPrefix(l, "crof ") {
				f := strings.Fields(l)
				return f[len(f)-1]
			}
		}
		t.Fatalf("no crof row: %s %s", r.stdout, r.stderr)
		return ""
	}
	if got := row(map[string]string{"HOME": home, "CAIRN_DIR": ""}); got != "no" {
		t.Errorf("KEY with $CROFAI_API_KEY unset = %q, want no", got)
	}
	if got := row(map[string]string{"HOME": home, "CAIRN_DIR": "", "CROFAI_API_KEY": "k"}); got != "yes" {
		t.Errorf("KEY with $CROFAI_API_KEY set = %q, want yes", got)
	}
}

// TestGetCommandsListsExtensionsStillStarting: get_commands as the first
// command lists an extension's commands, as pi's does, though extensions
// start beside the session.
func TestGetCommandsListsExtensionsStillStarting(t *testing.T) {
	needProgram(t, "python3")
	vars := extHome(t, "greet.py")
	vars["CAIRN_FAUX_SCRIPT"] = writeScript(t, `{"responses": [{"text": "unused"}]}`)
	in := `{"id":"c","type":"get_commands"}` + "\n"
	r := invoke(t, vars, &in, "--mode", "rpc", "--no-session", "--provider", "faux")
	if r.code != exitOK || !strings.Contains(r.stdout, `"name":"greet"`) {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
