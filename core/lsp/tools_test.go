package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

func resultText(r core.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// TestWriteThenDiagnosticsTool: write through WithDiagnostics in a project
// reached through a link, then the diagnostics tool for the file and for
// the project.
func TestWriteThenDiagnosticsTool(t *testing.T) {
	srv, env := fakeServer(t, "errors")
	real := project(t, map[string]string{"ok.fk": "fine\n"})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	m := New(Config{Dir: link, Servers: []Server{srv}, Env: env, Wait: 10 * time.Second})
	defer m.Close()
	write := WithDiagnostics(&tools.Write{Dir: link}, m, link)
	args, _ := json.Marshal(map[string]string{"path": "a.fk", "content": "one\nERR two\n"})
	r, err := write.Execute(context.Background(), core.ToolCall{ID: "w", Name: "write", Arguments: args}, nil)
	if err != nil || r.IsError {
		t.Fatal(err, resultText(r))
	}
	if got := resultText(r); !strings.Contains(got, "\n\nThe language server (fake) reports 1 new error(s) in this file after the edit:\na.fk:2:1: error: ERR two [fake]") {
		t.Fatalf("write's result: %q", got)
	}
	var details map[string]json.RawMessage
	if json.Unmarshal(r.Details, &details) != nil || !strings.Contains(string(details[DetailsKey]), "a.fk:2:1") {
		t.Fatalf("details: %s", r.Details)
	}
	tool := &Tool{M: m, Dir: link}
	for _, tc := range []struct{ args, want string }{
		{`{"path":"a.fk"}`, "1 diagnostic(s):\na.fk:2:1: error: ERR two [fake]"},
		{`{"path":"ok.fk"}`, "No errors or warnings in ok.fk."},
		{`{}`, "1 diagnostic(s) from " + srv.Command[0] + ":\na.fk:2:1: error: ERR two [fake]"},
		{`{"path":"x.txt"}`, `no language server is configured for ".txt" files`},
	} {
		r, _ := tool.Execute(context.Background(), core.ToolCall{ID: "d", Name: "diagnostics", Arguments: json.RawMessage(tc.args)}, nil)
		if got := resultText(r); !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.args, got, tc.want)
		}
	}
}

func TestDiagnosticsToolBeforeAnyServer(t *testing.T) {
	m := New(Config{Dir: t.TempDir(), Servers: []Server{{Name: "go", Command: []string{"no-such-gopls-here"}, Extensions: []string{".go"}}}})
	tool := &Tool{M: m}
	r, _ := tool.Execute(context.Background(), core.ToolCall{Arguments: json.RawMessage(`{}`)}, nil)
	if !strings.Contains(resultText(r), "No language server is running yet") {
		t.Fatalf("%q", resultText(r))
	}
	r, _ = tool.Execute(context.Background(), core.ToolCall{Arguments: json.RawMessage(`{"path":"/x/a.go"}`)}, nil)
	if !r.IsError || !strings.Contains(resultText(r), "no-such-gopls-here is not on PATH") {
		t.Fatalf("%q", resultText(r))
	}
}

// TestParallelEdits: edits of several files at once share one server and
// each gets its own file's new errors.
func TestParallelEdits(t *testing.T) {
	srv, env := fakeServer(t, "errors")
	dir := project(t, nil)
	m := New(Config{Dir: dir, Servers: []Server{srv}, Env: env, Wait: 20 * time.Second})
	defer m.Close()
	write := WithDiagnostics(&tools.Write{Dir: dir}, m, dir)
	names := []string{"a.fk", "b.fk", "c.fk", "d.fk"}
	got := make(chan string, len(names))
	for _, name := range names {
		go func() {
			args, _ := json.Marshal(map[string]string{"path": name, "content": "ERR in " + name + "\n"})
			r, _ := write.Execute(context.Background(), core.ToolCall{Name: "write", Arguments: args}, nil)
			got <- resultText(r)
		}()
	}
	for range names {
		text := <-got
		name := text[strings.Index(text, "to ")+3 : strings.Index(text, ".fk")+3]
		if !strings.Contains(text, name+":1:1: error: ERR in "+name) || strings.Count(text, "error: ERR") != 1 {
			t.Errorf("%q", text)
		}
	}
	if len(m.slots) != 1 {
		t.Fatalf("%d servers for one root", len(m.slots))
	}
}
