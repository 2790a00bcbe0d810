package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// continueCommand is the command that continues this session as it can be
// typed: the binary as the person can run it (cairn when that is the one
// on PATH, else its path; the cairn that handed the TUI over, not
// cairn-tui), the session directory when one was given, and
// the faux provider's script when the answers were scripted.
func continueCommand(env environment, opts *Options, provider string) string {
	bin := "cairn"
	if self, err := launcher(env); err == nil {
		if onPath, err := exec.LookPath("cairn"); err != nil || !sameFile(onPath, self) {
			bin = self
			if wd, err := os.Getwd(); err == nil {
				if rel, err := filepath.Rel(wd, self); err == nil && !strings.HasPrefix(rel, "..") {
					bin = "./" + rel
				}
			}
		}
	}
	cmd := bin + " --continue"
	if opts.SessionDir != "" {
		cmd += " --session-dir " + shellQuote(opts.SessionDir)
	}
	if provider == faux.ProviderName {
		cmd = "CAIRN_FAUX_SCRIPT=" + shellQuote(env.getenv("CAIRN_FAUX_SCRIPT")) + " " + cmd + " --provider faux"
	}
	return cmd
}

// sameFile reports whether two paths name one file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '/' || r == '.' || r == '-' || r == '_' || r == '~' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// launcherEnv names the cairn that handed this run over to cairn-tui (see
// headless.go); the person typed that one, so it is the one to suggest.
const launcherEnv = "CAIRN_LAUNCHER"

// launcherVersionEnv is the handing-over cairn's version: cairn-tui says
// so when it is not its own (one of the pair was replaced alone).
const launcherVersionEnv = "CAIRN_LAUNCHER_VERSION"

// launcherMismatch is the notice for a cairn-tui started by a cairn of
// another version, or "".
func launcherMismatch(env environment) string {
	v := env.getenv(launcherVersionEnv)
	if v == "" || v == versionString() {
		return ""
	}
	return fmt.Sprintf("cairn-tui is version %s but the cairn that started it is %s: install them together (make install) so both are the same build", versionString(), v)
}

// launcher is the executable the person ran: the handing-over cairn when
// there was one, else this process's.
func launcher(env environment) (string, error) {
	if p := env.getenv(launcherEnv); filepath.IsAbs(p) {
		return p, nil
	}
	return os.Executable()
}
