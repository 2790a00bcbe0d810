package lsp

import (
	"context"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// project makes a project directory holding files.
func project(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		write(t, filepath.Join(dir, name), text)
	}
	return dir
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func messages(list []protocol.Diagnostic) []string {
	var out []string
	for _, d := range list {
		out = append(out, d.Message)
	}
	return out
}

func TestAfterReportsOnlyIntroducedErrors(t *testing.T) {
	srv, env := fakeServer(t, "errors")
	dir := project(t, map[string]string{"a.fk": "ERR old\nfine\n"})
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env, Wait: 10 * time.Second})
	defer m.Close()
	path := filepath.Join(dir, "a.fk")
	before := m.Before(context.Background(), path)
	if !before.known || len(before.list) != 1 {
		t.Fatalf("baseline = %+v, want the one old error", before)
	}
	write(t, path, "fine\nERR new one\nERR old\n")
	r := m.After(context.Background(), path, before)
	if !r.Answered || r.Errors != 2 {
		t.Fatalf("report = %+v, want an answer with 2 errors", r)
	}
	if got := messages(r.New); len(got) != 1 || got[0] != "ERR new one" {
		t.Fatalf("new errors = %q, want only the one the edit added", got)
	}
	text := r.Text(dir)
	if !strings.Contains(text, "a.fk:2:1: error: ERR new one [fake]") || strings.Contains(text, "ERR old") {
		t.Fatalf("text = %q", text)
	}
}

func TestAfterNewFileHasNoBaselineErrors(t *testing.T) {
	srv, env := fakeServer(t, "errors")
	dir := project(t, nil)
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env, Wait: 10 * time.Second})
	defer m.Close()
	path := filepath.Join(dir, "sub", "n.fk")
	before := m.Before(context.Background(), path)
	write(t, path, "ERR a\nERR b\n")
	if r := m.After(context.Background(), path, before); len(r.New) != 2 {
		t.Fatalf("report = %+v, want both errors of the new file", r)
	}
}

func TestReportCapsLines(t *testing.T) {
	var list []protocol.Diagnostic
	for i := range 15 {
		list = append(list, protocol.Diagnostic{Message: fmt.Sprintf("e%d", i), Range: protocol.Range{Start: protocol.Position{Line: uint32(i)}}})
	}
	r := Report{Server: "go", Path: "/p/x.go", New: list, Answered: true}
	lines := strings.Split(r.Text("/p"), "\n")
	if len(lines) != 1+MaxShown+1 || lines[len(lines)-1] != "... and 5 more" {
		t.Fatalf("text lines = %q", lines)
	}
}

func TestHungServerNeverHoldsTheCaller(t *testing.T) {
	srv, env := fakeServer(t, "hang")
	dir := project(t, map[string]string{"a.fk": "x\n"})
	wait := 300 * time.Millisecond
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env, Wait: wait})
	defer m.Close()
	path := filepath.Join(dir, "a.fk")
	start := time.Now()
	for range 3 {
		before := m.Before(context.Background(), path)
		if r := m.After(context.Background(), path, before); r.Answered || len(r.New) > 0 {
			t.Fatalf("report from a hung server = %+v", r)
		}
	}
	// The first edit waits at most twice (baseline and answer); later ones
	// do not wait for a baseline from a server known to be slow.
	if took := time.Since(start); took > 4*wait+2*time.Second {
		t.Fatalf("three edits with a hung server took %s, want about %s", took, 4*wait)
	}
	if _, err := m.File(context.Background(), path); err == nil || !strings.Contains(err.Error(), "still starting") {
		t.Fatalf("File on a hung server: %v", err)
	}
}

func TestCrashingServerIsGivenUpAfterMaxStarts(t *testing.T) {
	srv, env := fakeServer(t, "crash")
	dir := project(t, map[string]string{"a.fk": "x\n"})
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env, Wait: 5 * time.Second})
	defer m.Close()
	path := filepath.Join(dir, "a.fk")
	var problems []string
	for range MaxStarts + 2 {
		r := m.After(context.Background(), path, Baseline{})
		if r.Problem != "" {
			problems = append(problems, r.Problem)
		}
	}
	m.mu.Lock()
	starts := 0
	for _, s := range m.slots {
		starts = s.starts
	}
	m.mu.Unlock()
	if starts != MaxStarts {
		t.Fatalf("started %d times, want %d", starts, MaxStarts)
	}
	last := problems[len(problems)-1]
	if !strings.Contains(last, fmt.Sprintf("stopped %d times", MaxStarts)) || !strings.Contains(last, "off for this session") {
		t.Fatalf("problems = %q", problems)
	}
	n := 0
	for _, p := range problems {
		if strings.Contains(p, "off for this session") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("giving up told %d times, want once: %q", n, problems)
	}
}

