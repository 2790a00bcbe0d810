package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Issue 38's attack: a sandboxed command asks the person's tmux server,
// through its socket, to run a command, which runs outside the sandbox.
// The socket is in the temporary directory, which the sandbox lets the
// command write.
func TestTmuxSocketRefused(t *testing.T) {
	requireLandlock(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("no tmux")
	}
	r := newRig(t, Config{Enabled: true})
	sock := filepath.Join(r.tmp, "tmux-test", "default")
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		t.Fatal(err)
	}
	server := exec.Command("tmux", "-S", sock, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", "sleep 600")
	if out, err := server.CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("tmux", "-S", sock, "kill-server").Run() })
	pwned := filepath.Join(r.outside, "pwned")
	line := "tmux -S " + sock + " new-window 'echo x > " + pwned + "'"
	out, code := r.run(t, line)
	if code == 0 {
		t.Errorf("tmux through its socket worked in the sandbox: %s", out)
	}
	// Without the sandbox the same line gets out: the test tries a real way.
	r.unsandboxed = true
	if out, code := r.run(t, line); code != 0 {
		t.Fatalf("unsandboxed: %d %s", code, out)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(pwned); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("tmux's window never wrote the file unsandboxed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A socket the person allows by name can be reached; below Landlock ABI 9
// that allows every socket, and Probe says so.
func TestAllowedUnixSocket(t *testing.T) {
	requireLandlock(t)
	r := newRig(t, Config{Enabled: true})
	r.policy.UnixSockets = []string{r.sock}
	line := "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('$SOCK'); print('CONNECTED')\""
	if out, code := r.run(t, line); code != 0 || !strings.Contains(out, "CONNECTED") {
		t.Errorf("allowed socket refused (%d): %s", code, out)
	}
	if ABI() < 9 && !strings.Contains(Probe().Detail, "allowUnixSockets entry allows every one") {
		t.Errorf("Probe does not say an entry allows every socket: %s", Probe().Detail)
	}
	// A socket pair and a server of the command's own keep working
	// without any entry.
	r.policy.UnixSockets = nil
	pair := "python3 -c \"import socket; a,b=socket.socketpair(); a.send(b'hi'); print(b.recv(2).decode())\""
	if out, code := r.run(t, pair); code != 0 || !strings.Contains(out, "hi") {
		t.Errorf("socketpair refused (%d): %s", code, out)
	}
}

// With the network on, UDP works; with it off it is refused, as TCP is.
func TestUDP(t *testing.T) {
	requireLandlock(t)
	r := newRig(t, Config{Enabled: true})
	line := "python3 -c \"import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', $UPORT)); print('SENT')\""
	if out, code := r.run(t, line); code == 0 || strings.Contains(out, "SENT") {
		t.Errorf("UDP with the network off (%d): %s", code, out)
	}
	r.policy.Network = Network{Open: true}
	if out, code := r.run(t, line); code != 0 || !strings.Contains(out, "SENT") {
		t.Errorf("UDP with the network on (%d): %s", code, out)
	}
}

// A repository made by one command (git init) is read-only from the next
// command on, though the policy was built before it existed.
func TestRepositoryMadeMidSession(t *testing.T) {
	requireLandlock(t)
	if !Probe().ProtectsControlFiles {
		t.Skip("no user namespaces")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	r := newRig(t, Config{Enabled: true})
	sub := filepath.Join(r.project, "sub")
	r.policy.Project = sub // a project with no repository of its own
	if err := os.RemoveAll(filepath.Join(r.project, ".git")); err != nil {
		t.Fatal(err)
	}
	if out, code := r.run(t, "cd sub && git init -q . && echo MADE"); code != 0 || !strings.Contains(out, "MADE") {
		t.Fatalf("git init in the sandbox (%d): %s", code, out)
	}
	out, _ := r.run(t, "cd sub && echo '[core] fsmonitor = touch /tmp/x' >> .git/config && echo WROTE")
	if strings.Contains(out, "WROTE") {
		t.Errorf("the new repository's config was writable from the next command: %s", out)
	}
}
