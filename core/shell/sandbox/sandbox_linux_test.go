package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// requireLandlock skips a test where the kernel has no Landlock (see
// sandboxtest.Require, which this package's own tests cannot import).
func requireLandlock(t testing.TB) Status {
	t.Helper()
	st := Probe()
	if !st.Available {
		t.Skipf("no sandbox on this system: %s", st.Detail)
	}
	return st
}

// secret is the content of every fake key file.
const secret = "SECRET-KEY-0xC0FFEE"

// rig is a project, a home with fake keys, a temporary directory and a
// directory outside all of them, laid out under one test directory.
type rig struct {
	root, project, home, tmp, outside string
	policy                            Policy
	hits                              atomic.Int32 // connections the test servers saw
	port                              string
	sock                              string // a Unix socket server outside, as tmux's or ssh-agent's
	udpPort                           string // a UDP server
	unsandboxed                       bool   // run commands without the sandbox
}

func newRig(t *testing.T, cfg Config) *rig {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &rig{root: root, project: filepath.Join(root, "project"), home: filepath.Join(root, "home"),
		tmp: filepath.Join(root, "tmp"), outside: filepath.Join(root, "outside")}
	files := map[string]string{
		"project/main.go":               "package main\n",
		"project/AGENTS.md":             "be good\n",
		"project/.cairn/settings.json":  "{}\n",
		"project/.git/config":           "[core]\n",
		"project/.git/HEAD":             "ref: refs/heads/main\n",
		"project/.git/refs/heads/.keep": "",
		"project/.git/objects/.keep":    "",
		"project/.git/hooks/pre-commit": "#!/bin/sh\n",
		"project/sub/file.txt":          "x\n",
		"home/.ssh/id_rsa":              secret,
		"home/.aws/credentials":         secret,
		"home/.config/gcloud/key.json":  secret,
		"home/.config/other/ok.txt":     "readable\n",
		"home/.cairn/models.json":       secret,
		"home/notes.txt":                "readable\n",
		"outside/victim":                "ORIGINAL",
		"tmp/.keep":                     "",
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.policy, err = cfg.Policy(Place{Project: r.project, Home: r.home, TempDir: r.tmp,
		KeyFiles: []string{filepath.Join(r.home, ".cairn", "models.json")}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r.hits.Add(1)
		fmt.Fprint(w, "HELLO-FROM-SERVER")
	}))
	t.Cleanup(srv.Close)
	_, r.port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	r.sock = filepath.Join(r.outside, "agent.sock")
	ul, err := net.Listen("unix", r.sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ul.Close() })
	go func() {
		for {
			c, err := ul.Accept()
			if err != nil {
				return
			}
			r.hits.Add(1)
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { udp.Close() })
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			r.hits.Add(1)
		}
	}()
	_, r.udpPort, _ = net.SplitHostPort(udp.LocalAddr().String())
	return r
}

// run runs line with sh in the project, sandboxed, and returns its output
// and exit status.
func (r *rig) run(t *testing.T, line string, extra ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir = r.project
	cmd.Env = append(os.Environ(), "PROJ="+r.project, "TH="+r.home, "OUT="+r.outside, "PORT="+r.port,
		"SOCK="+r.sock, "UPORT="+r.udpPort,
		fmt.Sprintf("CAIRN_PID=%d", os.Getpid()))
	cmd.Env = append(cmd.Env, extra...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if !r.unsandboxed {
		if err := Wrap(cmd, r.policy); err != nil {
			t.Fatal(err)
		}
	}
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %q: %v", line, err)
	}
	if code == ExitSetup {
		t.Fatalf("the sandbox could not be set up for %q: %s", line, out.String())
	}
	return out.String(), code
}

