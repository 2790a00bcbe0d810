package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

func TestMain(m *testing.M) {
	// The test binary stands in for cairn in sandboxed commands.
	sandbox.RunIfChild()
	shell.RunIfReaper()
	goleak.VerifyTestMain(m)
}

// run calls tool with args encoded as JSON and fails the test if it returns
// an error rather than a result.
func run(t *testing.T, tool core.Tool, args any) core.ToolResult {
	t.Helper()
	return runCtx(t, context.Background(), tool, args, nil)
}

func runCtx(t *testing.T, ctx context.Context, tool core.Tool, args any, update func(core.ToolUpdate)) core.ToolResult {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	res, err := tool.Execute(ctx, core.ToolCall{ID: "call_1", Name: tool.Spec().Name, Arguments: raw}, update)
	if err != nil {
		t.Fatalf("%s returned an error: %v", tool.Spec().Name, err)
	}
	return res
}

// text joins the text blocks of a result.
func text(r core.ToolResult) string {
	var parts []string
	for _, c := range r.Content {
		if c.Type == core.ContentText {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// writeFiles creates files (path -> content) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readBack(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func details[T any](t *testing.T, r core.ToolResult) T {
	t.Helper()
	var v T
	if len(r.Details) == 0 {
		t.Fatalf("result has no details: %q", text(r))
	}
	if err := json.Unmarshal(r.Details, &v); err != nil {
		t.Fatalf("details %s: %v", r.Details, err)
	}
	return v
}

func TestNewReturnsEveryToolWithItsCategoryAndKind(t *testing.T) {
	want := []struct {
		name     string
		category core.ApprovalCategory
		kind     core.ToolKind
	}{
		{"read", core.CategoryInfo, core.KindRead},
		{"bash", core.CategoryExec, core.KindExecute},
		{"edit", core.CategoryEdit, core.KindEdit},
		{"write", core.CategoryEdit, core.KindEdit},
		{"grep", core.CategoryInfo, core.KindSearch},
		{"find", core.CategoryInfo, core.KindSearch},
		{"ls", core.CategoryInfo, core.KindRead},
	}
	got := New(t.TempDir())
	if len(got) != len(want) {
		t.Fatalf("New returned %d tools, want %d", len(got), len(want))
	}
	for i, w := range want {
		tool := got[i]
		if tool.Spec().Name != w.name || tool.Category() != w.category || tool.Kind() != w.kind {
			t.Errorf("tool %d = %s/%s/%s, want %s/%s/%s", i, tool.Spec().Name, tool.Category(), tool.Kind(), w.name, w.category, w.kind)
		}
	}
}

// schemaShape is a parameter schema with its descriptions left out: what
// must be identical to pi's.
func schemaShape(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("schema is not JSON: %v\n%s", err, raw)
	}
	var strip func(any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, x := range v {
				if k != "description" {
					out[k] = strip(x)
				}
			}
			return out
		case []any:
			for i := range v {
				v[i] = strip(v[i])
			}
		}
		return v
	}
	return strip(v)
}

func TestSchemasMatchPi(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "pi-tool-schemas.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]json.RawMessage
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for _, tool := range New(t.TempDir()) {
		spec := tool.Spec()
		w, ok := want[spec.Name]
		if !ok {
			t.Errorf("no pi schema for %s", spec.Name)
			continue
		}
		got, _ := json.Marshal(schemaShape(t, spec.Parameters))
		exp, _ := json.Marshal(schemaShape(t, w))
		if string(got) != string(exp) {
			t.Errorf("%s parameters differ from pi's:\n got %s\nwant %s", spec.Name, got, exp)
		}
		if spec.Description == "" {
			t.Errorf("%s has no description", spec.Name)
		}
	}
}

