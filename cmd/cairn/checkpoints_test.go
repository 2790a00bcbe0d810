package main

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/checkpoint"
)

// TestCheckpointsCommand: list shows a recorded checkpoint, gc reports
// what it kept, and anything else is a usage error.
func TestCheckpointsCommand(t *testing.T) {
	dir := t.TempDir()
	if r := invoke(t, map[string]string{"CAIRN_DIR": dir}, nil, "checkpoints", "list"); r.code != exitOK || !strings.Contains(r.stdout, "No checkpoints for") {
		t.Fatalf("empty list: %+v", r)
	}
	// A project of its own, so the scan stays small.
	project := t.TempDir()
	t.Chdir(project)
	st, err := checkpoint.Open(checkpoint.Options{Project: project, Dir: checkpoint.DirFor(dir, project)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Record(context.Background(), checkpoint.PhaseBefore, "fix the tests"); err != nil {
		t.Fatal(err)
	}
	if r := invoke(t, map[string]string{"CAIRN_DIR": dir}, nil, "checkpoints", "list"); r.code != exitOK || !strings.Contains(r.stdout, "fix the tests") || !strings.Contains(r.stdout, "before") {
		t.Fatalf("list: %+v", r)
	}
	if r := invoke(t, map[string]string{"CAIRN_DIR": dir}, nil, "checkpoints", "gc"); r.code != exitOK || !strings.Contains(r.stdout, "1 checkpoints kept") {
		t.Fatalf("gc: %+v", r)
	}
	if r := invoke(t, map[string]string{"CAIRN_DIR": dir}, nil, "checkpoints", "prune"); r.code != exitUsage {
		t.Fatalf("unknown subcommand: %+v", r)
	}
}
