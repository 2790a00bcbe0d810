package acp

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/golden")

var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// golden compares everything cairn wrote so far, one frame a line, with
// testdata/golden/<name>.jsonl after replacing the rig's working directory
// with <cwd>, session ids with <session-N> in order of appearance and the
// shell a client terminal runs with <shell>.
// go test -run <Test> -update rewrites the file.
func golden(t *testing.T, r *rig, name string) {
	t.Helper()
	var b strings.Builder
	for _, l := range r.out.all() {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	got := strings.ReplaceAll(b.String(), r.cwd, "<cwd>")
	// The shell a client terminal is asked to run differs by machine.
	got = strings.ReplaceAll(got, `"command":"`+shell.Path("")+`"`, `"command":"<shell>"`)
	ids := map[string]string{}
	got = uuidPattern.ReplaceAllStringFunc(got, func(id string) string {
		if _, ok := ids[id]; !ok {
			ids[id] = "<session-" + string(rune('1'+len(ids))) + ">"
		}
		return ids[id]
	})
	path := filepath.Join("testdata", "golden", name+".jsonl")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(gl), len(wl)) {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("transcript differs from %s at line %d:\n got: %s\nwant: %s\n(go test -run %s -update rewrites it)", path, i+1, g, w, t.Name())
			}
		}
	}
}
