package pi

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// branchedSession is a session file with two branches from the first
// answer and a label on the first question:
//
//	u1 ─ a1 ┬ u2 ─ a2
//	        └ u3        (the leaf)
func branchedSession(t *testing.T) (*session.File, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	f := session.Store{Dir: dir}.Create(dir)
	t.Cleanup(func() { f.Close() })
	ids := map[string]string{}
	add := func(name string, m core.Message) {
		t.Helper()
		id, err := f.AppendMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = id
	}
	user := func(text string) core.Message {
		return &core.UserMessage{Content: []core.Content{core.TextBlock(text)}, Timestamp: 1}
	}
	answer := func(text string) core.Message {
		return &core.AssistantMessage{Content: []core.Content{core.TextBlock(text)}, Provider: "faux", Model: "faux-1", StopReason: core.StopEnd, Timestamp: 2}
	}
	add("u1", user("first question"))
	add("a1", answer("first answer"))
	add("u2", user("second question"))
	add("a2", answer("second answer"))
	if _, err := f.Append(&session.LabelEntry{TargetID: ids["u1"], Label: "start"}); err != nil {
		t.Fatal(err)
	}
	if err := f.Branch(ids["a1"]); err != nil {
		t.Fatal(err)
	}
	add("u3", user("another second question"))
	return f, ids
}

func fileRig(t *testing.T, f *session.File, responses ...faux.Response) *rig {
	dir := filepath.Dir(f.FilePath())
	return newRig(t, rigConfig{faux: faux.New(faux.Options{}, responses...), conversations: agent.NewFileConversations(session.Store{Dir: dir}, dir, f)})
}

func TestGetEntries(t *testing.T) {
	f, ids := branchedSession(t)
	r := fileRig(t, f)

	r.send(map[string]any{"id": "all", "type": "get_entries"})
	all := r.response("all")
	entries, _ := all.get("data.entries").([]any)
	if len(entries) != 6 || all.get("data.leafId") != ids["u3"] {
		t.Fatalf("get_entries: %s", all.text)
	}
	// Entries are the session file's lines: in append order, every
	// branch, the label too.
	var types []string
	for i := range entries {
		types = append(types, all.str("data.entries."+strconv.Itoa(i)+".type"))
	}
	if got := strings.Join(types, " "); got != "message message message message label message" {
		t.Errorf("entry types: %s", got)
	}
	if all.str("data.entries.0.message.content.0.text") != "first question" || all.get("data.entries.0.parentId") != nil {
		t.Errorf("first entry: %s", all.text)
	}

	cases := []struct {
		name    string
		cmd     map[string]any
		entries int
		err     string
	}{
		{"since an entry", map[string]any{"type": "get_entries", "since": ids["a2"]}, 2, ""},
		{"since the leaf", map[string]any{"type": "get_entries", "since": ids["u3"]}, 0, ""},
		{"since an unknown entry", map[string]any{"type": "get_entries", "since": "nope"}, 0, "send get_entries without since"},
		{"since of the wrong type", map[string]any{"type": "get_entries", "since": 5}, 0, `"since"`},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := "c" + strconv.Itoa(i)
			c.cmd["id"] = id
			r.send(c.cmd)
			res := r.response(id)
			if c.err != "" {
				if res.get("success") != false || !strings.Contains(res.str("error"), c.err) {
					t.Errorf("want an error mentioning %s: %s", c.err, res.text)
				}
				return
			}
			got, ok := res.get("data.entries").([]any)
			if !ok || len(got) != c.entries || res.get("data.leafId") != ids["u3"] {
				t.Errorf("want %d entries: %s", c.entries, res.text)
			}
		})
	}
}

func TestGetTree(t *testing.T) {
	f, ids := branchedSession(t)
	r := fileRig(t, f)
	r.send(map[string]any{"id": "t", "type": "get_tree"})
	res := r.response("t")
	roots, _ := res.get("data.tree").([]any)
	if len(roots) != 1 || res.get("data.leafId") != ids["u3"] {
		t.Fatalf("get_tree: %s", res.text)
	}
	root := "data.tree.0"
	if res.get(root+".entry.id") != ids["u1"] || res.get(root+".label") != "start" || res.str(root+".labelTimestamp") == "" {
		t.Errorf("root: %s", res.text)
	}
	a1 := root + ".children.0"
	if res.get(a1+".entry.id") != ids["a1"] || res.get(a1+".label") != nil {
		t.Errorf("a1 (no label, so no label key): %s", res.text)
	}
	// a1's children, oldest first: u2 (which goes on to a2 and the label),
	// then u3.
	kids, _ := res.get(a1 + ".children").([]any)
	if len(kids) != 2 || res.get(a1+".children.0.entry.id") != ids["u2"] || res.get(a1+".children.1.entry.id") != ids["u3"] {
		t.Errorf("a1's children: %s", res.text)
	}
	if res.get(a1+".children.0.children.0.entry.id") != ids["a2"] {
		t.Errorf("u2's child: %s", res.text)
	}
	if c, ok := res.get(a1 + ".children.1.children").([]any); !ok || len(c) != 0 {
		t.Errorf("a leaf has children []: %s", res.text)
	}
}

