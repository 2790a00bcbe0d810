package synaps

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/")

// TestGoldenTranscript locks the wire shape of a whole exchange: every
// frame, byte for byte, with the session id replaced by <session>.
func TestGoldenTranscript(t *testing.T) {
	p := faux.New(faux.Options{ChunkSize: 6},
		faux.Response{Thinking: "Look first.", Content: []core.Content{{Type: core.ContentToolCall, ID: "call_1", Name: "bash", Arguments: []byte(`{"command":"rm -rf build"}`)}},
			Usage: &core.Usage{Input: 120, Output: 30, CacheRead: 100, CacheWrite: 20}},
		faux.Response{Text: "I may not run that; here is <b>why</b> & more.", Usage: &core.Usage{Input: 200, Output: 12}},
		faux.Response{Text: "partial", Error: "upstream exploded", Usage: &core.Usage{Input: 250, Output: 1}},
	)
	r := newRig(t, rigConfig{faux: p})
	var lines []string
	cmds := []string{
		`{"type":"get_state","id":"1"}`,
		`{"type":"abort","id":"2"}`,
		`not json`,
		`{"type":"prompt","id":"3","message":"clean the build","attachments":[{"path":"/work/build.log"}]}`,
		`{"type":"prompt","id":"4","message":"again"}`,
		`{"type":"get_session_stats","id":"5"}`,
		`{"type":"set_model","id":"6","model":"faux/faux-1"}`,
		`{"type":"get_available_models","id":"7"}`,
		`{"type":"new_session","id":"8"}`,
	}
	// Each command's last frame: the response (or error) that answers it.
	ends := []func(string) bool{
		func(l string) bool { return strings.Contains(l, `"id":"1"`) },
		func(l string) bool { return strings.Contains(l, `"id":"2"`) },
		func(l string) bool { return strings.HasPrefix(l, `{"type":"error","id":null`) },
		func(l string) bool { return strings.HasPrefix(l, `{"type":"response","id":"3"`) },
		func(l string) bool { return strings.HasPrefix(l, `{"type":"response","id":"4"`) },
		func(l string) bool { return strings.Contains(l, `"id":"5"`) },
		func(l string) bool { return strings.Contains(l, `"id":"6"`) },
		func(l string) bool { return strings.Contains(l, `"id":"7"`) },
		func(l string) bool { return strings.Contains(l, `"id":"8"`) },
	}
	lines = append(lines, r.rawLine())
	for i, c := range cmds {
		r.raw(c + "\n")
		for {
			l := r.rawLine()
			lines = append(lines, l)
			if ends[i](l) {
				break
			}
		}
	}
	got := strings.Join(lines, "\n") + "\n"
	for _, id := range []string{r.sess.Conversation().ID} {
		got = strings.ReplaceAll(got, id, "<new session>")
	}
	got = replaceSessionIDs(got)
	path := filepath.Join("testdata", "transcript.jsonl")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("transcript differs from %s (run with -update after checking):\n%s", path, got)
	}
}

// replaceSessionIDs replaces the values of "session_id" keys that are not
// already placeholders with <session>.
func replaceSessionIDs(s string) string {
	const key = `"session_id":"`
	var b strings.Builder
	for {
		i := strings.Index(s, key)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i+len(key)])
		s = s[i+len(key):]
		j := strings.IndexByte(s, '"')
		if v := s[:j]; strings.HasPrefix(v, "<") {
			b.WriteString(v)
		} else {
			b.WriteString("<session>")
		}
		s = s[j:]
	}
}
