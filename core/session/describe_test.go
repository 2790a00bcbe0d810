package session

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// A session listed again is read again once it changed, and not before;
// a line cut short by a crash is not counted.
func TestDescribeSeesChanges(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("first")})
	mustAppend(t, f, &MessageEntry{assistant("answer")})
	path := f.FilePath()
	info, err := describe(path)
	if err != nil || info.MessageCount != 2 || info.FirstMessage != "first" {
		t.Fatalf("%+v, %v", info, err)
	}
	mustAppend(t, f, &MessageEntry{user("second")})
	f.Close()
	if info, err = describe(path); err != nil || info.MessageCount != 3 {
		t.Fatalf("after an append: %+v, %v", info, err)
	}
	last := info.LastEntry
	appendBytes(t, path, []byte(`{"type":"message","id":"cut","parentId":null,"timestamp":"2026-03-15T10:00:00.100Z","message":{"role":"us`))
	if info, err = describe(path); err != nil || info.MessageCount != 3 || !info.LastEntry.Equal(last) {
		t.Fatalf("after a line cut short: %+v, %v (last entry was %v)", info, err, last)
	}
	if _, ok := described.get(path, mustStat(t, path)); !ok {
		t.Error("an unchanged file is not kept")
	}
}

// FuzzLeadingType: the type read from a line's start is the value of the
// line's first member, named "type", as a JSON reader reads it, and the
// line ends its object.
func FuzzLeadingType(f *testing.F) {
	f.Add([]byte(`{"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"hi"}}`))
	f.Add([]byte(`{"type":"model_change","id":"b","parentId":"a","timestamp":"t","provider":"p","modelId":"m"}  `))
	f.Add([]byte(`{"type":"mess\"age","id":"a"}`))
	f.Add([]byte(`{"type":"message","id":"a`))
	f.Fuzz(func(t *testing.T, line []byte) {
		typ, ok := leadingType(line)
		if !ok {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		var toks []any
		for range 3 {
			tok, err := dec.Token()
			if err != nil {
				t.Fatalf("leadingType %q of a line that does not start an object with it: %v", typ, err)
			}
			toks = append(toks, tok)
		}
		if toks[0] != json.Delim('{') || toks[1] != "type" || toks[2] != string(typ) {
			t.Fatalf("leadingType %q, the line starts %v", typ, toks)
		}
		if end := bytes.TrimRight(line, " \t\r"); end[len(end)-1] != '}' {
			t.Fatalf("leadingType %q of a line that does not end an object", typ)
		}
	})
}

func mustStat(t *testing.T, path string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}