func TestBuildTreeRootsOrphansAndLoops(t *testing.T) {
	ref := func(s string) *string { return &s }
	entries := []session.Entry{
		{ID: "a", Timestamp: "2026-01-01T00:00:00.000Z"},
		{ID: "b", ParentID: ref("gone"), Timestamp: "2026-01-01T00:00:01.000Z"},
		{ID: "c", ParentID: ref("c"), Timestamp: "2026-01-01T00:00:02.000Z"},
		{ID: "d", ParentID: ref("e"), Timestamp: "2026-01-01T00:00:03.000Z"},
		{ID: "e", ParentID: ref("d"), Timestamp: "2026-01-01T00:00:04.000Z"},
		{ID: "f", ParentID: ref("a"), Timestamp: "2026-01-01T00:00:09.000Z"},
		{ID: "g", ParentID: ref("a"), Timestamp: "2026-01-01T00:00:05.000Z"},
	}
	tree := buildTree(entries)
	var got []string
	var walk func(n *treeNode, depth int)
	walk = func(n *treeNode, depth int) {
		got = append(got, strings.Repeat(">", depth)+n.Entry.ID)
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	for _, n := range tree {
		walk(n, 0)
	}
	// a's children by time (g before f); the orphan b and the self-parented
	// c are roots; the loop d⇄e is listed once, under d.
	if want := "a >g >f b c d >e"; strings.Join(got, " ") != want {
		t.Errorf("tree %q, want %q", strings.Join(got, " "), want)
	}
	if b, err := json.Marshal(buildTree(nil)); err != nil || string(b) != "[]" {
		t.Errorf("empty tree: %s, %v", b, err)
	}
}

func TestClone(t *testing.T) {
	f, _ := branchedSession(t)
	first := f.FilePath()
	r := fileRig(t, f)
	r.send(map[string]any{"id": "c", "type": "clone"})
	if res := r.response("c"); res.get("success") != true || !sameJSON(res.get("data"), map[string]any{"cancelled": false}) {
		t.Fatalf("clone: %s", res.text)
	}
	r.send(map[string]any{"id": "s", "type": "get_state"})
	st := r.response("s")
	if file := st.str("data.sessionFile"); file == "" || file == first {
		t.Errorf("after clone the session file is %q (was %q)", file, first)
	}
	// The clone continues the current branch (u1 a1 u3) and keeps u1's
	// label.
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	if n := len(r.response("m").get("data.messages").([]any)); n != 3 {
		t.Errorf("the clone holds %d messages, want 3", n)
	}
	r.send(map[string]any{"id": "e", "type": "get_entries"})
	if n := len(r.response("e").get("data.entries").([]any)); n != 4 {
		t.Errorf("the clone has %d entries, want 4", n)
	}
}

// TestFileCommandsInMemory: with --no-session the commands that read or
// copy the session answer from the session kept in memory.
func TestFileCommandsInMemory(t *testing.T) {
	// pi 0.87.1 answers these from memory with --no-session (cairn
	// refused them before).
	r, _ := fauxRig(t, faux.Options{}, faux.Response{Text: "hi"})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hello"})
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "e", "type": "get_entries"})
	e := r.response("e")
	if e.get("success") != true || e.str("data.entries.0.message.role") != "user" || e.str("data.leafId") != e.str("data.entries.1.id") {
		t.Errorf("get_entries in memory: %s", e.text)
	}
	r.send(map[string]any{"id": "t", "type": "get_tree"})
	if tr := r.response("t"); tr.get("success") != true || tr.str("data.tree.0.children.0.entry.message.role") != "assistant" {
		t.Errorf("get_tree in memory: %s", tr.text)
	}
	r.send(map[string]any{"id": "c", "type": "clone"})
	if c := r.response("c"); c.get("success") != true {
		t.Errorf("clone in memory: %s", c.text)
	}
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	if m := r.response("m"); m.str("data.messages.1.role") != "assistant" {
		t.Errorf("the clone lost the conversation: %s", m.text)
	}
}