func TestInvalidArgumentsAreReportedToTheModel(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		tool core.Tool
		args string
		want string
	}{
		{NewRead(dir), `{}`, "Invalid arguments for read: path is required"},
		{NewRead(dir), `{"path":3}`, "Invalid arguments for read: path must be a string"},
		{NewRead(dir), `{"path":"a","offset":"x"}`, "Invalid arguments for read: offset must be a number"},
		{NewWrite(dir), `{"path":"a"}`, "Invalid arguments for write: content is required"},
		{NewEdit(dir), `{"path":"a","edits":[]}`, "Invalid arguments for edit: edits must contain at least one replacement"},
		{NewEdit(dir), `{"path":"a","edits":[{"oldText":"x"}]}`, "Invalid arguments for edit: edits[0].newText is required"},
		{NewBash(dir), `{"command":"true","timeout":"soon"}`, "Invalid arguments for bash: timeout must be a number"},
		{NewGrep(dir), `{"pattern":"x","ignoreCase":"maybe"}`, "Invalid arguments for grep: ignoreCase must be a boolean"},
		{NewFind(dir), `not json`, "Invalid arguments for find: the arguments must be one JSON object"},
		{NewFind(dir), `{"pattern":`, "Invalid arguments for find: the arguments are not valid JSON"},
	}
	for _, c := range cases {
		res, err := c.tool.Execute(context.Background(), core.ToolCall{Arguments: json.RawMessage(c.args)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.HasPrefix(text(res), c.want) {
			t.Errorf("%s %s = %q (error %v), want prefix %q", c.tool.Spec().Name, c.args, text(res), res.IsError, c.want)
		}
	}
}

func TestLenientArguments(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f.txt": "1\n2\n3\n4\n5"})
	res := run(t, NewRead(dir), map[string]any{"path": "f.txt", "offset": "2", "limit": 2.0})
	if got, want := text(res), "2\n3\n\n[2 more lines in file. Use offset=4 to continue.]"; got != want {
		t.Errorf("read with string offset = %q, want %q", got, want)
	}
}

// Arguments a lenient decoder reads one way and the approval gate another
// are refused by every tool, so a tool called directly never runs what a
// question did not show.
func TestAmbiguousArgumentsAreRefused(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f.txt": "alpha\n"})
	cases := []struct {
		tool core.Tool
		args string
		want string
	}{
		{NewBash(dir), `{"command":"true","Command":"touch x"}`, `Invalid arguments for bash: "command" and "Command" differ only in case`},
		{NewBash(dir), `{"Command":"touch x"}`, `Invalid arguments for bash: "Command" is not a parameter; parameter names are case-sensitive: use "command"`},
		{NewBash(dir), `{"command":"true","command":"touch x"}`, `Invalid arguments for bash: "command" appears twice`},
		{NewWrite(dir), `{"path":"f.txt","Path":"x","content":"y"}`, `Invalid arguments for write: "path" and "Path" differ only in case`},
		{NewWrite(dir), `{"path":"x","content":"y","mode":"0777"}`, `Invalid arguments for write: "mode" is not a parameter`},
		{NewEdit(dir), `{"path":"f.txt","edits":[{"oldText":"alpha","newText":"b","NewText":"x"}]}`, `Invalid arguments for edit: edits[0]: "newText" and "NewText" differ only in case`},
		{NewEdit(dir), `{"path":"f.txt","edits":"[{\"oldText\":\"alpha\",\"newText\":\"b\",\"newText\":\"x\"}]"}`, `Invalid arguments for edit: edits must be an array`},
		{NewEdit(dir), `{"path":"f.txt","oldText":"alpha","newText":"b"}`, `Invalid arguments for edit: "oldText" is not a parameter`},
		{NewRead(dir), `{"path":"f.txt","PATH":"/etc/passwd"}`, `Invalid arguments for read: "path" and "PATH" differ only in case`},
		{NewGrep(dir), `{"pattern":"a","Path":"/"}`, `Invalid arguments for grep: "Path" is not a parameter`},
		{NewFind(dir), `{"pattern":"*","path":".","path":"/"}`, `Invalid arguments for find: "path" appears twice`},
		{NewLs(dir), `{"path":".","Limit":1}`, `Invalid arguments for ls: "Limit" is not a parameter`},
	}
	for _, c := range cases {
		res, err := c.tool.Execute(context.Background(), core.ToolCall{Arguments: json.RawMessage(c.args)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.HasPrefix(text(res), c.want) {
			t.Errorf("%s %s = %q (error %v), want prefix %q", c.tool.Spec().Name, c.args, text(res), res.IsError, c.want)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || readBack(t, filepath.Join(dir, "f.txt")) != "alpha\n" {
		t.Fatalf("a refused call changed the directory: %v", entries)
	}
}
