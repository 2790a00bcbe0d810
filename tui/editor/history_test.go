package editor

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// submitAll types and submits each text (lines joined with shift+enter).
func submitAll(d *driver, texts ...string) {
	for _, text := range texts {
		for i, part := range strings.Split(text, "\n") {
			if i > 0 {
				d.keys("shift+enter")
			}
			d.typ(part)
		}
		d.keys("enter")
	}
	d.take()
}

func TestHistoryBrowsingKeepsTheDraft(t *testing.T) {
	d := newDriver(t, Options{})
	submitAll(d, "first", "second", "third")
	d.typ("draft ").paste(strings.Repeat("pasted line\n", 12))
	draft := d.m.Value()

	steps := []struct {
		key  string
		want string
	}{
		{"up", "third"},
		{"up", "second"},
		{"up", "first"},
		{"up", "first"}, // nothing older
		{"down", "second"},
		{"down", "third"},
		{"down", draft},
		{"down", draft}, // nothing newer
	}
	for i, s := range steps {
		d.keys(s.key)
		if got := d.m.Value(); got != s.want {
			t.Fatalf("step %d (%s): value %q, want %q", i, s.key, got, s.want)
		}
	}
	if !strings.Contains(d.m.View(), "[paste #1 +12 lines]") {
		t.Fatal("the restored draft lost its paste marker")
	}
}

func TestHistoryOnlyFromTheFirstAndLastRow(t *testing.T) {
	d := newDriver(t, Options{})
	submitAll(d, "old")
	d.typ("one").keys("shift+enter").typ("two")
	d.keys("up")
	if got := d.m.Value(); got != "one\ntwo" {
		t.Fatalf("up on the second row recalled history: %q", got)
	}
	if row, _ := d.cursor(); row != 0 {
		t.Fatalf("up on the second row did not move the cursor up")
	}
	d.keys("up")
	if got := d.m.Value(); got != "old" {
		t.Fatalf("up on the first row gave %q, want the history entry", got)
	}
	d.keys("down")
	if got := d.m.Value(); got != "one\ntwo" {
		t.Fatalf("down gave %q, want the draft back", got)
	}
	// With the cursor back on the first row of the draft, down moves it.
	d.keys("ctrl+home", "down")
	if row, _ := d.cursor(); row != 1 || d.m.Value() != "one\ntwo" {
		t.Fatalf("down on the first row of two did not just move the cursor")
	}
}

func TestRecalledMultiLineEntryPutsCursorOnItsFirstLine(t *testing.T) {
	d := newDriver(t, Options{})
	submitAll(d, "older", "line a\nline b")
	d.keys("up")
	if row, col := d.cursor(); row != 0 || col != 6 {
		t.Fatalf("cursor at %d:%d, want the end of the first line", row, col)
	}
	d.keys("up")
	if got := d.m.Value(); got != "older" {
		t.Fatalf("second up gave %q, want the older entry", got)
	}
}

func TestHistorySkipsConsecutiveRepeats(t *testing.T) {
	d := newDriver(t, Options{})
	submitAll(d, "a", "b", "b", "a")
	if got := d.m.s.hist.entries; !reflect.DeepEqual(got, []string{"a", "b", "a"}) {
		t.Fatalf("history %q", got)
	}
}

func TestHistoryPersistsAcrossEditors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "history.jsonl")
	d := newDriver(t, Options{HistoryFile: path})
	texts := []string{"one", "two", "two", "tab\there <b>&", "multi\nline"}
	submitAll(d, texts...)

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), "\n"); got != 4 {
		t.Fatalf("file has %d lines, want 4 (the repeat is not saved):\n%s", got, data)
	}
	if !strings.Contains(string(data), `"tab\there <b>&"`) {
		t.Fatalf("entries are not plain JSON lines:\n%s", data)
	}

	d2 := newDriver(t, Options{HistoryFile: path})
	if got, want := d2.m.s.hist.entries, []string{"one", "two", "tab\there <b>&", "multi\nline"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %q, want %q", got, want)
	}
	d2.keys("up")
	if got := d2.m.Value(); got != "multi\nline" {
		t.Fatalf("up after load gave %q", got)
	}
	if msgs := d2.take(); len(msgs) != 0 {
		t.Fatalf("clean load sent %v", msgs)
	}
}

