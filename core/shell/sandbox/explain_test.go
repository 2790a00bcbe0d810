package sandbox

import (
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	const (
		write   = "; allow a directory with sandbox.allowWrite in ~/.cairn/settings.json"
		denied  = ", keys no sandboxed command reads; sandbox.denyRead in ~/.cairn/settings.json lists your own)"
		network = `; allow it with sandbox.network in ~/.cairn/settings.json ("on", or a list of "host:port")`
		unix    = "blocked by the sandbox: a Unix socket (a server outside the sandbox, such as tmux, docker, dbus or ssh-agent, would act for the command); allow one by its path in sandbox.allowUnixSockets in ~/.cairn/settings.json"
		git     = "blocked by the sandbox: write to ~/proj/.git/index.lock, part of the git repository, read-only in the sandbox so that no command changes what git runs; run git commands that write (commit, add, checkout) with dangerouslyDisableSandbox, which asks the person"
	)
	p := Policy{Project: "/home/u/proj", Write: []string{"/tmp"}, DenyRead: []string{"/home/u/.ssh"},
		Protect: []string{"/home/u/proj/AGENTS.md", "/home/u/proj/.cairn", "/home/u/proj/.git", "/tmp/h/.bashrc"}}
	for _, tc := range []struct{ out, want string }{
		{"touch: cannot touch '/etc/hosts': Permission denied", "blocked by the sandbox: write to /etc/hosts (allowed: project, /tmp)" + write},
		{"sh: 1: cannot create /etc/x: Permission denied", "blocked by the sandbox: write to /etc/x (allowed: project, /tmp)" + write},
		{"cat: /home/u/.ssh/id_rsa: Permission denied", "blocked by the sandbox: access to ~/.ssh/id_rsa (denied: ~/.ssh" + denied},
		{"bash: AGENTS.md: Permission denied", "blocked by the sandbox: write to ~/proj/AGENTS.md, one of the project's control files, read-only in the sandbox"},
		{"mv: cannot move 'f' to '../x': Permission denied", "blocked by the sandbox: write to ~/x (allowed: project, /tmp)" + write},
		{"curl: (7) Failed to connect to 127.0.0.1 port 80 after 0 ms: Couldn't connect to server", "blocked by the sandbox: a network connection (network: off)" + network},
		{"dial tcp 127.0.0.1:80: connect: permission denied", "blocked by the sandbox: a network connection (network: off)" + network},
		{"open /home/u/proj/x: permission denied", ""}, // inside the project: not the sandbox
		{"cat: /etc/shadow: Permission denied", ""},    // reads outside denied paths are allowed
		{"bash: line 1: /etc/x: Permission denied", "blocked by the sandbox: write to /etc/x (allowed: project, /tmp)" + write},
		{"mkdir: cannot create directory '/opt/x': Permission denied", "blocked by the sandbox: write to /opt/x (allowed: project, /tmp)" + write},
		{"make: *** [all] Error 1", ""},
		{"error connecting to /tmp/tmux-0/default (Operation not permitted)", unix},
		{"socket: Operation not permitted", unix},
		{"cat: /home/u/.ssh/id_rsa: No such file or directory", "blocked by the sandbox: access to ~/.ssh/id_rsa (denied: ~/.ssh" + denied},
		{"cat: /home/u/proj/x: No such file or directory", ""},
		{"fatal: Unable to create '/home/u/proj/.git/index.lock': Read-only file system", git},
		{"sh: 1: cannot create /tmp/h/.bashrc: Read-only file system", "blocked by the sandbox: write to /tmp/h/.bashrc, a file programs outside the sandbox run or obey (a shell's, git's or an agent's settings), read-only in the sandbox"},
	} {
		if got := p.Explain(tc.out, "/home/u/proj", "/home/u"); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
}

// Explain never panics, and every note it makes says it is the sandbox's.
func FuzzExplain(f *testing.F) {
	for _, s := range []string{"touch: cannot touch '/etc/hosts': Permission denied", "socket: Operation not permitted",
		"cat: ~/.ssh/x: No such file or directory", "fatal: '/p/.git/config': Read-only file system", "Couldn't connect"} {
		f.Add(s)
	}
	p := Policy{Project: "/p", Write: []string{"/tmp"}, DenyRead: []string{"/h/.ssh"}, Protect: []string{"/p/.git"}}
	f.Fuzz(func(t *testing.T, out string) {
		for _, line := range strings.Split(p.Explain(out, "/p", "/h"), "\n") {
			if line != "" && !strings.HasPrefix(line, "blocked by the sandbox: ") {
				t.Errorf("note %q", line)
			}
		}
	})
}
