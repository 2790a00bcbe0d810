package main

import (
	"os"
	"strings"
	"testing"
)

// TestContinueCommandWorksAsPrinted checks the exit hint: the binary as it
// can be run, and what the session needs to start again.
func TestContinueCommandWorksAsPrinted(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := environment{getenv: func(k string) string {
		if k == "CAIRN_FAUX_SCRIPT" {
			return "demo script.json"
		}
		return ""
	}}
	got := continueCommand(env, &Options{SessionDir: "/tmp/my sessions"}, "faux")
	want := "CAIRN_FAUX_SCRIPT='demo script.json' " + self + " --continue --session-dir '/tmp/my sessions' --provider faux"
	if got != want {
		t.Errorf("faux hint:\n got %s\nwant %s", got, want)
	}
	if got := continueCommand(env, &Options{}, "anthropic"); got != self+" --continue" {
		t.Errorf("plain hint: %s", got)
	}
	for in, want := range map[string]string{"a/b-c_d.json": "a/b-c_d.json", "it's": `'it'\''s'`, "": "''"} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
	if strings.Contains(continueCommand(env, &Options{}, "openai"), "CAIRN_FAUX_SCRIPT") {
		t.Error("the faux script is named for another provider")
	}
}

// TestLauncherMismatch: cairn-tui notices a handing-over cairn of another
// version, and only then.
func TestLauncherMismatch(t *testing.T) {
	with := func(v string) environment {
		return environment{getenv: func(k string) string {
			if k == launcherVersionEnv {
				return v
			}
			return ""
		}}
	}
	if n := launcherMismatch(with("")); n != "" {
		t.Errorf("no launcher: %q", n)
	}
	if n := launcherMismatch(with(versionString())); n != "" {
		t.Errorf("same version: %q", n)
	}
	if n := launcherMismatch(with("v0.0.1-old")); !strings.Contains(n, "v0.0.1-old") || !strings.Contains(n, versionString()) || !strings.Contains(n, "make install") {
		t.Errorf("another version: %q", n)
	}
}
