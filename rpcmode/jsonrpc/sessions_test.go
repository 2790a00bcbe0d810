package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestWholeLines(t *testing.T) {
	long := strings.Repeat("x", 100<<10)
	cases := []struct {
		name, text string
		want       int
	}{
		{"empty", "", 0},
		{"whole lines", "a\nb\n", 4},
		{"a line being appended", "a\nb\npart", 4},
		{"no newline at all", "part", 4},
		{"the last newline far from the end", "a\n" + long, 2},
		{"a long last line", long + "\n" + "tail", len(long) + 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if got, err := wholeLines(f); err != nil || got != int64(tc.want) {
				t.Errorf("wholeLines = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func FuzzWholeLines(f *testing.F) {
	f.Add([]byte("a\nb"), uint(3))
	f.Add([]byte(""), uint(0))
	f.Add([]byte("no newline"), uint(40000))
	f.Fuzz(func(t *testing.T, text []byte, pad uint) {
		// pad pushes the last newline past the 32 KiB window.
		text = append(text, bytes.Repeat([]byte{'x'}, int(pad%(70<<10)))...)
		path := filepath.Join(t.TempDir(), "s.jsonl")
		if err := os.WriteFile(path, text, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		want := int64(len(text))
		if i := bytes.LastIndexByte(text, '\n'); i >= 0 {
			want = int64(i + 1)
		}
		if got, err := wholeLines(f); err != nil || got != want {
			t.Fatalf("wholeLines = %d, %v; want %d", got, err, want)
		}
	})
}

// FuzzMarkdownJSON: the markdown of session.export, escaped a message at a
// time, is what json.Marshal wrote for the whole of it, invalid UTF-8 and
// all.
func FuzzMarkdownJSON(f *testing.F) {
	f.Add("id", "q <&>", "a \u2028 \"x\"")
	f.Add("\xe2", "\x80\xa8", "\xff\xfe")
	f.Fuzz(func(t *testing.T, id, prompt, answer string) {
		msgs := []core.Message{
			&core.UserMessage{Content: []core.Content{core.TextBlock(prompt)}, Timestamp: 1},
			&core.AssistantMessage{Content: []core.Content{core.TextBlock(answer)}, Timestamp: 2},
			&core.UserMessage{Content: []core.Content{core.TextBlock(answer + prompt)}, Timestamp: 3},
		}
		var whole strings.Builder
		fmt.Fprintf(&whole, "# Session %s\n", id)
		for _, m := range transcript(msgs) {
			role := "User"
			if m.Role == "assistant" {
				role = "Assistant"
			}
			fmt.Fprintf(&whole, "\n## %s (%s)\n\n%s\n", role, m.Timestamp, m.Content)
		}
		want, _ := json.Marshal(whole.String())
		var got bytes.Buffer
		if _, err := (markdownJSON{id: id, msgs: msgs}).WriteTo(&got); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want) {
			t.Fatalf("got  %q\nwant %q", got.String(), want)
		}
	})
}
