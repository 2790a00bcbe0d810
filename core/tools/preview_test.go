package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestEditPreviewMatchesExecute(t *testing.T) {
	cases := []struct {
		name  string
		file  string
		edits []map[string]string
	}{
		{"one edit", "hello world\nsecond line\n", []map[string]string{{"oldText": "hello world", "newText": "hello pi"}}},
		{"several edits", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n",
			[]map[string]string{{"oldText": "l", "newText": "L"}, {"oldText": "a\n", "newText": "A\nA2\n"}}},
		{"crlf and bom", "\uFEFFone\r\ntwo\r\nthree\r\n", []map[string]string{{"oldText": "two\nthree", "newText": "2\n3"}}},
		{"relaxed quotes", "say(\u201chi\u201d)  \nnext\n", []map[string]string{{"oldText": `say("hi")`, "newText": `say("hello")`}}},
		{"long file, change in the middle", strings.Repeat("line\n", 30) + "target\n" + strings.Repeat("line\n", 30),
			[]map[string]string{{"oldText": "target", "newText": "changed\nand more"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			previewDir, runDir := t.TempDir(), t.TempDir()
			writeFiles(t, previewDir, map[string]string{"f.txt": c.file})
			writeFiles(t, runDir, map[string]string{"f.txt": c.file})
			args := map[string]any{"path": "f.txt", "edits": c.edits}
			raw, _ := json.Marshal(args)

			diff, first, err := EditPreview(previewDir, raw)
			if err != nil {
				t.Fatalf("EditPreview: %v", err)
			}
			if got := readBack(t, filepath.Join(previewDir, "f.txt")); got != c.file {
				t.Errorf("EditPreview changed the file to %q", got)
			}
			res := run(t, NewEdit(runDir), args)
			if res.IsError {
				t.Fatalf("Execute failed: %s", text(res))
			}
			d := details[EditDetails](t, res)
			if diff != d.Diff || first != d.FirstChangedLine {
				t.Errorf("preview %q first %d\nexecute %q first %d", diff, first, d.Diff, d.FirstChangedLine)
			}
		})
	}
}

func TestEditPreviewErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f.txt": "x = 1\nx = 1\n", "g.txt": "abc\n"})
	cases := []struct {
		name string
		args string
		want string // prefix of the error, which is Execute's result text
	}{
		{"not json", `{"path":`, "Invalid arguments for edit: the arguments are not valid JSON"},
		{"no path", `{"edits":[{"oldText":"a","newText":"b"}]}`, "Invalid arguments for edit: path is required"},
		{"no edits", `{"path":"g.txt"}`, "Invalid arguments for edit: edits must contain at least one replacement"},
		{"missing file", `{"path":"nope.txt","edits":[{"oldText":"a","newText":"b"}]}`, "File not found: " + filepath.Join(dir, "nope.txt")},
		{"not found", `{"path":"g.txt","edits":[{"oldText":"xyz","newText":"b"}]}`, "Could not find the exact text in g.txt."},
		{"ambiguous", `{"path":"f.txt","edits":[{"oldText":"x = 1","newText":"x = 2"}]}`, "Found 2 occurrences of the text in f.txt."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diff, first, err := EditPreview(dir, json.RawMessage(c.args))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %v, want prefix %q", err, c.want)
			}
			if diff != "" || first != 0 {
				t.Errorf("diff %q first %d alongside an error", diff, first)
			}
			// Execute reports the same problem to the model.
			res, rerr := NewEdit(dir).Execute(context.Background(), core.ToolCall{Name: "edit", Arguments: json.RawMessage(c.args)}, nil)
			if rerr != nil {
				t.Fatal(rerr)
			}
			if !res.IsError || text(res) != err.Error() {
				t.Errorf("Execute says %q, preview %q", text(res), err)
			}
		})
	}
	if got := readBack(t, filepath.Join(dir, "f.txt")); got != "x = 1\nx = 1\n" {
		t.Errorf("file changed: %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "nope.txt")); err == nil {
		t.Error("a missing file was created")
	}
}
