package sandbox

import (
	"fmt"
	"path/filepath"
	"strings"
)

// profileBase is what every sandboxed command on macOS may do besides
// files and network: run and signal its own processes, read system
// settings, talk to system services and use terminals.
const profileBase = `(version 1)
(deny default)
(allow process-exec process-fork)
(allow signal (target same-sandbox))
(allow sysctl-read)
(allow mach-lookup)
(allow ipc-posix-shm ipc-posix-sem)
(allow pseudo-tty)
(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))
`

// Profile returns p as a macOS sandbox-exec profile (SBPL). Later rules
// win over earlier ones, so the denials follow the grants they carve out:
// reads everywhere but DenyRead; writes to the project and Write but
// neither DenyRead nor the control files; the network as Network says,
// where a host other than localhost counts as any host, as for Landlock.
func Profile(p Policy) string {
	var b strings.Builder
	b.WriteString(profileBase)
	b.WriteString("(allow file-read*)\n")
	writes := append([]string{p.Project}, p.Write...)
	rule(&b, "allow file-write*", writes, nil)
	rule(&b, "allow file-write*", nil, devices)
	if len(p.DenyRead) > 0 {
		rule(&b, "deny file-read* file-write*", p.DenyRead, nil)
	}
	rule(&b, "deny file-write*", p.Protect, nil)
	switch {
	case p.Network.Open:
		b.WriteString("(allow network*)\n")
	case len(p.Network.Allow) > 0:
		b.WriteString("(allow network-outbound (literal \"/private/var/run/mDNSResponder\"))\n")
		var remotes []string
		for _, e := range p.Network.Allow {
			i := strings.LastIndexByte(e, ':') // entries are checked "host:port"
			host, port := strings.Trim(e[:i], "[]"), e[i+1:]
			if host != "localhost" {
				host = "*"
			}
			remotes = append(remotes, fmt.Sprintf("(remote tcp %s)", quote(host+":"+port)))
		}
		fmt.Fprintf(&b, "(allow network-outbound %s)\n", strings.Join(remotes, " "))
	}
	return b.String()
}

// rule writes one rule over trees (subpath) and single files (literal).
func rule(b *strings.Builder, action string, trees, files []string) {
	fmt.Fprintf(b, "(%s", action)
	for _, t := range trees {
		fmt.Fprintf(b, " (subpath %s)", quote(filepath.ToSlash(t)))
	}
	for _, f := range files {
		fmt.Fprintf(b, " (literal %s)", quote(f))
	}
	b.WriteString(")\n")
}

// quote writes s as an SBPL string.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