func TestDamagedHistoryFileWarnsAndKeepsWorking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	content := `{"text":"good one"}` + "\n" +
		"not json at all\n" +
		`{"other":"field"}` + "\n" +
		`{"text":"good two"}` + "\n" +
		`{"text":"cut sh` // a crash mid-write
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, Options{HistoryFile: path})
	var warning error
	for _, msg := range d.take() {
		if w, ok := msg.(WarningMsg); ok {
			warning = w.Err
		}
	}
	if warning == nil || !strings.Contains(warning.Error(), "3 damaged") {
		t.Fatalf("warning %v, want one naming 3 damaged lines", warning)
	}
	if got := d.m.s.hist.entries; !reflect.DeepEqual(got, []string{"good one", "good two"}) {
		t.Fatalf("loaded %q", got)
	}

	submitAll(d, "after")
	entries, _, damaged, err := readEntries(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	if damaged != 3 || entries[len(entries)-1] != "after" {
		t.Fatalf("after appending: entries %q, %d damaged; the new entry must not join the cut line", entries, damaged)
	}
}

func TestUnreadableHistoryFileWarns(t *testing.T) {
	dir := t.TempDir() // a directory where a file is expected
	d := newDriver(t, Options{HistoryFile: dir})
	msgs := d.take()
	if len(msgs) != 1 {
		t.Fatalf("got %v, want one warning", msgs)
	}
	if _, ok := msgs[0].(WarningMsg); !ok {
		t.Fatalf("got %T, want WarningMsg", msgs[0])
	}
	submitAll(d, "still works")
	if got := d.m.s.hist.entries; len(got) != 1 {
		t.Fatalf("in-memory history %q", got)
	}
}

func TestSaveFailureWarns(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, Options{HistoryFile: filepath.Join(blocker, "history.jsonl")})
	d.take()
	d.typ("x").keys("enter")
	var warned bool
	for _, msg := range d.take() {
		if w, ok := msg.(WarningMsg); ok && w.Err != nil {
			warned = true
		}
	}
	if !warned {
		t.Fatal("a failed save sent no warning")
	}
}

func TestHistoryIsCappedAndTheFileTrimmed(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	var all []string
	for i := range 25 {
		all = append(all, "entry "+strconv.Itoa(i))
	}
	if err := appendEntries(path, all); err != nil {
		t.Fatal(err)
	}
	d := newDriver(t, Options{HistoryFile: path, HistoryLimit: 10})
	if got := d.m.s.hist.entries; !reflect.DeepEqual(got, all[15:]) {
		t.Fatalf("loaded %q, want the newest 10", got)
	}
	entries, total, _, err := readEntries(path, 100)
	if err != nil {
		t.Fatal(err)
	}
	if total != 10 || !reflect.DeepEqual(entries, all[15:]) {
		t.Fatalf("file holds %d entries %q; past twice the limit it is trimmed to the newest 10", total, entries)
	}
	submitAll(d, "new")
	if got := d.m.s.hist.entries; len(got) != 10 || got[9] != "new" || got[0] != "entry 16" {
		t.Fatalf("after a submit history is %q", got)
	}
}

func TestHistoryLoadedAfterSubmitsGoesFirst(t *testing.T) {
	m := New(Options{})
	m.s.hist.add("typed early")
	cmd := m.s.historyLoaded(historyLoaded{entries: []string{"old 1", "typed early"}})
	if cmd != nil {
		t.Fatal("warning without a reason")
	}
	if got := m.s.hist.entries; !reflect.DeepEqual(got, []string{"old 1", "typed early"}) {
		t.Fatalf("merged %q", got)
	}
	cmd = m.s.historyLoaded(historyLoaded{warning: errors.New("damaged")})
	if msg, ok := cmd().(WarningMsg); !ok || msg.Err.Error() != "damaged" {
		t.Fatalf("load warning came out as %v", cmd())
	}
}

func TestBrowsingPastACommandDoesNotOpenThePopup(t *testing.T) {
	d := newDriver(t, Options{Commands: []Command{{Name: "help"}, {Name: "hello"}}})
	submitAll(d, "first", "/help", "last")
	d.keys("up", "up")
	if d.m.Value() != "/help" || d.m.CompletionOpen() {
		t.Fatalf("value %q, popup open %v", d.m.Value(), d.m.CompletionOpen())
	}
	d.keys("up")
	if d.m.Value() != "first" {
		t.Fatalf("up on a recalled command gave %q, want the older entry", d.m.Value())
	}
	d.keys("down", "backspace")
	if got := d.items(); len(got) == 0 {
		t.Fatal("editing a recalled command does not complete it")
	}
}

// TestHistoryNamedPipe: a history file that is a named pipe is reported,
// at once, rather than read.
func TestHistoryNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, _, _, err := readEntries(path, 10); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading the history blocked on a named pipe")
	}
}

// TestHistoryAppendNamedPipe: saving history to a named pipe fails at once
// instead of blocking once the pipe is full.
func TestHistoryAppendNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.jsonl")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- appendEntries(path, []string{strings.Repeat("x", 1<<17)}) }()
	select {
	case err := <-done:
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("appending to the history blocked on a named pipe")
	}
}