// escaped returns what an escape attempt changed that the sandbox should
// have kept: files outside the writable places, control files, keys read,
// connections made.
func (r *rig) escaped(t *testing.T, out string, hits int32) []string {
	t.Helper()
	var bad []string
	if strings.Contains(out, secret) {
		bad = append(bad, "printed a key")
	}
	if strings.Contains(out, "ESCAPED") {
		bad = append(bad, "said ESCAPED")
	}
	if strings.Contains(out, "HELLO-FROM-SERVER") || r.hits.Load() != hits {
		bad = append(bad, "reached the test server")
	}
	for _, p := range []string{"outside/pwned", "outside/newdir", "outside/fifo", "home/.ssh/pwned", "home/pwned"} {
		if _, err := os.Lstat(filepath.Join(r.root, p)); err == nil {
			bad = append(bad, "created "+p)
		}
	}
	if _, err := os.Lstat("/etc/cairn-pwned"); err == nil {
		bad = append(bad, "created /etc/cairn-pwned")
		os.Remove("/etc/cairn-pwned")
	}
	for _, p := range []string{"project/.git/commondir", "project/.git/info", "project/.git/objects/info/alternates",
		"project/.git/config.worktree", "project/.git-old"} {
		if _, err := os.Lstat(filepath.Join(r.root, p)); err == nil {
			bad = append(bad, "created "+p)
		}
	}
	want := map[string]string{"outside/victim": "ORIGINAL", "project/AGENTS.md": "be good\n",
		"project/.cairn/settings.json": "{}\n", "project/.git/config": "[core]\n", "project/.git/HEAD": "ref: refs/heads/main\n",
		"project/.git/hooks/pre-commit": "#!/bin/sh\n", "home/.ssh/id_rsa": secret}
	for name, content := range want {
		got, err := os.ReadFile(filepath.Join(r.root, name))
		if err != nil || string(got) != content {
			bad = append(bad, fmt.Sprintf("changed %s (%q, %v)", name, got, err))
		}
	}
	return bad
}

// The three: a write outside the project, a key read and a
// connection to a local server are blocked; the same inside the project
// runs.
func TestBlockedAndAllowed(t *testing.T) {
	requireLandlock(t)
	r := newRig(t, Config{Enabled: true})
	for _, line := range []string{
		"touch /etc/cairn-pwned",
		"cat $TH/.ssh/id_rsa",
		"curl -sS --max-time 5 http://127.0.0.1:$PORT/",
	} {
		out, code := r.run(t, line)
		t.Logf("%s: %d %s", line, code, out)
		if code == 0 {
			t.Errorf("%q ran in the sandbox: %s", line, out)
		}
		if bad := r.escaped(t, out, 0); len(bad) > 0 {
			t.Errorf("%q: %v", line, bad)
		}
	}
	out, code := r.run(t, "touch new && echo hi > sub/new.txt && cat main.go sub/new.txt $TH/notes.txt && mkdir -p a/b && mv new a/b/ && rm a/b/new && echo tmp > "+r.tmp+"/t && cat "+r.tmp+"/t && ls $TH/.ssh >/dev/null")
	if code != 0 || !strings.Contains(out, "package main") || !strings.Contains(out, "readable") || !strings.Contains(out, "tmp") {
		t.Errorf("work inside the project failed (%d): %s", code, out)
	}
}

// Allowing a port lets connections to it through, and only to it.
func TestNetworkPorts(t *testing.T) {
	requireLandlock(t)
	r := newRig(t, Config{Enabled: true})
	r.policy.Network = Network{Allow: []string{"127.0.0.1:" + r.port}}
	out, code := r.run(t, "curl -sS --max-time 5 http://127.0.0.1:$PORT/")
	if code != 0 || !strings.Contains(out, "HELLO-FROM-SERVER") {
		t.Errorf("allowed port: (%d) %s", code, out)
	}
	r.policy.Network = Network{Allow: []string{"127.0.0.1:1"}}
	if out, code := r.run(t, "curl -sS --max-time 5 http://127.0.0.1:$PORT/"); code == 0 {
		t.Errorf("another port got through: %s", out)
	}
	r.policy.Network = Network{Open: true}
	if out, code := r.run(t, "curl -sS --max-time 5 http://127.0.0.1:$PORT/"); code != 0 {
		t.Errorf("network on: (%d) %s", code, out)
	}
}

// The child never mounts in a namespace it shares with other processes,
// even when asked to: protecting the control files there would make them
// read-only for everyone.
func TestChildMountsOnlyInItsOwnNamespace(t *testing.T) {
	requireLandlock(t)
	r := newRig(t, Config{Enabled: true})
	req, err := json.Marshal(request{Policy: r.policy, Mount: true})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], ExecArg, string(req), "--", "/bin/true")
	out, err := cmd.CombinedOutput()
	t.Cleanup(func() {
		for _, p := range r.policy.Protect {
			_ = syscall.Unmount(p, 0)
		}
	})
	if cmd.ProcessState.ExitCode() != ExitSetup || !strings.Contains(string(out), "outside a mount namespace of its own") {
		t.Errorf("exit %d, %v: %s", cmd.ProcessState.ExitCode(), err, out)
	}
	agents := filepath.Join(r.project, "AGENTS.md")
	if f, err := os.OpenFile(agents, os.O_WRONLY|os.O_APPEND, 0); err != nil {
		t.Errorf("AGENTS.md is no longer writable outside the sandbox: %v", err)
	} else {
		f.Close()
	}
}
