package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixtureDoc is the hand-written session in testdata with a system prompt
// and a tool, which a session file does not hold.
func fixtureDoc(t *testing.T) Document {
	t.Helper()
	doc, err := FromFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	doc.SystemPrompt = "You are a careful assistant.\n</pre><script>alert('prompt')</script>"
	doc.Tools = []core.ToolSpec{{Name: "read", Description: "Read a file <safely>.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}}
	return doc
}

func render(t *testing.T, doc Document, opts Options) string {
	t.Helper()
	var b bytes.Buffer
	if err := HTML(&b, doc, opts); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	got := render(t, fixtureDoc(t), Options{})
	golden := filepath.Join("testdata", "session.golden.html")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("page differs from %s (run go test -update and review the diff)", golden)
	}
	checkPage(t, got)
}

// TestFixtureContent checks what the golden page must show, so that a
// careless -update cannot bless a page that lost something.
func TestFixtureContent(t *testing.T) {
	page := render(t, fixtureDoc(t), Options{})
	for _, want := range []string{
		"<title>Fix &amp; &lt;ship&gt;</title>",
		"<dt>Session</dt><dd>0190a0b0-1111-7222-8333-444455556666</dd>",
		"<dt>Model</dt><dd>anthropic/claude-test</dd>",
		"<dt>Thinking</dt><dd>medium</dd>",
		"<dt>Tokens</dt><dd>in 7,587 · out 197 · $0.0204</dd>", // both branches
		"Fix the &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; bug",
		`<img class="image" alt="image" src="data:image/png;base64,iVBOR`,
		`<details class="thinking"><summary>Thinking · <span class="preview">The user wants a fix. …</span>`,
		`<span class="tool-name">read</span> <span class="tool-arg">main.go:1-20</span> <span class="tool-state">done</span>`,
		`<span class="del">-6 	fmt.Println(&#34;hi&#34;)</span>`,
		`<span class="add">+6 	fmt.Println(&#34;hello&#34;)</span>`,
		"<!-- raw HTML omitted -->",
		`<a href="">the docs</a>`,
		`<a class="md-image" href="https://example.com/cat.png">image: a cat</a>`,
		"<table>",
		`<span class="label">fixed</span>`,
		"<pre class=\"cmd\">$ go test ./...</pre>",
		"FAIL\tproj\t0.01s\ndone", // terminal escapes gone
		"exit code 1",
		"Content written · 3 lines",
		`<div class="tool error">`,
		"ls: cannot access &#39;missing&#39;",
		`<span class="tool-name">grep</span> <span class="tool-arg">hello in .</span>`,
		"Earlier conversation summarised (12,345 tokens)",
		"<h2>Goal</h2>",
		"Tried an alternative; it was <em>not</em> needed.",
		`<span class="who">reminder</span>`,
		"Request was aborted",
		`<h2>Other branches</h2>`,
		`After <a href="#e-a1000007">a1000007</a> · 2 messages · <q>Try another approach instead</q>`,
		"An <strong>alternative</strong> answer.",
		"&lt;/pre&gt;&lt;script&gt;alert(&#39;prompt&#39;)",
		"Read a file &lt;safely&gt;.",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"not shown", "\x1b", "<script", "javascript:"} {
		if strings.Contains(page, bad) {
			t.Errorf("page contains %q", bad)
		}
	}
}

func TestFromFile(t *testing.T) {
	doc, err := FromFile("testdata/session.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if doc.Name != "Fix & <ship>" || doc.Cwd != "/home/dev/proj" || doc.Created.Year() != 2026 || doc.Model != "anthropic/claude-test" {
		t.Errorf("header: %+v", doc)
	}
	wantIDs := []string{"a1000003", "a1000004", "a1000005", "a1000006", "a1000007", "c3000001", "a1000009",
		"a100000a", "a100000b", "a100000c", "a100000d", "a100000e", "a100000f", "a1000010", "a1000011", "a1000012", "a1000013"}
	if strings.Join(doc.EntryIDs, " ") != strings.Join(wantIDs, " ") || len(doc.Messages) != len(wantIDs) {
		t.Errorf("messages %v, want %v", doc.EntryIDs, wantIDs)
	}
	if _, ok := doc.Messages[12].(*core.CompactionSummaryMessage); !ok {
		t.Errorf("message 12 is %T, want the compaction where it happened", doc.Messages[12])
	}
	if doc.Labels["a1000007"] != "fixed" {
		t.Errorf("labels: %v", doc.Labels)
	}
	if len(doc.Branches) != 1 || doc.Branches[0].ParentID != "a1000007" ||
		strings.Join(doc.Branches[0].EntryIDs, " ") != "b2000001 b2000002" {
		t.Errorf("branches: %+v", doc.Branches)
	}
}

func TestFromFileTree(t *testing.T) {
	// Three runs off the current branch: two children of one entry, and a
	// grandchild that forks again.
	path := filepath.Join(t.TempDir(), "tree.jsonl")
	lines := []string{
		`{"type":"session","version":3,"id":"s","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/x"}`,
		userLine("u1", "", "root"),
		userLine("x1", "u1", "first off"),
		userLine("x2", "x1", "first off, continued"),
		userLine("y1", "x1", "second fork"),
		userLine("z1", "u1", "third"),
		userLine("u2", "u1", "current"),
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc, err := FromFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, b := range doc.Branches {
		got = append(got, b.ParentID+">"+strings.Join(b.EntryIDs, ","))
	}
	if want := "u1>x1,x2 x1>y1 u1>z1"; strings.Join(got, " ") != want {
		t.Errorf("branches %q, want %q", strings.Join(got, " "), want)
	}
	if strings.Join(doc.EntryIDs, ",") != "u1,u2" {
		t.Errorf("current branch %v", doc.EntryIDs)
	}
}

func userLine(id, parent, text string) string {
	p := `null`
	if parent != "" {
		p = `"` + parent + `"`
	}
	return `{"type":"message","id":"` + id + `","parentId":` + p + `,"timestamp":"2026-03-01T10:00:01.000Z","message":{"role":"user","content":"` + text + `","timestamp":1}}`
}

func TestFromFileErrors(t *testing.T) {
	if _, err := FromFile(filepath.Join(t.TempDir(), "missing.jsonl")); err == nil {
		t.Error("a missing file exported")
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("not json\n"), 0o644)
	if _, err := FromFile(bad); err == nil {
		t.Error("a file that is no session exported")
	}
}

func TestOptions(t *testing.T) {
	page := render(t, Document{Name: "n"}, Options{Title: "My <title>", PageBg: "#010203"})
	for _, want := range []string{"--page-bg: #010203;", "--card-bg: #1e1e24;", "<title>My &lt;title&gt;</title>", ".chroma {"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, bad := range []string{"red", "#12345", "#1234567", "#12345g", "#fff;}</style><script>"} {
		err := HTML(&bytes.Buffer{}, Document{}, Options{Accent: bad})
		if err == nil || !strings.Contains(err.Error(), "Accent") {
			t.Errorf("Accent %q: err %v, want one naming the colour", bad, err)
		}
	}
}

// failingWriter fails after n bytes.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(b)
	return len(b), nil
}

func TestWriterError(t *testing.T) {
	doc := generated(2000)
	w := &failingWriter{n: 100 << 10}
	if err := HTML(w, doc, Options{}); !errors.Is(err, errDiskFull) {
		t.Errorf("err = %v, want the writer's", err)
	}
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.html")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, fixtureDoc(t), Options{}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasPrefix(string(data), "<!DOCTYPE html>") {
		t.Fatalf("file: %v %.40q", err, data)
	}
	err = WriteFile(path, Document{}, Options{Accent: "nope"})
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("bad options: %v", err)
	}
	if data2, _ := os.ReadFile(path); !bytes.Equal(data, data2) {
		t.Error("a failed export replaced the earlier one")
	}
	missing := filepath.Join(dir, "no", "such", "dir", "x.html")
	err = WriteFile(missing, Document{}, Options{})
	if err == nil || !strings.Contains(err.Error(), missing) || strings.Contains(err.Error(), ".tmp") {
		t.Errorf("missing directory: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want only out.html", len(entries))
	}
}