func TestNoServerOutsideProjectOrForOtherLanguages(t *testing.T) {
	srv, env := fakeServer(t, "errors")
	dir := project(t, map[string]string{"a.txt": "ERR\n"})
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env})
	defer m.Close()
	other := project(t, map[string]string{"b.fk": "ERR\n"})
	for _, p := range []string{filepath.Join(dir, "a.txt"), filepath.Join(other, "b.fk")} {
		if r := m.After(context.Background(), p, m.Before(context.Background(), p)); r.Server != "" || r.Answered {
			t.Fatalf("%s: report %+v, want none", p, r)
		}
	}
	if len(m.slots) != 0 {
		t.Fatalf("servers started: %d", len(m.slots))
	}
}

// goplsPath finds gopls on PATH or in GOPATH/bin; without it the test
// skips, except in CI, where .ci/run installs it.
func goplsPath(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return p
	}
	p := filepath.Join(build.Default.GOPATH, "bin", "gopls")
	if _, err := os.Stat(p); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("gopls is not installed (.ci/run installs golang.org/x/tools/gopls@v0.23.0)")
	}
	t.Skip("gopls not installed: GOBIN=... go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

func TestGoplsReportsTheTypeErrorAnEditIntroduced(t *testing.T) {
	gopls := goplsPath(t)
	dir := project(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {\n\tvar n int = 1\n\t_ = n\n}\n",
	})
	m := New(Config{Dir: dir, Env: os.Environ(), Wait: 60 * time.Second,
		LookPath: func(string) (string, error) { return gopls, nil }})
	defer m.Close()
	path := filepath.Join(dir, "main.go")
	before := m.Before(context.Background(), path)
	if !before.known || len(before.list) != 0 {
		t.Fatalf("baseline = %+v, want known and clean", before)
	}
	write(t, path, "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\t_ = n\n}\n")
	r := m.After(context.Background(), path, before)
	if len(r.New) != 1 || !strings.Contains(r.New[0].Message, `cannot use "one"`) {
		t.Fatalf("report = %+v, want gopls's type error", r)
	}
	if text := r.Text(dir); !strings.Contains(text, "main.go:4:14: error: cannot use \"one\"") {
		t.Fatalf("text = %q", text)
	}
}

// tslsPath finds typescript-language-server as installed from npm in
// testdata/tsls (make test and .ci/run install it); without it the test
// skips, except in CI.
func tslsPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "tsls", "node_modules", ".bin", "typescript-language-server"))
	if err == nil {
		if _, err = os.Stat(p); err == nil {
			if _, err = exec.LookPath("node"); err == nil {
				return p
			}
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("typescript-language-server is not installed: npm ci --prefix core/lsp/testdata/tsls (%v)", err)
	}
	t.Skip("typescript-language-server not installed: npm ci --prefix core/lsp/testdata/tsls")
	return ""
}

func TestTypeScriptLanguageServer(t *testing.T) {
	tsls := tslsPath(t)
	dir := project(t, map[string]string{
		"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}}`,
		"src/a.ts":      "export const n: number = 1;\n",
	})
	srv := DefaultServers()[1]
	srv.Command = []string{tsls, "--stdio"}
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: os.Environ(), Wait: 60 * time.Second})
	defer m.Close()
	path := filepath.Join(dir, "src", "a.ts")
	before := m.Before(context.Background(), path)
	if !before.known || len(before.list) != 0 {
		t.Fatalf("baseline = %+v, want known and clean", before)
	}
	write(t, path, "export const n: number = \"one\";\n")
	r := m.After(context.Background(), path, before)
	if len(r.New) != 1 || !strings.Contains(r.New[0].Message, "Type 'string' is not assignable to type 'number'") {
		t.Fatalf("report = %+v, want tsserver's type error", r)
	}
	if text := r.Text(dir); !strings.Contains(text, "src/a.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript]") {
		t.Fatalf("text = %q", text)
	}
}
