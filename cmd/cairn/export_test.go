//go:build !headless

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportFlag: cairn --export FILE [OUT] writes the page and prints its
// path; a missing file or a second output is a clear error.
func TestExportFlag(t *testing.T) {
	script := writeScript(t, `{"responses": [{"text": "exported *answer*"}]}`)
	dir := t.TempDir()
	vars := map[string]string{"CAIRN_FAUX_SCRIPT": script, "CAIRN_DIR": dir}
	empty := ""
	if r := invoke(t, vars, &empty, "--provider", "faux", "-p", "hi"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	sessions, _ := filepath.Glob(filepath.Join(dir, "sessions", "*", "*.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("sessions: %v", sessions)
	}
	out := filepath.Join(t.TempDir(), "page.html")
	r := invoke(t, vars, &empty, "--export", sessions[0], out)
	if r.code != 0 || r.stdout != out+"\n" {
		t.Fatalf("%+v", r)
	}
	if page, err := os.ReadFile(out); err != nil || !strings.Contains(string(page), "<em>answer</em>") {
		t.Fatalf("page: %v\n%.1000s", err, page)
	}
	missing := filepath.Join(dir, "nope.jsonl")
	if r := invoke(t, vars, &empty, "--export", missing); r.code != exitFailure || !strings.Contains(r.stderr, "cannot export "+missing) {
		t.Errorf("missing file: %+v", r)
	}
	if r := invoke(t, vars, &empty, "--export", sessions[0], "a.html", "b.html"); r.code != exitUsage || !strings.Contains(r.stderr, "at most one output file") {
		t.Errorf("two outputs: %+v", r)
	}
}
