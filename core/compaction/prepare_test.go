package compaction

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func settingsKeeping(tokens int) Settings {
	s := DefaultSettings()
	s.KeepRecentTokens = tokens
	return s
}

func TestPrepareAfterEarlierCompaction(t *testing.T) {
	previous := FinishSummary("## Goal\nShip it.", &Preparation{
		ReadFiles:     []string{"docs/a.md", "old.go"},
		ModifiedFiles: []string{"main.go"},
	})
	msgs := append([]core.Message{&core.CompactionSummaryMessage{Summary: previous, Timestamp: 1}}, session()...)

	p, ok := Prepare(msgs, "", settingsKeeping(40))
	if !ok {
		t.Fatal("Prepare found nothing to compact")
	}
	// The cut falls at the session's user message 12, index 13 here.
	if p.FirstKept != 13 || msgs[p.FirstKept] != p.Kept[0] || len(p.Kept) != 2 {
		t.Fatalf("FirstKept = %d, kept %s", p.FirstKept, roles(p.Kept))
	}
	if len(p.Summarize) != 12 || p.Summarize[0] != msgs[1] || p.IsSplitTurn() {
		t.Fatalf("summarize %s (split %v)", roles(p.Summarize), p.IsSplitTurn())
	}
	if p.PreviousSummary != "## Goal\nShip it." {
		t.Fatalf("PreviousSummary = %q", p.PreviousSummary)
	}
	// a.go and b.go were read, b.go then edited; main.go and the read files
	// come from the previous summary.
	if want := []string{"a.go", "docs/a.md", "old.go"}; !slices.Equal(p.ReadFiles, want) {
		t.Errorf("ReadFiles = %q, want %q", p.ReadFiles, want)
	}
	if want := []string{"b.go", "main.go"}; !slices.Equal(p.ModifiedFiles, want) {
		t.Errorf("ModifiedFiles = %q, want %q", p.ModifiedFiles, want)
	}
	if want := ContextTokens(msgs); p.TokensBefore != want || want == 0 {
		t.Errorf("TokensBefore = %d, want %d", p.TokensBefore, want)
	}
}

func TestPrepareGivenPreviousSummaryWins(t *testing.T) {
	msgs := append([]core.Message{&core.CompactionSummaryMessage{Summary: "from the context"}}, session()...)
	p, ok := Prepare(msgs, "from the entry", settingsKeeping(40))
	if !ok || p.PreviousSummary != "from the entry" {
		t.Fatalf("PreviousSummary = %q (ok %v)", p.PreviousSummary, ok)
	}
}

func TestPrepareSplitTurn(t *testing.T) {
	msgs := session()
	p, ok := Prepare(msgs, "", settingsKeeping(150))
	if !ok {
		t.Fatal("Prepare found nothing to compact")
	}
	// The cut is at assistant message 10, inside the turn started by user
	// message 4.
	if p.FirstKept != 10 || !p.IsSplitTurn() {
		t.Fatalf("FirstKept = %d, split %v", p.FirstKept, p.IsSplitTurn())
	}
	if roles(p.Summarize) != roles(msgs[:4]) || roles(p.TurnPrefix) != roles(msgs[4:10]) || p.TurnPrefix[0] != msgs[4] {
		t.Fatalf("summarize %s, turn prefix %s", roles(p.Summarize), roles(p.TurnPrefix))
	}
	// The turn prefix's files count too: b.go was read and edited in it.
	if !slices.Equal(p.ReadFiles, []string{"a.go"}) || !slices.Equal(p.ModifiedFiles, []string{"b.go"}) {
		t.Fatalf("files read %q, modified %q", p.ReadFiles, p.ModifiedFiles)
	}
	// Appending to Summarize must not write into the caller's messages.
	turnStart := msgs[4]
	_ = append(p.Summarize, user("x"))
	if msgs[4] != turnStart {
		t.Fatal("Summarize shares spare capacity with the conversation")
	}
}

func TestPrepareNothingToCompact(t *testing.T) {
	tests := map[string][]core.Message{
		"empty":             nil,
		"already compacted": {&core.CompactionSummaryMessage{Summary: "s"}},
		"small enough":      {user("hi"), assistant("hello")},
		"small after a compaction": {
			&core.CompactionSummaryMessage{Summary: text(30000)}, user("hi"), assistant("hello"),
		},
	}
	for name, msgs := range tests {
		t.Run(name, func(t *testing.T) {
			if p, ok := Prepare(msgs, "", DefaultSettings()); ok || p != nil {
				t.Fatalf("Prepare = %+v, true; want nothing to compact", p)
			}
		})
	}
}

func TestFileOperations(t *testing.T) {
	msgs := []core.Message{
		user("go"),
		assistant("", call("1", "read", map[string]any{"path": "z.go", "offset": 10}),
			call("2", "write", map[string]string{"path": "new.go", "content": "package x"}),
			call("3", "edit", map[string]string{"path": "z.go"}),
			call("4", "bash", map[string]string{"command": "cat y.go", "path": "ignored.go"}),
			call("5", "read", map[string]string{}),
			core.Content{Type: core.ContentToolCall, ID: "6", Name: "read", Arguments: []byte(`not json`)},
			call("7", "read", map[string]string{"path": "y.go"})),
		result("1", "read", "..."), result("2", "write", "ok"), result("3", "edit", "ok"),
		result("4", "bash", "..."), result("5", "read", "error"), result("6", "read", "error"), result("7", "read", "..."),
		user(text(100)),
	}
	p, ok := Prepare(msgs, "", settingsKeeping(50))
	if !ok {
		t.Fatal("Prepare found nothing to compact")
	}
	if !slices.Equal(p.ReadFiles, []string{"y.go"}) || !slices.Equal(p.ModifiedFiles, []string{"new.go", "z.go"}) {
		t.Fatalf("files read %q, modified %q", p.ReadFiles, p.ModifiedFiles)
	}
}

func TestFinishSummary(t *testing.T) {
	p := &Preparation{ReadFiles: []string{"a.go", "b.go"}, ModifiedFiles: []string{"c.go"}}
	want := "S\n\n<read-files>\na.go\nb.go\n</read-files>\n\n<modified-files>\nc.go\n</modified-files>"
	if got := FinishSummary("S", p); got != want {
		t.Fatalf("FinishSummary =\n%s\nwant\n%s", got, want)
	}
	if got := FinishSummary("S", &Preparation{ModifiedFiles: []string{"c.go"}}); got != "S\n\n<modified-files>\nc.go\n</modified-files>" {
		t.Fatalf("modified only = %q", got)
	}
	if got := FinishSummary("S", &Preparation{}); got != "S" {
		t.Fatalf("no files = %q", got)
	}
	// A finished summary reads back to the same summary and lists.
	f := newFileOps()
	if back := f.takeFrom(FinishSummary("S\n", p)); back != "S" {
		t.Fatalf("summary read back as %q", back)
	}
	read, modified := f.lists()
	if !slices.Equal(read, p.ReadFiles) || !slices.Equal(modified, p.ModifiedFiles) {
		t.Fatalf("lists read back as %q, %q", read, modified)
	}
	if strings.Contains(f.takeFrom("no lists here"), "<") {
		t.Fatal("takeFrom changed a summary without lists")
	}
}
