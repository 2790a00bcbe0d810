package main

import (
	"encoding/json"
	"fmt"
	"go/build"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/lsp"
	"github.com/cairn-dev/cairn/core/settings"
)

// toolCallServer is a Chat Completions server whose first answer is one
// call of tool with args and whose later answers say "done"; it keeps
// the body of every request.
func toolCallServer(t *testing.T, tool string, args any) (*httptest.Server, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var bodies []string
	argText, _ := json.Marshal(args)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(body))
		n := len(bodies)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		var delta, finish string
		if n == 1 {
			call, _ := json.Marshal(map[string]any{"index": 0, "id": "call_1", "type": "function",
				"function": map[string]string{"name": tool, "arguments": string(argText)}})
			delta, finish = fmt.Sprintf(`{"role":"assistant","tool_calls":[%s]}`, call), "tool_calls"
		} else {
			delta, finish = `{"role":"assistant","content":"done"}`, "stop"
		}
		fmt.Fprintf(w, "data: {\"id\":\"c%d\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":%s,\"finish_reason\":null}]}\n\n", n, delta)
		fmt.Fprintf(w, "data: {\"id\":\"c%d\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":%q}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1,\"total_tokens\":6}}\n\n", n, finish)
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), bodies...)
	}
}

// goplsDir finds the directory of gopls (PATH, then GOPATH/bin); without
// it the test skips, except in CI, where .ci/run installs it.
func goplsDir(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("gopls"); err == nil {
		return filepath.Dir(p)
	}
	dir := filepath.Join(build.Default.GOPATH, "bin")
	if _, err := os.Stat(filepath.Join(dir, "gopls")); err == nil {
		return dir
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("gopls is not installed (.ci/run installs golang.org/x/tools/gopls@v0.23.0)")
	}
	t.Skip("gopls not installed: go install golang.org/x/tools/gopls@v0.23.0")
	return ""
}

