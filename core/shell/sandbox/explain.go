package sandbox

import (
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/gitrepo"
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
		if containsAny(line, missingWords) {
			// A denied path is hidden: it looks empty, or missing.
			if n := p.explainHidden(line, dir, home); n != "" {
				add(n)
			}
			continue
		}
		if !containsAny(line, denialWords) && !(containsAny(line, connectWords) && !p.Network.Open) {
			continue
		}
		if !p.AllowAllUnixSockets && p.unixSocketLine(line, dir) {
			add("blocked by the sandbox: a Unix socket (a server outside the sandbox, such as tmux, docker, dbus or " +
				"ssh-agent, would act for the command); allow one by its path in sandbox.allowUnixSockets in ~/.cairn/settings.json")
			continue
		}
		if containsAny(line, connectWords) && !p.Network.Open {
			add("blocked by the sandbox: a network connection (network: " + p.Network.String() +
				`); allow it with sandbox.network in ~/.cairn/settings.json ("on", or a list of "host:port")`)
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
	for _, path := range mentioned(line, dir, home, true) {
		short := tilde(path, home)
		if d, ok := p.denied(path); ok {
			return deniedNote(short, tilde(d, home))
		}
		for _, c := range p.Protect {
			if !within(path, c) {
				continue
			}
			switch _, git := gitrepo.Split(filepath.ToSlash(c)); {
			case git:
				return "blocked by the sandbox: write to " + short + ", part of the git repository, read-only in the sandbox so " +
					"that no command changes what git runs; run git commands that write (commit, add, checkout) " +
					"with dangerouslyDisableSandbox, which asks the person"
			case !within(c, p.Project):
				return "blocked by the sandbox: write to " + short + ", a file programs outside the sandbox run or obey " +
					"(a shell's, git's or an agent's settings), read-only in the sandbox"
			}
			return "blocked by the sandbox: write to " + short + ", one of the project's control files, read-only in the sandbox"
		}
		if !p.writable(path) && writeLine().MatchString(line) {
			return "blocked by the sandbox: write to " + short + " (allowed: " + p.Writable(home) +
				"); allow a directory with sandbox.allowWrite in ~/.cairn/settings.json"
		}
	}
	return ""
}

// missingWords are what programs print for a file that is not there, as
// a hidden denied path's files are not.
var missingWords = []string{"No such file or directory", "no such file or directory"}

// explainHidden names the denied path a "no such file" line is about, or
// returns "".
func (p Policy) explainHidden(line, dir, home string) string {
	for _, path := range mentioned(line, dir, home, false) {
		if d, ok := p.denied(path); ok && path != d {
			return deniedNote(tilde(path, home), tilde(d, home))
		}
	}
	return ""
}

// mentioned returns the paths an error line names, absolute (from dir, or
// home for ~/) and resolved; with pathLike, only words with a slash or a
// dot.
func mentioned(line, dir, home string, pathLike bool) []string {
	var out []string
	for _, m := range pathPattern().FindAllStringSubmatch(line, -1) {
		path := m[1]
		if pathLike && !strings.ContainsRune(path, '/') && !strings.ContainsRune(path, '.') {
			continue
		}
		switch {
		case strings.HasPrefix(path, "~/") && home != "":
			path = filepath.Join(home, path[2:])
		case !filepath.IsAbs(path):
			path = filepath.Join(dir, path)
		}
		out = append(out, resolve(path))
	}
	return out
}

// denied returns the denied path that holds path.
func (p Policy) denied(path string) (string, bool) {
	for _, d := range p.DenyRead {
		if within(path, d) {
			return d, true
		}
	}
	return "", false
}

// deniedNote says a denied path was refused, and that no setting of the
// command's lets it through.
func deniedNote(short, denied string) string {
	return "blocked by the sandbox: access to " + short + " (denied: " + denied +
		", keys no sandboxed command reads; sandbox.denyRead in ~/.cairn/settings.json lists your own)"
}

// unixSocketLine reports whether a denial line is about a Unix socket: it
// says so, or a path in it is a socket.
func (p Policy) unixSocketLine(line, dir string) bool {
	if strings.Contains(strings.ToLower(line), "unix") || strings.Contains(line, "error connecting to") ||
		strings.Contains(line, "socket") && !strings.Contains(line, "Couldn't connect") {
		return true
	}
	for _, path := range mentioned(line, dir, "", false) {
		if info, err := os.Stat(path); err == nil && info.Mode()&os.ModeSocket != 0 {
			return true
		}
	}
	return false
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
