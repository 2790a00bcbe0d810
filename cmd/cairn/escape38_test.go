package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/sandbox/sandboxtest"
)

// Issue 38's attacks, end to end through print mode (auto_edit, where a
// sandboxed command runs unasked), with and without --sandbox, and through
// rpc mode (pi's "auto", where nothing asks but the protected cases).

// gitProject makes a git repository in a new working directory and
// returns it with its .git/config as it was.
func gitProject(t *testing.T) (string, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	config, err := os.ReadFile(filepath.Join(dir, ".git", "config"))
	if err != nil {
		t.Fatal(err)
	}
	return dir, string(config)
}

// callScript is a faux script whose model makes one tool call, then says
// done.
func callScript(t *testing.T, tool string, args map[string]string) string {
	t.Helper()
	a, _ := json.Marshal(args)
	return writeScript(t, `{"responses":[{"content":[{"type":"toolCall","id":"c1","name":"`+tool+`","arguments":`+string(a)+`}]},{"text":"done"}]}`)
}

// The model replaces .git (python, so no rule or parser sees it) and
// writes core.fsmonitor into the new one: in auto_edit with --sandbox the
// command runs unasked and the sandbox keeps the repository; without it,
// print mode refuses the unapproved command.
func TestGitReplacedFromCommand(t *testing.T) {
	sandboxtest.Require(t)
	line := `python3 -c "import os,shutil; os.rename('.git','.git-old'); shutil.copytree('.git-old','.git'); open('.git/config','a').write('[core]\n\tfsmonitor = touch pwned\n')"`
	for _, flag := range []string{"--sandbox", "--no-sandbox"} {
		t.Run(flag, func(t *testing.T) {
			dir, config := gitProject(t)
			r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": callScript(t, "bash", map[string]string{"command": line})}, nil,
				"--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", flag, "-p", "go")
			if got, _ := os.ReadFile(filepath.Join(dir, ".git", "config")); string(got) != config {
				t.Errorf("%s: .git/config changed:\n%s", flag, got)
			}
			if _, err := os.Stat(filepath.Join(dir, ".git-old")); err == nil {
				t.Errorf("%s: .git was moved away", flag)
			}
			if flag == "--no-sandbox" && !strings.Contains(r.stdout, "needs approval and no one was asked") {
				t.Errorf("unsandboxed, the command was not refused:\n%s", r.stdout)
			}
		})
	}
}

// The edit tools ask before writing .git/commondir (which makes git take
// its configuration and hooks from anywhere), in auto_edit, with and
// without the sandbox: print mode refuses.
func TestGitCommondirFromEditTool(t *testing.T) {
	for _, flag := range []string{"--sandbox", "--no-sandbox"} {
		dir, _ := gitProject(t)
		r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": callScript(t, "write", map[string]string{"path": ".git/commondir", "content": "../evil\n"})}, nil,
			"--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", flag, "-p", "go")
		if _, err := os.Stat(filepath.Join(dir, ".git", "commondir")); err == nil {
			t.Errorf("%s: the model wrote .git/commondir unasked", flag)
		}
		if !strings.Contains(r.stdout, "needs approval and no one was asked") {
			t.Errorf("%s: the write was not refused:\n%s", flag, r.stdout)
		}
	}
}

// rpc mode starts in pi's "auto": nothing asks, but a write that changes
// what git runs does.
func TestRPCAsksBeforeGitCommondir(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	script := `{"responses":[{"content":[{"type":"toolCall","id":"c1","name":"write","arguments":{"path":".git/commondir","content":"../evil\n"}}]},{"text":"done"}]}`
	c, cwd := startRPC(t, script)
	if out, err := exec.Command("git", "init", "-q", cwd).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	c.send(`{"id":"p","type":"prompt","message":"go"}`)
	q := c.untilFrame("extension_ui_request", "agent_settled")
	if !strings.Contains(q.str("title")+q.str("message"), "commondir") {
		t.Errorf("the question does not name the file: %v", q)
	}
	c.send(`{"type":"extension_ui_response","id":"` + q.str("id") + `","cancelled":true}`)
	c.untilFrame("agent_settled", "")
	if _, err := os.Stat(filepath.Join(cwd, ".git", "commondir")); err == nil {
		t.Error("written after the question was dismissed")
	}
}