func TestDefaultFileName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/s/--x--/2026-03-01T10-00-00-000Z_0190a0b0.jsonl", "cairn-session-2026-03-01T10-00-00-000Z_0190a0b0.html"},
		{"plain", "cairn-session-plain.html"},
		{"", "cairn-session-export.html"},
	} {
		if got := DefaultFileName(c.in); got != c.want {
			t.Errorf("DefaultFileName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSessionFixtures exports the session files core/session tests with:
// one pi wrote itself, and a hand-made tree with every entry type, unknown
// entries and roles.
func TestSessionFixtures(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string
	}{
		{"pi-0.73.1.jsonl", []string{"fixture session", "The user wants echo &amp; &lt;tags&gt;", `<span class="tool-arg">echo hi</span> <span class="tool-state">done</span>`, "$ echo from-bash", "Second question &lt;b&gt;&amp;amp;&lt;/b&gt;", `<section class="msg compaction"`}},
		{"tree.jsonl", []string{"<h2>Other branches</h2>", `<section class="msg unknown"`, `<span class="label">`}},
	} {
		t.Run(c.file, func(t *testing.T) {
			doc, err := FromFile(filepath.Join("..", "session", "testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			page := render(t, doc, Options{})
			checkPage(t, page)
			for _, w := range c.want {
				if !strings.Contains(page, w) {
					t.Errorf("page lacks %q", w)
				}
			}
		})
	}
}