// lspProject is a trusted Go project with a clean main.go, and the
// environment cairn runs in it with.
func lspProject(t *testing.T, path string) (string, map[string]string) {
	t.Helper()
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(project, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	writeFile(t, filepath.Join(project, "main.go"), "package main\n\nfunc main() {\n\tvar n int = 1\n\t_ = n\n}\n")
	t.Chdir(project)
	t.Setenv("PATH", path)
	vars := map[string]string{"CAIRN_DIR": t.TempDir(), "DEEPSEEK_API_KEY": "sk-test", "PATH": path, "HOME": os.Getenv("HOME")}
	return project, vars
}

var breakMain = map[string]any{"path": "main.go", "edits": []map[string]string{{"oldText": "var n int = 1", "newText": `var n int = "one"`}}}

// TestEditTypeErrorFromGoplsReachesTheNextRequest: the model's edit
// introduces a type error; the request after it carries gopls's message.
func TestEditTypeErrorFromGoplsReachesTheNextRequest(t *testing.T) {
	dir := goplsDir(t)
	_, vars := lspProject(t, dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeFile(t, filepath.Join(vars["CAIRN_DIR"], "settings.json"), `{"lsp": {"waitMs": 60000}}`)
	srv, bodies := toolCallServer(t, "edit", breakMain)
	r := invoke(t, vars, nil, "--provider", "deepseek", "--model", "deepseek-chat", "--base-url", srv.URL, "--approval", "yolo",
		"--trust-project", "--no-session", "--mode", "json", "-p", "change n")
	got := bodies()
	if r.code != 0 || len(got) != 2 {
		t.Fatalf("exit %d, %d requests\n%s", r.code, len(got), r.stderr)
	}
	if !strings.Contains(got[1], `main.go:4:14: error: cannot use \"one\" (untyped string constant) as int value in variable declaration`) {
		t.Fatalf("the second request lacks gopls's error:\n%s", got[1])
	}
	if strings.Contains(got[0], "diagnostics") && !strings.Contains(got[0], `"name":"diagnostics"`) {
		t.Fatalf("first request: %s", got[0])
	}
}

// TestHungLanguageServerDoesNotHoldTheTurn: a language server that never
// answers costs an edit at most the wait, and the turn ends.
func TestHungLanguageServerDoesNotHoldTheTurn(t *testing.T) {
	bin := t.TempDir()
	// A "gopls" that reads its input and never answers.
	writeFile(t, filepath.Join(bin, "gopls"), "#!/bin/sh\nexec cat >/dev/null\n")
	if err := os.Chmod(filepath.Join(bin, "gopls"), 0o755); err != nil {
		t.Fatal(err)
	}
	project, vars := lspProject(t, bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	writeFile(t, filepath.Join(vars["CAIRN_DIR"], "settings.json"), `{"lsp": {"waitMs": 500}}`)
	srv, bodies := toolCallServer(t, "edit", breakMain)
	start := time.Now()
	r := invoke(t, vars, nil, "--provider", "deepseek", "--model", "deepseek-chat", "--base-url", srv.URL, "--approval", "yolo",
		"--trust-project", "--no-session", "--mode", "json", "-p", "change n")
	took := time.Since(start)
	if r.code != 0 || len(bodies()) != 2 {
		t.Fatalf("exit %d, %d requests\n%s", r.code, len(bodies()), r.stderr)
	}
	if took > 5*time.Second {
		t.Fatalf("the turn took %s with a hung server and a 500 ms wait", took)
	}
	if b, _ := os.ReadFile(filepath.Join(project, "main.go")); !strings.Contains(string(b), `"one"`) {
		t.Fatal("the edit was not made")
	}
}

// TestNoLanguageServerInAnUntrustedProject: an untrusted project's files
// never reach a language server, which would run its build files.
func TestNoLanguageServerInAnUntrustedProject(t *testing.T) {
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "started")
	writeFile(t, filepath.Join(bin, "gopls"), "#!/bin/sh\ntouch "+marker+"\nexec cat >/dev/null\n")
	if err := os.Chmod(filepath.Join(bin, "gopls"), 0o755); err != nil {
		t.Fatal(err)
	}
	project, vars := lspProject(t, bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	// A control file the person has not trusted.
	writeFile(t, filepath.Join(project, "AGENTS.md"), "Be brief.\n")
	srv, bodies := toolCallServer(t, "edit", breakMain)
	r := invoke(t, vars, nil, "--provider", "deepseek", "--model", "deepseek-chat", "--base-url", srv.URL, "--approval", "yolo",
		"--no-session", "--mode", "json", "-p", "change n")
	if r.code != 0 || len(bodies()) != 2 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a language server started in an untrusted project")
	}
	if strings.Contains(bodies()[0], `"name":"diagnostics"`) {
		t.Fatal("the diagnostics tool is offered in an untrusted project")
	}
}

// A project nobody trusted (it has no control files) gets no language
// server that runs its code (rust-analyzer runs cargo: build scripts, proc
// macros, a rustc wrapper), unless the person's settings name it.
func TestNoProjectCodeServerWithoutTrust(t *testing.T) {
	dir := t.TempDir()
	has := func(servers []lsp.Server) bool {
		return slices.ContainsFunc(servers, func(s lsp.Server) bool { return s.Name == "rust" })
	}
	st, _ := settings.Load(filepath.Join(dir, "none.json"), "")
	if has(languageServers(st, false)) {
		t.Error("rust-analyzer offered in a project nobody trusted")
	}
	if !has(languageServers(st, true)) {
		t.Error("rust-analyzer missing in a trusted project")
	}
	own := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(own, []byte(`{"lsp": {"servers": {"rust": {"command": ["rust-analyzer"]}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	st, _ = settings.Load(own, "")
	if !has(languageServers(st, false)) {
		t.Error("rust-analyzer named in the person's settings was left out")
	}
}