// A sandboxed command cannot reach the person's tmux server through its
// socket, nor send UDP with the network off, though auto_edit runs it
// unasked.
func TestSandboxedSocketsEndToEnd(t *testing.T) {
	sandboxtest.Require(t)
	dir := t.TempDir()
	t.Chdir(dir)
	sock := filepath.Join(os.TempDir(), "cairn-e2e-"+filepath.Base(dir)+".sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var hits atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	go func() {
		buf := make([]byte, 16)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			hits.Add(1)
		}
	}()
	_, port, _ := net.SplitHostPort(udp.LocalAddr().String())
	for _, line := range []string{
		`python3 -c "import socket; s=socket.socket(socket.AF_UNIX); s.connect('` + sock + `')"`,
		`python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', ` + port + `))"`,
	} {
		r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": callScript(t, "bash", map[string]string{"command": line})}, nil,
			"--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", "--sandbox", "-p", "go")
		if !strings.Contains(r.stdout, "blocked by the sandbox") {
			t.Errorf("%s: no sandbox note:\n%s", line, r.stdout)
		}
	}
	if hits.Load() != 0 {
		t.Errorf("a sandboxed command reached a server outside %d times", hits.Load())
	}
}

// ACP in auto_edit: a write that changes what git runs is asked about
// through session/request_permission, naming the file; rejected, nothing
// is written.
func TestACPAsksBeforeGitCommondir(t *testing.T) {
	proj, _ := gitProject(t)
	script := callScript(t, "write", map[string]string{"path": ".git/commondir", "content": "../evil\n"})
	d := startACPArgs(t, map[string]string{"CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": script},
		"--provider", "faux", "--mode", "acp", "--approval", "auto_edit")
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	d.send(2, "session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	sid, _ := d.await(t, 2)["result"].(map[string]any)["sessionId"].(string)
	d.send(3, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "go"}}})
	perm := d.request(t, "session/request_permission")
	if b, _ := json.Marshal(perm); !strings.Contains(string(b), "commondir") {
		t.Errorf("the question does not name the file: %s", b)
	}
	d.answer(t, perm, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "reject_once"}})
	d.await(t, 3)
	if _, err := os.Stat(filepath.Join(proj, ".git", "commondir")); err == nil {
		t.Error("written after the question was rejected")
	}
	d.finish(t)
}

// A sandboxed command, which auto_edit runs unasked, cannot rewrite the
// scripts a trusted project's hooks and extensions run: the sandbox keeps
// what the gate asks about read-only.
func TestSandboxKeepsHookScripts(t *testing.T) {
	sandboxtest.Require(t)
	project, home, _ := scriptedProject(t)
	t.Chdir(project)
	// python, so the gate cannot see which files the line writes.
	line := `python3 -c "
for f in ['tools/start.sh', '.claude/hooks/start.sh', 'tools/ext.js']:
    try: open(f, 'a').write('evil\n')
    except OSError as e: print(e)
"`
	vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": callScript(t, "bash", map[string]string{"command": line})}
	r := invoke(t, vars, nil, "--provider", "faux", "--no-session", "--no-extensions", "--mode", "json",
		"--approval", "auto_edit", "--trust-project", "--sandbox", "-p", "go")
	for _, f := range []string{"tools/start.sh", ".claude/hooks/start.sh", "tools/ext.js"} {
		if got, _ := os.ReadFile(filepath.Join(project, filepath.FromSlash(f))); strings.Contains(string(got), "evil") {
			t.Errorf("the sandboxed command rewrote %s:\n%s", f, r.stdout)
		}
	}
	if !strings.Contains(r.stdout, "Read-only file system") {
		t.Errorf("the command did not run in the sandbox:\n%s", r.stdout)
	}
}

// pi's key files are out of a sandboxed command's reach, as cairn's are.
func TestSandboxDeniesPiKeys(t *testing.T) {
	sandboxtest.Require(t)
	home := t.TempDir()
	agent := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(agent, 0o700); err != nil {
		t.Fatal(err)
	}
	const secret = "sk-pi-SECRET-0xBEEF"
	for _, f := range []string{"auth.json", "models.json"} {
		if err := os.WriteFile(filepath.Join(agent, f), []byte(`{"k":"`+secret+`"}`), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(t.TempDir())
	line := `python3 -c "import sys; [print(open(f).read()) for f in sys.argv[1:]]" ` + filepath.Join(agent, "auth.json") + " " + filepath.Join(agent, "models.json")
	r := invoke(t, map[string]string{"HOME": home, "CAIRN_FAUX_SCRIPT": callScript(t, "bash", map[string]string{"command": line})}, nil,
		"--mode", "json", "--provider", "faux", "--approval", "auto_edit", "--no-session", "--sandbox", "-p", "go")
	if strings.Contains(r.stdout, secret) {
		t.Errorf("a sandboxed command read pi's keys:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "bash") {
		t.Fatalf("the command did not run:\n%s\n%s", r.stdout, r.stderr)
	}
}
