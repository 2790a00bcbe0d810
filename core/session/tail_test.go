package session

import (
	"bytes"
	"os"
	"reflect"
	"strings"
	"testing"
)

// The tail is the end of what Open gives: on a straight session, after a
// branch (the last entry's parent is not the line before it), and with a
// broken last line and a blank line, which both skip.
func TestReadTailMatchesOpen(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	for i := range 30 {
		mustAppend(t, f, &MessageEntry{user("q" + string(rune('a'+i%26)))})
		mustAppend(t, f, &MessageEntry{assistant("a" + string(rune('a'+i%26)))})
	}
	path := f.FilePath()
	check := func(name string, limit int) {
		t.Helper()
		tail, err := ReadTail(path, limit)
		if err != nil {
			t.Fatal(err)
		}
		all := mustOpen(t, path).Context().Messages
		want := texts(all[max(0, len(all)-limit):])
		if got := texts(tail.Messages); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tail %v\nwant %v", name, got, want)
		}
		if tail.Complete != (limit >= len(all)) {
			t.Errorf("%s: complete %v for %d of %d messages", name, tail.Complete, len(tail.Messages), len(all))
		}
	}
	check("straight", 7)
	check("all of it", 1000)

	// Back to the fifth answer and on from there: the new branch's entries
	// are last in the file, their parent far above them.
	fifth := f.ActiveBranch()[9]
	if err := f.Branch(fifth.ID); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, f, &MessageEntry{user("other way")})
	mustAppend(t, f, &MessageEntry{assistant("other answer")})
	f.Close()
	check("branched", 6)

	appendBytes(t, path, []byte("\n"+`{"type":"message","id":"cut`))
	check("broken last line", 5)
}

// A file whose end is one line longer than the part read gives no
// messages, and says nothing is complete; a file of a header alone gives
// none either.
func TestReadTailLimits(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("before")})
	mustAppend(t, f, &MessageEntry{assistant("answer")})
	mustAppend(t, f, &MessageEntry{user(strings.Repeat("x", tailChunk+10))})
	f.Close()
	tail, err := ReadTail(f.FilePath(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail.Messages) != 0 || tail.Complete {
		t.Errorf("a line longer than the part read: %+v", tail)
	}
	if got := tailOf([]byte(`{"type":"session","version":3,"id":"x","timestamp":"t","cwd":"/p"}`+"\n"), 10); len(got.Messages) != 0 {
		t.Errorf("a header alone: %+v", got)
	}
	if _, err := ReadTail(f.FilePath()+".missing", 10); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
}

// FuzzReadTail: whatever the bytes, the tail is at most what was asked
// for, and of a file Open reads, it is the end of Open's messages when no
// compaction or unparented entry is in the way.
func FuzzReadTail(f *testing.F) {
	s := Store{Root: f.TempDir()}
	file := s.Create("/p")
	file.Append(&MessageEntry{user("q")})
	file.Append(&MessageEntry{assistant("a")})
	file.Close()
	seed, _ := os.ReadFile(file.FilePath())
	f.Add(seed, 3)
	f.Add([]byte("{}\n{\"type\":\"message\"}\n"), 1)
	f.Add(bytes.Repeat([]byte("\n"), 5), 2)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = limit%50 + 1
		if limit < 1 {
			limit = -limit + 1
		}
		tail := tailOf(data, limit)
		if len(tail.Messages) > limit {
			t.Fatalf("%d messages for a limit of %d", len(tail.Messages), limit)
		}
	})
}
