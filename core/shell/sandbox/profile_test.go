package sandbox

import "testing"

// The macOS profile says the same as the Landlock rules: reads but the
// denied paths, writes to the project and the writable places but not the
// denied paths and control files, and the network by port.
func TestProfile(t *testing.T) {
	p := Policy{
		Project:  "/Users/u/proj",
		Write:    []string{"/private/tmp"},
		DenyRead: []string{"/Users/u/.ssh", `/Users/u/we"ird`},
		Protect:  []string{"/Users/u/proj/.cairn", "/Users/u/proj/AGENTS.md"},
		Network:  Network{Allow: []string{"example.com:443", "localhost:8080"}},
	}
	want := profileBase + `(allow file-read*)
(allow file-write* (subpath "/Users/u/proj") (subpath "/private/tmp"))
(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/full") (literal "/dev/random") (literal "/dev/urandom") (literal "/dev/tty") (literal "/dev/ptmx") (literal "/dev/pts"))
(deny file-read* file-write* (subpath "/Users/u/.ssh") (subpath "/Users/u/we\"ird"))
(deny file-write* (subpath "/Users/u/proj/.cairn") (subpath "/Users/u/proj/AGENTS.md"))
(allow network-outbound (literal "/private/var/run/mDNSResponder"))
(allow network-outbound (remote tcp "*:443") (remote tcp "localhost:8080"))
`
	if got := Profile(p); got != want {
		t.Errorf("profile:\n%s\nwant:\n%s", got, want)
	}
	p.Network = Network{}
	if got := Profile(p); got[len(got)-len("AGENTS.md\"))\n"):] != "AGENTS.md\"))\n" {
		t.Errorf("network off still allows something:\n%s", got)
	}
	p.Network = Network{Open: true}
	if got := Profile(p); got[len(got)-len("(allow network*)\n"):] != "(allow network*)\n" {
		t.Errorf("network on:\n%s", got)
	}
}
