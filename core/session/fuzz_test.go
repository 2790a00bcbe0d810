package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// expectedEntries is the oracle for FuzzOpen: for each line after the
// header, the id encoding/json finds if the line is an entry, or "" if it
// must be skipped with a warning; keyed by the line's offset.
func expectedEntries(data []byte) (header int, want map[int64]string, blank map[int64]bool) {
	want = map[int64]string{}
	blank = map[int64]bool{}
	header = -1
	var off int64
	for len(data) > 0 {
		line := data
		next := len(data)
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, next = data[:i], i+1
		}
		switch {
		case len(bytes.Trim(line, " \t\r")) == 0:
			blank[off] = true
		case header < 0:
			header = int(off)
		default:
			want[off] = entryID(line)
		}
		off += int64(next)
		data = data[next:]
	}
	return header, want, blank
}

func entryID(line []byte) string {
	if !json.Valid(line) {
		return ""
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber() // 1e999 is valid JSON, if not a float64
	if dec.Decode(&m) != nil {
		return ""
	}
	typ, ok := m["type"].(string)
	if !ok || typ == "session" {
		return ""
	}
	id, _ := m["id"].(string)
	switch m["parentId"].(type) {
	case nil, string:
	default:
		return ""
	}
	return id
}

// FuzzOpen opens arbitrary bytes as a session file. It must never panic;
// when the file opens, exactly the lines encoding/json sees as entries are
// indexed (a corrupt line never swallows or shifts its neighbours), every
// other non-blank line is a warning, and appending leaves a file that
// opens with the same entries plus the new one.
func FuzzOpen(f *testing.F) {
	for _, name := range []string{"testdata/pi-0.73.1.jsonl", "testdata/tree.jsonl"} {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)-37])                                      // cut mid-line
		f.Add(bytes.Replace(data, []byte("\n{"), []byte("\n\x00{"), 3)) // damaged lines
	}
	hdr := `{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/"}` + "\n"
	for _, body := range []string{
		``,
		`{"type":"message","id":"a","parentId":null,"message":{"role":"user","content":"hi"}}`,
		`{"type":"message","id":"a","parentId":"a","message":{"role":"assistant","content":[{"type":"audio"}]}}`,
		`{"type":"label","id":"b","parentId":"zz","targetId":"a","label":"\ud800"}` + "\n" + `[1,2]` + "\n" + `{"type":"x","id":"c","parentId":7}`,
		`{"type":"custom_message","id":"c","content":[{"type":"text","text":1}],"display":"no"}`,
		`{"type":"compaction","id":"d","parentId":null,"firstKeptEntryId":"d","tokensBefore":1e999}`,
		`{"type":"session","id":"e"}` + "\n" + `{"type":"message","id":"f","parentId":"e"` + "\r\n",
	} {
		f.Add([]byte(hdr + body))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		file, err := Open(path)
		if err != nil {
			if !errors.Is(err, ErrNotSession) && !errors.Is(err, ErrOldVersion) {
				t.Fatalf("Open failed with an unexpected error: %v", err)
			}
			return
		}
		defer file.Close()
		_, want, _ := expectedEntries(data)
		checkIndex(t, file, want)

		// Everything reachable decodes and encodes again as valid JSON.
		ctx := file.Context()
		if _, err := json.Marshal(ctx.Messages); err != nil {
			t.Fatalf("context does not encode: %v", err)
		}
		for _, n := range file.Nodes() {
			e, err := file.Entry(n.ID)
			if err != nil {
				t.Fatal(err)
			}
			if e.ID != n.ID || e.Payload == nil {
				t.Fatalf("entry %q decoded as %+v", n.ID, e)
			}
			if b, err := appendEntry(nil, &e); err != nil || !json.Valid(b) {
				t.Fatalf("entry %q re-encodes as %s, %v", n.ID, b, err)
			}
		}

		// Appending keeps every entry and adds one that opens again.
		added, err := file.AppendMessage(user("appended"))
		if err != nil {
			t.Fatal(err)
		}
		file.Close()
		again, err := Open(path)
		if err != nil {
			t.Fatalf("reopen after append: %v", err)
		}
		defer again.Close()
		if got, want := len(again.Nodes()), len(file.Nodes()); got != want {
			t.Fatalf("reopened with %d entries, want %d", got, want)
		}
		if again.Leaf() != added {
			t.Fatalf("reopened leaf %q, want the appended %q", again.Leaf(), added)
		}
		msgs := again.Context().Messages
		if last := msgs[len(msgs)-1]; userText(&MessageEntry{last}) != "appended" {
			t.Fatalf("appended message not last in context: %+v", last)
		}
	})
}

// checkIndex compares the file's index with the oracle.
func checkIndex(t *testing.T, f *File, want map[int64]string) {
	t.Helper()
	entries := 0
	for _, id := range want {
		if id != "" {
			entries++
		}
	}
	if len(f.nodes) != entries {
		t.Fatalf("indexed %d entries, want %d (warnings %v)", len(f.nodes), entries, f.warnings)
	}
	for _, n := range f.nodes {
		id, ok := want[n.off]
		if !ok || id != n.id {
			t.Fatalf("entry %q at offset %d; the line there has id %q (is a line: %v)", n.id, n.off, id, ok)
		}
	}
	bad := 0
	for _, w := range f.warnings {
		if w.Kept != (want[w.Offset] != "") {
			t.Fatalf("warning %v (kept=%v) for line with id %q", w, w.Kept, want[w.Offset])
		}
		if !w.Kept {
			bad++
		}
	}
	if bad != len(want)-entries {
		t.Fatalf("%d warnings for %d bad lines: %v", bad, len(want)-entries, f.warnings)
	}
}
