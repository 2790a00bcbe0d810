package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	write := NewWrite(dir)
	res := run(t, write, map[string]any{"path": "a/b/new.txt", "content": "héllo\n"})
	if res.IsError || text(res) != "Successfully wrote 7 bytes to a/b/new.txt" || res.Details != nil {
		t.Errorf("write = %q %s", text(res), res.Details)
	}
	if got := readBack(t, filepath.Join(dir, "a/b/new.txt")); got != "héllo\n" {
		t.Errorf("file = %q", got)
	}

	// Overwriting keeps the file's mode.
	p := filepath.Join(dir, "script.sh")
	if err := os.WriteFile(p, []byte("old"), 0o755); err != nil {
		t.Fatal(err)
	}
	res = run(t, write, map[string]any{"path": p, "content": "new"})
	if info, _ := os.Stat(p); readBack(t, p) != "new" || info.Mode().Perm() != 0o755 {
		t.Errorf("overwrite: %q mode %v", readBack(t, p), info.Mode())
	}
	// and reports the change, as an edit does.
	var d WriteDetails
	if err := json.Unmarshal(res.Details, &d); err != nil || !strings.Contains(d.Patch, "-old") || !strings.Contains(d.Patch, "+new") {
		t.Errorf("overwrite details = %s (%v)", res.Details, err)
	}
	if res = run(t, write, map[string]any{"path": p, "content": "new"}); res.Details != nil {
		t.Errorf("an unchanged write reports %s", res.Details)
	}

	// A path through a file cannot be created.
	res = run(t, write, map[string]any{"path": "script.sh/x", "content": ""})
	if !res.IsError || !strings.HasPrefix(text(res), "Could not create the directory for script.sh/x: ") {
		t.Errorf("write under a file = %q", text(res))
	}
}

func TestEdit(t *testing.T) {
	cases := []struct {
		name    string
		file    string
		edits   []map[string]string
		want    string // file afterwards
		result  string
		isError bool
		diff    string
		first   int
	}{
		{
			name: "one edit", file: "hello world\nsecond line\n",
			edits:  []map[string]string{{"oldText": "hello world", "newText": "hello pi"}},
			want:   "hello pi\nsecond line\n",
			result: "Successfully replaced 1 block(s) in f.txt.",
			diff:   "-1 hello world\n+1 hello pi\n 2 second line", first: 1,
		},
		{
			name: "several edits against the original", file: "a\nb\nc\nd\n",
			edits:  []map[string]string{{"oldText": "d", "newText": "D"}, {"oldText": "a\n", "newText": "A\nA2\n"}},
			want:   "A\nA2\nb\nc\nD\n",
			result: "Successfully replaced 2 block(s) in f.txt.",
			diff:   "-1 a\n+1 A\n+2 A2\n 2 b\n 3 c\n-4 d\n+5 D", first: 1,
		},
		{
			name: "missing text", file: "abc\n",
			edits: []map[string]string{{"oldText": "xyz", "newText": "q"}},
			want:  "abc\n", isError: true,
			result: "Could not find the exact text in f.txt. The old text must match exactly including all whitespace and newlines.",
		},
		{
			name: "missing text of one of several", file: "abc\n",
			edits: []map[string]string{{"oldText": "abc", "newText": "q"}, {"oldText": "xyz", "newText": "q"}},
			want:  "abc\n", isError: true,
			result: "Could not find edits[1] in f.txt. The oldText must match exactly including all whitespace and newlines.",
		},
		{
			name: "ambiguous", file: "x = 1\nx = 1\nx = 1\n",
			edits: []map[string]string{{"oldText": "x = 1", "newText": "x = 2"}},
			want:  "x = 1\nx = 1\nx = 1\n", isError: true,
			result: "Found 3 occurrences of the text in f.txt. The text must be unique. Please provide more context to make it unique.",
		},
		{
			name: "ambiguous one of several", file: "a\nb\nb\n",
			edits: []map[string]string{{"oldText": "a", "newText": "A"}, {"oldText": "b", "newText": "B"}},
			want:  "a\nb\nb\n", isError: true,
			result: "Found 2 occurrences of edits[1] in f.txt. Each oldText must be unique. Please provide more context to make it unique.",
		},
		{
			name: "overlap", file: "abcdef\n",
			edits: []map[string]string{{"oldText": "abcd", "newText": "1"}, {"oldText": "cdef", "newText": "2"}},
			want:  "abcdef\n", isError: true,
			result: "edits[0] and edits[1] overlap in f.txt. Merge them into one edit or target disjoint regions.",
		},
		{
			name: "no change", file: "same\n",
			edits: []map[string]string{{"oldText": "same", "newText": "same"}},
			want:  "same\n", isError: true,
			result: "No changes made to f.txt. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected.",
		},
		{
			name: "empty old text", file: "x\n",
			edits: []map[string]string{{"oldText": "", "newText": "y"}},
			want:  "x\n", isError: true,
			result: "oldText must not be empty in f.txt.",
		},
		{
			name: "CRLF kept", file: "one\r\ntwo\r\nthree\r\n",
			edits:  []map[string]string{{"oldText": "two\nthree", "newText": "2\n3"}},
			want:   "one\r\n2\r\n3\r\n",
			result: "Successfully replaced 1 block(s) in f.txt.",
			diff:   " 1 one\n-2 two\n-3 three\n+2 2\n+3 3", first: 2,
		},
		{
			name: "BOM kept", file: "\uFEFFfirst\nsecond\n",
			edits:  []map[string]string{{"oldText": "first", "newText": "1st"}},
			want:   "\uFEFF1st\nsecond\n",
			result: "Successfully replaced 1 block(s) in f.txt.",
			diff:   "-1 first\n+1 1st\n 2 second", first: 1,
		},
		{
			name: "smart quotes and trailing spaces tolerated", file: "say(“hi”)   \nnext\n",
			edits:  []map[string]string{{"oldText": `say("hi")`, "newText": `say("hello")`}},
			want:   "say(\"hello\")\nnext\n",
			result: "Successfully replaced 1 block(s) in f.txt.",
			diff:   "-1 say(\"hi\")\n+1 say(\"hello\")\n 2 next", first: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"f.txt": c.file})
			res := run(t, NewEdit(dir), map[string]any{"path": "f.txt", "edits": c.edits})
			if text(res) != c.result || res.IsError != c.isError {
				t.Errorf("result = %q (error %v)\nwant     %q", text(res), res.IsError, c.result)
			}
			if got := readBack(t, filepath.Join(dir, "f.txt")); got != c.want {
				t.Errorf("file = %q, want %q", got, c.want)
			}
			if c.isError {
				if string(res.Details) != "{}" {
					t.Errorf("error details = %s", res.Details)
				}
				return
			}
			d := details[EditDetails](t, res)
			if d.Diff != c.diff || d.FirstChangedLine != c.first {
				t.Errorf("diff = %q first %d\nwant   %q first %d", d.Diff, d.FirstChangedLine, c.diff, c.first)
			}
		})
	}
}

