package sandbox

import "testing"

func TestExplain(t *testing.T) {
	p := Policy{Project: "/home/u/proj", Write: []string{"/tmp"}, DenyRead: []string{"/home/u/.ssh"},
		Protect: []string{"/home/u/proj/AGENTS.md", "/home/u/proj/.cairn"}}
	for _, tc := range []struct{ out, want string }{
		{"touch: cannot touch '/etc/hosts': Permission denied", "blocked by the sandbox: write to /etc/hosts (allowed: project, /tmp)"},
		{"sh: 1: cannot create /etc/x: Permission denied", "blocked by the sandbox: write to /etc/x (allowed: project, /tmp)"},
		{"cat: /home/u/.ssh/id_rsa: Permission denied", "blocked by the sandbox: access to ~/.ssh/id_rsa (denied: ~/.ssh)"},
		{"bash: AGENTS.md: Permission denied", "blocked by the sandbox: write to ~/proj/AGENTS.md, one of the project's control files, read-only in the sandbox"},
		{"mv: cannot move 'f' to '../x': Permission denied", "blocked by the sandbox: write to ~/x (allowed: project, /tmp)"},
		{"curl: (7) Failed to connect to 127.0.0.1 port 80 after 0 ms: Couldn't connect to server", "blocked by the sandbox: a network connection (network: off)"},
		{"dial tcp 127.0.0.1:80: connect: permission denied", "blocked by the sandbox: a network connection (network: off)"},
		{"open /home/u/proj/x: permission denied", ""}, // inside the project: not the sandbox
		{"cat: /etc/shadow: Permission denied", ""},    // reads outside denied paths are allowed
		{"bash: line 1: /etc/x: Permission denied", "blocked by the sandbox: write to /etc/x (allowed: project, /tmp)"},
		{"mkdir: cannot create directory '/opt/x': Permission denied", "blocked by the sandbox: write to /opt/x (allowed: project, /tmp)"},
		{"make: *** [all] Error 1", ""},
	} {
		if got := p.Explain(tc.out, "/home/u/proj", "/home/u"); got != tc.want {
			t.Errorf("%q:\n got %q\nwant %q", tc.out, got, tc.want)
		}
	}
}
