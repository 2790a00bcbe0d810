package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/regfile"
)

// testStore returns a store in a temporary directory with a clock that
// ticks one millisecond per reading.
func testStore(t *testing.T) Store {
	t.Helper()
	now := time.Date(2026, 3, 15, 10, 0, 0, 0, time.UTC)
	return Store{Root: filepath.Join(t.TempDir(), "sessions"), Now: func() time.Time {
		now = now.Add(time.Millisecond)
		return now
	}}
}

func user(text string) *core.UserMessage {
	return &core.UserMessage{Content: []core.Content{core.TextBlock(text)}, Timestamp: 1}
}

func assistant(text string) *core.AssistantMessage {
	return &core.AssistantMessage{Content: []core.Content{core.TextBlock(text)}, API: "openai-completions",
		Provider: "fake", Model: "fake-gpt", StopReason: core.StopEnd, Timestamp: 2}
}

func mustAppend(t *testing.T, f *File, p Payload) Entry {
	t.Helper()
	e, err := f.Append(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func mustOpen(t *testing.T, path string) *File {
	t.Helper()
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// texts returns the text of each context message, prefixed by its role.
func texts(msgs []core.Message) []string {
	var out []string
	for _, m := range msgs {
		var text string
		switch m := m.(type) {
		case *core.UserMessage:
			text = userText(&MessageEntry{m})
		case *core.AssistantMessage:
			text = m.Text()
		case *core.CompactionSummaryMessage:
			text = m.Summary
		case *core.BranchSummaryMessage:
			text = m.Summary
		case *core.CustomMessage:
			text = m.Content[0].Text
		case *core.BashExecutionMessage:
			text = m.Command
		}
		out = append(out, string(m.MessageRole())+":"+text)
	}
	return out
}

func lines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func TestLazyWrite(t *testing.T) {
	s := testStore(t)
	f := s.Create("/home/u/proj")
	defer f.Close()
	dir := filepath.Join(s.Root, "--home-u-proj--")
	if filepath.Dir(f.FilePath()) != dir || !strings.HasSuffix(f.FilePath(), "_"+f.Header().ID+".jsonl") ||
		!strings.HasPrefix(filepath.Base(f.FilePath()), "2026-03-15T10-00-00-001Z_") {
		t.Errorf("path %s", f.FilePath())
	}
	mustAppend(t, f, &ModelChangeEntry{Provider: "fake", ModelID: "fake-gpt"})
	mustAppend(t, f, &ThinkingLevelChangeEntry{ThinkingLevel: core.ThinkingOff})
	mustAppend(t, f, &MessageEntry{user("hello")})
	mustAppend(t, f, &SessionInfoEntry{Name: "lazy"})
	if _, err := os.Stat(s.Root); !errors.Is(err, os.ErrNotExist) || f.Persisted() {
		t.Fatalf("something was written before the first assistant message: %v", err)
	}
	if got := texts(f.Context().Messages); !reflect.DeepEqual(got, []string{"user:hello"}) {
		t.Errorf("context before writing: %v", got)
	}
	mustAppend(t, f, &MessageEntry{assistant("hi")})
	if !f.Persisted() {
		t.Fatal("not persisted after the first assistant message")
	}
	got := lines(t, f.FilePath())
	if len(got) != 6 || !strings.HasPrefix(got[0], `{"type":"session","version":3,"id":"`+f.Header().ID+`","timestamp":"2026-03-15T10:00:00.001Z","cwd":"/home/u/proj"}`) {
		t.Fatalf("file after flush:\n%s", strings.Join(got, "\n"))
	}
	mustAppend(t, f, &MessageEntry{user("more")})
	if got := lines(t, f.FilePath()); len(got) != 7 {
		t.Fatalf("append after flush: %d lines", len(got))
	}
	if fi, _ := os.Stat(f.FilePath()); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v", fi.Mode())
	}

	// A session that never gets an answer is never written.
	g := s.Create("/home/u/other")
	mustAppend(t, g, &MessageEntry{user("unanswered")})
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(g.FilePath()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("unanswered session written: %v", err)
	}
}

func TestAppendAndReopen(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	for _, p := range []Payload{
		&ModelChangeEntry{Provider: "fake", ModelID: "fake-gpt"},
		&MessageEntry{user("q1")},
		&MessageEntry{assistant("a1")},
		&CustomEntry{CustomType: "ext", Data: json.RawMessage(`{"n":1}`)},
		&MessageEntry{&core.BashExecutionMessage{Command: "ls", Output: "a\n", ExitCode: ptr(0), Timestamp: 3}},
		&MessageEntry{user("q2")},
		&MessageEntry{assistant("a2")},
	} {
		mustAppend(t, f, p)
	}
	before := f.ActiveBranch()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g := mustOpen(t, f.FilePath())
	if w := g.Warnings(); len(w) != 0 {
		t.Fatal(w)
	}
	after := g.ActiveBranch()
	a, _ := json.Marshal(before)
	b, _ := json.Marshal(after)
	if !bytes.Equal(a, b) {
		t.Errorf("reopened branch differs:\n%s\n%s", a, b)
	}
	if before[0].ParentID != nil || *before[1].ParentID != before[0].ID {
		t.Errorf("parent links: %+v", before[:2])
	}
	want := []string{"user:q1", "assistant:a1", "bashExecution:ls", "user:q2", "assistant:a2"}
	if got := texts(g.Context().Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("context %v, want %v", got, want)
	}
	e := mustAppend(t, g, &MessageEntry{user("q3")})
	if *e.ParentID != after[len(after)-1].ID {
		t.Errorf("appended after reopen with parent %s", *e.ParentID)
	}
}

// writeSession writes a persisted session with n user/assistant pairs and
// returns its path and entries.
func writeSession(t *testing.T, s Store, n int) (string, []Entry) {
	t.Helper()
	f := s.Create("/p")
	defer f.Close()
	for i := range n {
		mustAppend(t, f, &MessageEntry{user("q" + string(rune('1'+i)))})
		mustAppend(t, f, &MessageEntry{assistant("a" + string(rune('1'+i)))})
	}
	return f.FilePath(), f.ActiveBranch()
}

func appendBytes(t *testing.T, path string, b []byte) {
	t.Helper()
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fh.Write(b); err != nil {
		t.Fatal(err)
	}
	fh.Close()
}

// TestTruncatedLastLine simulates kill -9 in the middle of a write.
func TestTruncatedLastLine(t *testing.T) {
	s := testStore(t)
	path, entries := writeSession(t, s, 2)
	full, _ := appendEntry(nil, &Entry{Type: TypeMessage, ID: "deadbeef", ParentID: &entries[3].ID, Timestamp: ts,
		Payload: &MessageEntry{assistant(strings.Repeat("long answer ", 100))}})
	appendBytes(t, path, full[:len(full)/2])

	f := mustOpen(t, path)
	w := f.Warnings()
	if len(w) != 1 || !w[0].Truncated || w[0].Line != 6 || !strings.Contains(w[0].Error(), "incomplete last line") {
		t.Fatalf("warnings %v", w)
	}
	if got := len(f.ActiveBranch()); got != 4 || f.Leaf() != entries[3].ID {
		t.Fatalf("branch has %d entries, leaf %s", got, f.Leaf())
	}
	e := mustAppend(t, f, &MessageEntry{user("after the crash")})
	if *e.ParentID != entries[3].ID {
		t.Errorf("new entry's parent %s", *e.ParentID)
	}
	got := lines(t, path)
	if len(got) != 7 || got[5] != string(full[:len(full)/2]) {
		t.Fatalf("file after append:\n%s", strings.Join(got, "\n"))
	}
	for i, l := range got {
		if i != 5 && !json.Valid([]byte(l)) {
			t.Errorf("line %d is not valid JSON: %s", i+1, l)
		}
	}
	g := mustOpen(t, path)
	w = g.Warnings()
	if len(w) != 1 || w[0].Truncated || w[0].Line != 6 {
		t.Errorf("warnings after reopening: %v", w)
	}
	if want := []string{"user:q1", "assistant:a1", "user:q2", "assistant:a2", "user:after the crash"}; !reflect.DeepEqual(texts(g.Context().Messages), want) {
		t.Errorf("context %v", texts(g.Context().Messages))
	}
}

// TestMissingFinalNewline: a complete last line without its newline is an
// entry; the next one still starts on a line of its own.
func TestMissingFinalNewline(t *testing.T) {
	s := testStore(t)
	path, entries := writeSession(t, s, 1)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.TrimSuffix(data, []byte("\n")), 0o600)
	f := mustOpen(t, path)
	if len(f.Warnings()) != 0 || f.Leaf() != entries[1].ID {
		t.Fatalf("warnings %v leaf %s", f.Warnings(), f.Leaf())
	}
	mustAppend(t, f, &MessageEntry{user("next")})
	got := lines(t, path)
	if len(got) != 4 || !json.Valid([]byte(got[2])) || !json.Valid([]byte(got[3])) {
		t.Fatalf("file:\n%s", strings.Join(got, "\n"))
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	s := testStore(t)
	path, entries := writeSession(t, s, 3)
	got := lines(t, path)
	// Line 4 (entry q2) is damaged; everything else must survive.
	got[3] = got[3][:20] + "\x00garbage" + got[3][40:]
	os.WriteFile(path, []byte(strings.Join(got, "\n")+"\n\n"), 0o600)

	f := mustOpen(t, path)
	w := f.Warnings()
	if len(w) != 1 || w[0].Line != 4 || w[0].Truncated {
		t.Fatalf("warnings %v", w)
	}
	if n := len(f.Nodes()); n != 5 {
		t.Errorf("%d entries indexed, want 5", n)
	}
	if f.Leaf() != entries[5].ID {
		t.Errorf("leaf %s", f.Leaf())
	}
	// The damaged entry was the parent of a2, which becomes a root: the
	// branch from the leaf stops there, as in pi.
	if want := []string{"assistant:a2", "user:q3", "assistant:a3"}; !reflect.DeepEqual(texts(f.Context().Messages), want) {
		t.Errorf("context %v", texts(f.Context().Messages))
	}
	if _, err := f.Entry(entries[0].ID); err != nil {
		t.Errorf("entry before the damage: %v", err)
	}
	if _, err := f.Entry(entries[2].ID); !errors.Is(err, ErrUnknownEntry) {
		t.Errorf("damaged entry: %v", err)
	}
}

func TestBranches(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	defer f.Close()
	q1 := mustAppend(t, f, &MessageEntry{user("q1")})
	a1 := mustAppend(t, f, &MessageEntry{assistant("a1")})
	mustAppend(t, f, &MessageEntry{user("left")})
	left := mustAppend(t, f, &MessageEntry{assistant("left answer")})

	if err := f.Branch(a1.ID); err != nil {
		t.Fatal(err)
	}
	right := mustAppend(t, f, &MessageEntry{user("right")})
	if *right.ParentID != a1.ID {
		t.Fatalf("branch child's parent %s", *right.ParentID)
	}
	mustAppend(t, f, &MessageEntry{assistant("right answer")})
	if want := []string{"user:q1", "assistant:a1", "user:right", "assistant:right answer"}; !reflect.DeepEqual(texts(f.Context().Messages), want) {
		t.Errorf("context %v", texts(f.Context().Messages))
	}
	var children []string
	for _, n := range f.Nodes() {
		if n.ParentID == a1.ID {
			children = append(children, n.ID)
		}
	}
	if len(children) != 2 {
		t.Errorf("a1 has children %v", children)
	}

	// Back to the left branch: its entries are read from disk again.
	if err := f.Branch(left.ID); err != nil {
		t.Fatal(err)
	}
	if want := []string{"user:q1", "assistant:a1", "user:left", "assistant:left answer"}; !reflect.DeepEqual(texts(f.Context().Messages), want) {
		t.Errorf("context after switching back %v", texts(f.Context().Messages))
	}
	if err := f.Branch("nope"); !errors.Is(err, ErrUnknownEntry) {
		t.Errorf("Branch(nope) = %v", err)
	}

	// Reopened, the leaf is the last entry in the file: the right branch.
	g := mustOpen(t, f.FilePath())
	if want := []string{"user:q1", "assistant:a1", "user:right", "assistant:right answer"}; !reflect.DeepEqual(texts(g.Context().Messages), want) {
		t.Errorf("reopened context %v", texts(g.Context().Messages))
	}
	// Only the active branch is decoded.
	active := map[string]bool{}
	for _, e := range g.ActiveBranch() {
		active[e.ID] = true
	}
	for _, n := range g.nodes {
		if active[n.id] != (n.entry != nil) {
			t.Errorf("entry %s decoded=%v", n.id, n.entry != nil)
		}
	}
	if len(active) != 4 || active[left.ID] {
		t.Errorf("active branch %v", active)
	}

	g.ResetLeaf()
	root := mustAppend(t, g, &MessageEntry{user("new root")})
	if root.ParentID != nil || len(g.Context().Messages) != 1 || g.Leaf() != root.ID {
		t.Errorf("after ResetLeaf: %+v", root)
	}
	_ = q1
}

func TestCompactionContext(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	defer f.Close()
	mustAppend(t, f, &MessageEntry{user("q1")})
	mustAppend(t, f, &MessageEntry{assistant("a1")})
	q2 := mustAppend(t, f, &MessageEntry{user("q2")})
	mustAppend(t, f, &MessageEntry{assistant("a2")})
	c := mustAppend(t, f, &CompactionEntry{Summary: "first summary", FirstKeptEntryID: q2.ID, TokensBefore: 50})
	mustAppend(t, f, &MessageEntry{user("q3")})
	mustAppend(t, f, &MessageEntry{assistant("a3")})
	want := []string{"compactionSummary:first summary", "user:q2", "assistant:a2", "user:q3", "assistant:a3"}
	msgs := f.Context().Messages
	if !reflect.DeepEqual(texts(msgs), want) {
		t.Fatalf("context %v, want %v", texts(msgs), want)
	}
	if cs := msgs[0].(*core.CompactionSummaryMessage); cs.TokensBefore != 50 || cs.Timestamp != unixMilli(c.Timestamp) || cs.Timestamp == 0 {
		t.Errorf("summary message %+v", cs)
	}

	// A later compaction wins; one whose first kept entry is not on the
	// branch keeps nothing before it.
	mustAppend(t, f, &CompactionEntry{Summary: "second summary", FirstKeptEntryID: "missing", TokensBefore: 80})
	mustAppend(t, f, &MessageEntry{user("q4")})
	want = []string{"compactionSummary:second summary", "user:q4"}
	if got := texts(f.Context().Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("context %v, want %v", got, want)
	}
	got := core.ToLLM(f.Context().Messages)
	if u, ok := got[0].(*core.UserMessage); !ok || !strings.HasPrefix(u.Content[0].Text, "The conversation history before this point was compacted into the following summary:\n\n<summary>\nsecond summary\n</summary>") {
		t.Errorf("ToLLM summary %+v", got[0])
	}
}

func TestTreeFixture(t *testing.T) {
	f := mustOpen(t, "testdata/tree.jsonl")
	if w := f.Warnings(); len(w) != 0 {
		t.Fatal(w)
	}
	if f.Name() != "tree fixture" || f.Label("a0000003") != "start" || f.Leaf() != "b000000a" {
		t.Errorf("name %q label %q leaf %q", f.Name(), f.Label("a0000003"), f.Leaf())
	}
	ctx := f.Context()
	want := []string{"user:Read a.txt", "assistant:", "toolResult:", "branchSummary:Answered that a.txt says hello.",
		"custom:Remember the todos.", "bashExecution:false", "custom:from a v2 hook", "futureRole:", "user:And now?", "assistant:Now we test."}
	if got := texts(ctx.Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("context\n got %v\nwant %v", got, want)
	}
	if ctx.ThinkingLevel != core.ThinkingMedium || *ctx.Model != (ModelRef{"openai", "gpt-5"}) {
		t.Errorf("thinking %q model %+v", ctx.ThinkingLevel, ctx.Model)
	}
	future, err := f.Entry("b0000005")
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := future.Payload.(*UnknownEntry); !ok || u.Type != "future_entry" || !strings.Contains(string(u.Raw), `"payload":{"nested":[1,2,{"x":null}]}`) ||
		future.Timestamp != "2026-03-15T10:01:02.000Z" || *future.ParentID != "b0000004" {
		t.Errorf("unknown entry %+v", future)
	}

	llm := core.ToLLM(ctx.Messages)
	var roles []string
	for _, m := range llm {
		roles = append(roles, string(m.MessageRole()))
	}
	if want := "user assistant toolResult user user user user user assistant"; strings.Join(roles, " ") != want {
		t.Errorf("ToLLM roles %v", roles)
	}
	if got := llm[5].(*core.UserMessage).Content[0].Text; got != "Ran `false`\n(no output)\n\nCommand exited with code 1" {
		t.Errorf("bash text %q", got)
	}

	// The abandoned branch.
	if err := f.Branch("a0000007"); err != nil {
		t.Fatal(err)
	}
	want = []string{"user:Read a.txt", "assistant:", "toolResult:", "assistant:It says hello."}
	if got := texts(f.Context().Messages); !reflect.DeepEqual(got, want) {
		t.Errorf("old branch context %v", got)
	}
	if *f.Context().Model != (ModelRef{"anthropic", "claude-sonnet-4-5"}) {
		t.Errorf("old branch model %+v", f.Context().Model)
	}
}

func TestFork(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	defer f.Close()
	q1 := mustAppend(t, f, &MessageEntry{user("q1")})
	a1 := mustAppend(t, f, &MessageEntry{assistant("a1")})
	mustAppend(t, f, &LabelEntry{TargetID: q1.ID, Label: "first"})
	mustAppend(t, f, &MessageEntry{user("q2")})
	mustAppend(t, f, &MessageEntry{assistant("a2")})

	g, err := f.Fork(a1.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Header().ParentSession != f.FilePath() || filepath.Dir(g.FilePath()) != filepath.Dir(f.FilePath()) || g.Header().ID == f.Header().ID {
		t.Errorf("fork header %+v at %s", g.Header(), g.FilePath())
	}
	orig := lines(t, f.FilePath())
	forked := lines(t, g.FilePath())
	// Header, q1, a1 copied byte for byte, then the re-created label.
	if len(forked) != 4 || forked[1] != orig[1] || forked[2] != orig[2] {
		t.Fatalf("forked file:\n%s", strings.Join(forked, "\n"))
	}
	if g.Label(q1.ID) != "first" || g.Leaf() == a1.ID {
		t.Errorf("label %q leaf %s", g.Label(q1.ID), g.Leaf())
	}
	if want := []string{"user:q1", "assistant:a1"}; !reflect.DeepEqual(texts(g.Context().Messages), want) {
		t.Errorf("fork context %v", texts(g.Context().Messages))
	}
	if len(lines(t, f.FilePath())) != 6 {
		t.Error("the original changed")
	}
	empty, err := f.Fork("")
	if err != nil || empty.Persisted() || empty.Header().ParentSession != f.FilePath() {
		t.Errorf("empty fork %+v %v", empty.Header(), err)
	}
}

func TestStoreLatestAndList(t *testing.T) {
	s := testStore(t)
	if _, err := s.Latest("/p"); !errors.Is(err, ErrNoSession) {
		t.Fatalf("Latest in an empty store: %v", err)
	}
	older, _ := writeSession(t, s, 1)
	f := s.Create("/p")
	mustAppend(t, f, &SessionInfoEntry{Name: "  named  "})
	mustAppend(t, f, &MessageEntry{user("first question")})
	mustAppend(t, f, &MessageEntry{assistant("answer")})
	f.Close()
	newer := f.FilePath()
	os.Chtimes(older, time.Now(), time.Now().Add(-time.Hour))
	// Not sessions: ignored.
	os.WriteFile(filepath.Join(filepath.Dir(newer), "junk.jsonl"), []byte("not json\n"), 0o600)
	os.WriteFile(filepath.Join(filepath.Dir(newer), "notes.txt"), []byte("x"), 0o600)

	latest, err := s.Latest("/p")
	if err != nil || latest != newer {
		t.Errorf("Latest = %s, %v; want %s", latest, err, newer)
	}
	os.Chtimes(older, time.Now(), time.Now().Add(time.Hour))
	if latest, _ := s.Latest("/p"); latest != older {
		t.Errorf("Latest after touching the older session = %s", latest)
	}
	infos, err := s.List("/p")
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].Path != older || infos[1].Path != newer {
		t.Fatalf("List = %+v", infos)
	}
	if in := infos[1]; in.Name != "named" || in.FirstMessage != "first question" || in.MessageCount != 2 || in.Cwd != "/p" ||
		in.ID != f.Header().ID || in.Created.IsZero() || in.Modified.IsZero() {
		t.Errorf("info %+v", in)
	}
	if other, err := s.List("/elsewhere"); err != nil || len(other) != 0 {
		t.Errorf("List of another project = %v, %v", other, err)
	}
}

func TestForkFrom(t *testing.T) {
	s := testStore(t)
	src, entries := writeSession(t, s, 2)
	g, err := s.ForkFrom(src, "/other")
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if g.Header().Cwd != "/other" || g.Header().ParentSession != src || filepath.Base(filepath.Dir(g.FilePath())) != "--other--" {
		t.Errorf("header %+v at %s", g.Header(), g.FilePath())
	}
	if g.Leaf() != entries[3].ID || len(g.Context().Messages) != 4 {
		t.Errorf("forked session leaf %s, %d messages", g.Leaf(), len(g.Context().Messages))
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"/home/u/proj":   "--home-u-proj--",
		"/":              "----",
		`C:\Users\u\p`:   "--C--Users-u-p--",
		`\\server\share`: "---server-share--",
		"relative/dir":   "--relative-dir--",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLongLines(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	big := strings.Repeat("line with \"quotes\" and \\ backslashes é\n", 30_000) // ~1.2 MB, past every buffer
	mustAppend(t, f, &MessageEntry{user("q")})
	mustAppend(t, f, &MessageEntry{assistant(big)})
	mustAppend(t, f, &MessageEntry{user("after")})
	f.Close()
	g := mustOpen(t, f.FilePath())
	msgs := g.Context().Messages
	if len(g.Warnings()) != 0 || len(msgs) != 3 || msgs[1].(*core.AssistantMessage).Text() != big {
		t.Fatalf("warnings %v, %d messages", g.Warnings(), len(msgs))
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct {
		content string
		want    error
	}{
		"empty":       {"", ErrNotSession},
		"blank":       {"\n\n", ErrNotSession},
		"garbage":     {"hello\n", ErrNotSession},
		"no id":       {`{"type":"session","version":3}` + "\n", ErrNotSession},
		"entry first": {`{"type":"message","id":"a","parentId":null}` + "\n", ErrNotSession},
		"version 1":   {`{"type":"session","id":"x","timestamp":"t","cwd":"/"}` + "\n" + `{"type":"message","timestamp":"t"}` + "\n", ErrOldVersion},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".jsonl")
		os.WriteFile(path, []byte(tc.content), 0o600)
		if f, err := Open(path); !errors.Is(err, tc.want) {
			t.Errorf("%s: Open = %v, want %v", name, err, tc.want)
			if f != nil {
				f.Close()
			}
		}
	}
	if _, err := Open(filepath.Join(dir, "missing.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestAppendRejects(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	defer f.Close()
	for _, p := range []Payload{nil, &MessageEntry{}, &LabelEntry{TargetID: "nope"}, &UnknownEntry{Type: "x", Raw: json.RawMessage(`{}`)},
		&CustomEntry{Data: json.RawMessage(`{`)}} {
		if _, err := f.Append(p); err == nil {
			t.Errorf("Append(%#v) succeeded", p)
		}
	}
	if len(f.Nodes()) != 0 || f.Leaf() != "" {
		t.Errorf("rejected entries were added: %v", f.Nodes())
	}
}

func TestReadOnlyFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root can write read-only files")
	}
	s := testStore(t)
	path, _ := writeSession(t, s, 1)
	os.Chmod(path, 0o400)
	f := mustOpen(t, path)
	if len(f.Context().Messages) != 2 {
		t.Error("read-only file did not load")
	}
	if _, err := f.Append(&MessageEntry{user("x")}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("Append to a read-only file: %v", err)
	}
}

// TestAnotherWriterAppended: pi appended to the file while cairn had it
// open; cairn's next entry lands after pi's and is found again.
func TestAnotherWriterAppended(t *testing.T) {
	s := testStore(t)
	path, entries := writeSession(t, s, 1)
	f := mustOpen(t, path)
	line, _ := appendEntry(nil, &Entry{Type: TypeMessage, ID: "0000beef", ParentID: &entries[1].ID, Timestamp: ts, Payload: &MessageEntry{user("from pi")}})
	appendBytes(t, path, append(line, '\n'))
	e := mustAppend(t, f, &MessageEntry{user("from cairn")})
	// Move off the branch and back, so the entry is read from disk.
	if err := f.Branch(entries[0].ID); err != nil {
		t.Fatal(err)
	}
	got, err := f.Entry(e.ID)
	if err != nil || userText(got.Payload) != "from cairn" {
		t.Fatalf("Entry = %+v, %v", got, err)
	}
	g := mustOpen(t, path)
	if len(g.Nodes()) != 4 || len(g.Warnings()) != 0 || g.Leaf() != e.ID {
		t.Errorf("reopened: %d entries, warnings %v, leaf %s", len(g.Nodes()), g.Warnings(), g.Leaf())
	}
}

func TestConcurrentUse(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	mustAppend(t, f, &MessageEntry{user("q")})
	mustAppend(t, f, &MessageEntry{assistant("a")})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			f.Context()
			f.Nodes()
			f.ActiveBranch()
		}
	}()
	for range 50 {
		if _, err := f.AppendMessage(user("more")); err != nil {
			t.Error(err)
		}
	}
	<-done
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.AppendMessage(user("late")); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Append after Close: %v", err)
	}
}

func TestAgentStoreMethods(t *testing.T) {
	s := testStore(t)
	f := s.Create("/p")
	defer f.Close()
	if err := f.AppendModelChange("fake", "fake-gpt"); err != nil {
		t.Fatal(err)
	}
	if err := f.AppendThinkingLevel(core.ThinkingHigh); err != nil {
		t.Fatal(err)
	}
	q1, _ := f.AppendMessage(user("q1"))
	a1, _ := f.AppendMessage(assistant("a1"))
	q2, _ := f.AppendMessage(user("q2"))
	a2, err := f.AppendMessage(assistant("a2"))
	if err != nil {
		t.Fatal(err)
	}
	cid, err := f.AppendCompaction(core.CompactionResult{Summary: "sum", FirstKeptEntryID: q2, TokensBefore: 99, ModifiedFiles: []string{"a.go"}})
	if err != nil {
		t.Fatal(err)
	}
	got := lines(t, f.FilePath())
	if last := got[len(got)-1]; !strings.HasSuffix(last, `"summary":"sum","firstKeptEntryId":"`+q2+`","tokensBefore":99,"details":{"readFiles":[],"modifiedFiles":["a.go"]},"fromHook":false}`) {
		t.Errorf("compaction line %s", last)
	}
	ctx := f.Context()
	if want := []string{cid, q2, a2}; !reflect.DeepEqual(ctx.EntryIDs, want) || len(ctx.Messages) != 3 {
		t.Errorf("EntryIDs %v, want %v", ctx.EntryIDs, want)
	}
	if ctx.ThinkingLevel != core.ThinkingHigh || *ctx.Model != (ModelRef{"fake", "fake-gpt"}) {
		t.Errorf("context settings %q %+v", ctx.ThinkingLevel, ctx.Model)
	}
	_, _ = q1, a1
}

// TestStoreSkipsNamedPipes: a named pipe among a project's sessions is
// passed over by Latest and List instead of hanging them.
func TestStoreSkipsNamedPipes(t *testing.T) {
	s := testStore(t)
	path, _ := writeSession(t, s, 1)
	pipe := filepath.Join(filepath.Dir(path), "9999-pipe.jsonl")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	done := make(chan string, 1)
	go func() {
		latest, _ := s.Latest("/p")
		infos, _ := s.List("/p")
		done <- fmt.Sprint(latest, len(infos))
	}()
	select {
	case got := <-done:
		if want := fmt.Sprint(path, 1); got != want {
			t.Errorf("Latest, len(List) = %s, want %s", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the store blocked on a named pipe")
	}
}

// TestOpenNamedPipe: a session path that is a named pipe is refused at
// once instead of hanging the load.
func TestOpenNamedPipe(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "s.jsonl")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(pipe, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	done := make(chan error, 1)
	go func() {
		f, err := Open(pipe)
		if err == nil {
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, regfile.ErrNotRegular) {
			t.Errorf("err = %v, want ErrNotRegular", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Open blocked on a named pipe")
	}
}

// ListAll lists the sessions of every project directory, newest first,
// and skips what is not a project's session directory.
func TestStoreListAll(t *testing.T) {
	s := testStore(t)
	if all, err := s.ListAll(); err != nil || len(all) != 0 {
		t.Fatalf("ListAll of an empty store = %v, %v", all, err)
	}
	var paths []string
	for i, cwd := range []string{"/p", "/q"} {
		f := s.Create(cwd)
		mustAppend(t, f, &MessageEntry{user("question " + cwd)})
		mustAppend(t, f, &MessageEntry{assistant("answer")})
		f.Close()
		os.Chtimes(f.FilePath(), time.Now(), time.Now().Add(time.Duration(i)*time.Hour))
		paths = append(paths, f.FilePath())
	}
	os.MkdirAll(filepath.Join(s.Root, "not-a-project"), 0o700)
	all, err := s.ListAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Path != paths[1] || all[0].Cwd != "/q" || all[1].Cwd != "/p" {
		t.Errorf("ListAll = %+v", all)
	}
}

// TestSharedDirectoryKeepsProjectsApart: in one directory for every
// project (--session-dir, PI_CODING_AGENT_SESSION_DIR), --continue and the
// list see only this project's sessions, as pi filters them; ListAll and
// another place (Others) see all.
func TestSharedDirectoryKeepsProjectsApart(t *testing.T) {
	s := Store{Dir: t.TempDir()}
	write := func(cwd string) string {
		f := s.Create(cwd)
		mustAppend(t, f, &MessageEntry{user("q")})
		mustAppend(t, f, &MessageEntry{assistant("a")})
		f.Close()
		return f.FilePath()
	}
	mine := write("/p")
	theirs := write("/q")
	os.Chtimes(mine, time.Now(), time.Now().Add(-time.Hour))
	if latest, err := s.Latest("/p"); err != nil || latest != mine {
		t.Errorf("Latest(/p) = %s, %v; want %s, not /q's newer %s", latest, err, mine, theirs)
	}
	if infos, _ := s.List("/p"); len(infos) != 1 || infos[0].Path != mine {
		t.Errorf("List(/p) = %+v", infos)
	}
	if all, _ := s.ListAll(); len(all) != 2 {
		t.Errorf("ListAll = %d sessions, want 2", len(all))
	}
	own := Store{Root: t.TempDir(), Others: []Store{s}}
	if latest, err := own.Latest("/q"); err != nil || latest != theirs {
		t.Errorf("Latest through Others = %s, %v; want %s", latest, err, theirs)
	}
}