func TestEditAcceptsEditsAsAJSONString(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"f.txt": "alpha beta\n"})
	edit := NewEdit(dir)
	if res := run(t, edit, map[string]any{"path": "f.txt", "edits": `[{"oldText":"beta","newText":"BETA"}]`}); res.IsError {
		t.Fatalf("edits as a JSON string: %q", text(res))
	}
	if got := readBack(t, filepath.Join(dir, "f.txt")); got != "alpha BETA\n" {
		t.Errorf("file = %q", got)
	}
}

func TestEditMissingFile(t *testing.T) {
	dir := t.TempDir()
	res := run(t, NewEdit(dir), map[string]any{"path": "nope.txt", "edits": []map[string]string{{"oldText": "a", "newText": "b"}}})
	if !res.IsError || text(res) != "File not found: "+filepath.Join(dir, "nope.txt") {
		t.Errorf("edit of a missing file = %q", text(res))
	}
}

// Parallel edits of one file are serialised, so none is lost.
func TestConcurrentEditsOfOneFile(t *testing.T) {
	dir := t.TempDir()
	const n = 20
	var b strings.Builder
	for i := range n {
		b.WriteString("line " + string(rune('a'+i)) + "\n")
	}
	writeFiles(t, dir, map[string]string{"f.txt": b.String()})
	edit := NewEdit(dir)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			old := "line " + string(rune('a'+i)) + "\n"
			res := runCtx(t, context.Background(), edit, map[string]any{"path": "f.txt",
				"edits": []map[string]string{{"oldText": old, "newText": strings.ToUpper(old)}}}, nil)
			if res.IsError {
				t.Errorf("edit %d: %s", i, text(res))
			}
		})
	}
	wg.Wait()
	if got := readBack(t, filepath.Join(dir, "f.txt")); got != strings.ToUpper(b.String()) {
		t.Errorf("file = %q", got)
	}
}

func TestLineDiffContext(t *testing.T) {
	before := numberedLines(30)
	after := strings.Replace(strings.Replace(before, "line 3\n", "line three\n", 1), "line 25\n", "line twenty-five\n", 1)
	diff, first := lineDiff(before, after)
	want := strings.Join([]string{
		"  1 line 1",
		"  2 line 2",
		"- 3 line 3",
		"+ 3 line three",
		"  4 line 4",
		"  5 line 5",
		"  6 line 6",
		"  7 line 7",
		"    ...",
		" 21 line 21",
		" 22 line 22",
		" 23 line 23",
		" 24 line 24",
		"-25 line 25",
		"+25 line twenty-five",
		" 26 line 26",
		" 27 line 27",
		" 28 line 28",
		" 29 line 29",
		"    ...",
	}, "\n")
	if diff != want || first != 3 {
		t.Errorf("diff (first %d):\n%s\nwant:\n%s", first, diff, want)
	}
}
