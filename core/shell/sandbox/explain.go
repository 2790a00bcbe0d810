package sandbox

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// denialWords are what programs print when the kernel refuses a file or a
// connection with EACCES or EPERM.
var denialWords = []string{"Permission denied", "Operation not permitted", "permission denied", "operation not permitted", "Read-only file system"}

// connectWords are what programs print when a connection is refused.
var connectWords = []string{"Couldn't connect", "connect:", "Connection refused", "Failed to connect", "Network is unreachable", "ConnectionRefused", "PermissionError"}

// writeLine tells a denial of a write from one of a read, which the
// sandbox refuses only for denied paths: a verb that writes, or a shell's
// own message (a redirection: "bash: /etc/x: Permission denied").
var writeLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)cannot (touch|create|remove|move|make|write|overwrite|link|open .* for writing)|` +
		`\b(mkdir|rmdir|rename|unlink|truncate|chmod|install|tee|dd|cp|ln|mv|rm|touch)\b[^:]*:|^(ba|da|z|k)?sh: (\d+: )?(line \d+: )?[^ ]+: (Permission denied|Operation not permitted|Read-only file system)`)
})

// pathPattern finds absolute and relative paths in an error line.
var pathPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s'"‘“(:])((?:/|\./|\.\./|~/)?[\w.@+-]+(?:/[\w.@+-]*)*)`)
})

// Explain returns, for the output of a sandboxed command that failed,
// notes naming what the sandbox refused and its rules ("blocked by the
// sandbox: write to /etc/hosts (allowed: project, /tmp)"), one per line, or
// "" when nothing in the output looks like the sandbox's doing. dir is the
// directory the command ran in, home the person's home (for short names).
func (p Policy) Explain(output, dir, home string) string {
	var notes []string
	add := func(n string) {
		for _, have := range notes {
			if have == n {
				return
			}
		}
		notes = append(notes, n)
	}
	for _, line := range strings.Split(output, "\n") {
		if !containsAny(line, denialWords) && !(containsAny(line, connectWords) && !p.Network.Open) {
			continue
		}
		if containsAny(line, connectWords) && !p.Network.Open {
			add("blocked by the sandbox: a network connection (network: " + p.Network.String() + ")")
			continue
		}
		if n := p.explainPath(line, dir, home); n != "" {
			add(n)
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return strings.Join(notes, "\n")
}

// explainPath names what the sandbox refused for the paths in a denial
// line, or "" when none of them is the sandbox's doing.
func (p Policy) explainPath(line, dir, home string) string {
	for _, m := range pathPattern().FindAllStringSubmatch(line, -1) {
		path := m[1]
		if !strings.ContainsRune(path, '/') && !strings.ContainsRune(path, '.') {
			continue
		}
		switch {
		case strings.HasPrefix(path, "~/") && home != "":
			path = filepath.Join(home, path[2:])
		case !filepath.IsAbs(path):
			path = filepath.Join(dir, path)
		}
		path = resolve(path)
		short := tilde(path, home)
		for _, d := range p.DenyRead {
			if within(path, d) {
				return "blocked by the sandbox: access to " + short + " (denied: " + tilde(d, home) + ")"
			}
		}
		for _, c := range p.Protect {
			if within(path, c) {
				return "blocked by the sandbox: write to " + short + ", one of the project's control files, read-only in the sandbox"
			}
		}
		if !p.writable(path) && writeLine().MatchString(line) {
			return "blocked by the sandbox: write to " + short + " (allowed: " + p.Writable(home) + ")"
		}
	}
	return ""
}

// writable reports whether path lies in a place p lets commands write.
func (p Policy) writable(path string) bool {
	for _, w := range append([]string{p.Project}, p.Write...) {
		if within(path, w) {
			return true
		}
	}
	return false
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
