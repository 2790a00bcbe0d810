package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// toolchainRig is a rig whose home and temporary directory are where the
// case puts them, with the person's keys in the home. underTmp puts both
// in the temporary directory's tree (HOME=/tmp/..., TMPDIR=/tmp/...), the
// case issue 38 found broken: files in directories made during the
// command could not be read back.
func toolchainRig(t *testing.T, underTmp bool, cacheRoot string) (*rig, []string) {
	t.Helper()
	r := newRig(t, Config{Enabled: true})
	rustup := os.Getenv("RUSTUP_HOME")
	if rustup == "" {
		if h, err := os.UserHomeDir(); err == nil {
			rustup = filepath.Join(h, ".rustup")
		}
	}
	if underTmp {
		home := filepath.Join(r.tmp, "home")
		if err := os.Rename(r.home, home); err != nil {
			t.Fatal(err)
		}
		r.home = home
	}
	for _, f := range []string{".bashrc", ".cairn/settings.json"} {
		if err := os.WriteFile(filepath.Join(r.home, f), []byte("PERSON\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var err error
	r.policy, err = Config{Enabled: true}.Policy(Place{Project: r.project, Home: r.home, TempDir: r.tmp,
		KeyFiles:  []string{filepath.Join(r.home, ".cairn", "models.json")},
		CacheRoot: cacheRoot})
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + r.home, "TMPDIR=" + r.tmp, "XDG_CACHE_HOME=", "XDG_CONFIG_HOME=",
		"GOCACHE=", "GOPATH=", "GOMODCACHE=", "GOFLAGS=", "GOTOOLCHAIN=local", "GOTELEMETRY=off",
		"npm_config_cache=", "CARGO_HOME=", "RUSTUP_HOME=" + rustup}
	return r, env
}

// Ordinary toolchains work in the sandbox with their caches where they
// are, HOME and TMPDIR under /tmp or elsewhere; the keys stay unread.
func TestToolchains(t *testing.T) {
	requireLandlock(t)
	// One cache directory of the sandbox's for all cases, as for every
	// command of a person's: the second Go build is warm.
	caches := t.TempDir()
	cases := []struct {
		name, need, line, want string
	}{
		{"go", "go", "printf 'module p\\ngo 1.21\\n' > go.mod && printf 'package main\\nfunc main() { println(\"GO-OK\") }\\n' > main.go && go build -o p . && ./p", "GO-OK"},
		{"tmp read back", "python3", "python3 -c \"import tempfile,os; d=tempfile.mkdtemp(); p=os.path.join(d,'x'); open(p,'w').write('TMP-OK'); print(open(p).read())\"", "TMP-OK"},
		{"make", "make", "printf 'all:\\n\\td=$$(mktemp -d) && echo MAKE-OK > $$d/f && cat $$d/f\\n' > Makefile && make -s", "MAKE-OK"},
		{"npm", "npm", "printf '{\"name\":\"p\",\"version\":\"1.0.0\",\"scripts\":{\"test\":\"node -e \\\\\"console.log(1+1)\\\\\"\"}}' > package.json && npm test --silent && echo NPM-OK", "NPM-OK"},
		{"pip", "python3", "python3 -m venv --without-pip .venv && .venv/bin/python -c 'import sys; print(\"PY-OK\", sys.prefix)'", "PY-OK"},
		{"cargo", "cargo", "cargo new --vcs none -q c && cd c && cargo build -q --offline && ./target/debug/c && echo CARGO-OK", "CARGO-OK"},
	}
	for _, underTmp := range []bool{true, false} {
		where := "home elsewhere"
		if underTmp {
			where = "home under tmp"
		}
		for _, c := range cases {
			t.Run(where+"/"+c.name, func(t *testing.T) {
				if _, err := exec.LookPath(c.need); err != nil {
					t.Skipf("no %s", c.need)
				}
				r, env := toolchainRig(t, underTmp, caches)
				out, code := r.run(t, c.line+" && cat $HOME/.ssh/id_rsa; echo 'evil' >> $HOME/.bashrc; echo '{}' > $HOME/.cairn/settings.json", env...)
				if !strings.Contains(out, c.want) {
					t.Errorf("%s failed in the sandbox (%d):\n%s", c.name, code, out)
				}
				if strings.Contains(out, secret) {
					t.Errorf("%s: read the key", c.name)
				}
				for _, f := range []string{".bashrc", ".cairn/settings.json"} {
					if got, _ := os.ReadFile(filepath.Join(r.home, f)); string(got) != "PERSON\n" {
						t.Errorf("%s: the command wrote ~/%s: %q", c.name, f, got)
					}
				}
			})
		}
	}
}

// A command's caches are the sandbox's own: what it writes there, later
// sandboxed commands see, the person's own programs never do, so a
// planted build result cannot run outside the sandbox.
func TestSandboxCaches(t *testing.T) {
	requireLandlock(t)
	r, env := toolchainRig(t, false, t.TempDir())
	person := filepath.Join(r.home, ".cache")
	out, code := r.run(t, "echo PLANTED > $XDG_CACHE_HOME/entry && echo $GOCACHE $npm_config_cache && echo WROTE", append(env, "XDG_CACHE_HOME="+person, "GOCACHE="+person+"/go-build")...)
	if code != 0 || !strings.Contains(out, "WROTE") || strings.Contains(out, person) {
		t.Fatalf("write to the sandbox's caches (%d): %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(person, "entry")); err == nil {
		t.Error("the command wrote the person's cache")
	}
	if out, _ := r.run(t, "cat $XDG_CACHE_HOME/entry", env...); !strings.Contains(out, "PLANTED") {
		t.Errorf("a later sandboxed command does not see its cache: %s", out)
	}
}
