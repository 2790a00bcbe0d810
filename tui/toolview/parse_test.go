package toolview

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestCompleteJSON(t *testing.T) {
	cases := []struct {
		in, want string
	}{
		{``, ``},
		{`{"a":1}`, `{"a":1}`},
		{`{`, `{}`},
		{`{"comm`, `{}`},
		{`{"command"`, `{}`},
		{`{"command":`, `{}`},
		{`{"command":"go te`, `{"command":"go te"}`},
		{`{"command":"say \"hi`, `{"command":"say \"hi"}`},
		{`{"command":"line\`, `{"command":"line"}`},
		{`{"command":"caf\u00`, `{"command":"caf"}`},
		{`{"command":"caf\u00e9`, `{"command":"caf\u00e9"}`},
		{`{"path":"a.go","offset":1`, `{"path":"a.go"}`},
		{`{"path":"a.go","offset":10,`, `{"path":"a.go","offset":10}`},
		{`{"path":"a.go","edits":[{"oldText":"x","newText":"y`, `{"path":"a.go","edits":[{"oldText":"x","newText":"y"}]}`},
		{`{"edits":[{"oldText":"x"},{`, `{"edits":[{"oldText":"x"},{}]}`},
		{`{"flag":tru`, `{}`},
		{`{"flag":true,"n":null`, `{"flag":true,"n":null}`},
		{`[1,2`, `[1]`},
		{`{"a":1}}`, `{"a":1}`},
		{`nonsense`, ``},
		{"{\"s\":\"\xe6\x97", `{"s":""}`}, // a character split by streaming
	}
	for _, c := range cases {
		if got := string(completeJSON([]byte(c.in))); got != c.want {
			t.Errorf("completeJSON(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	a := parseArgs([]byte(`{"path":"a.go","offset":"10","limit":5,"ignoreCase":"true","literal":false,"content":"x\ny`))
	if got := a.str("path"); got != "a.go" {
		t.Errorf("path = %q", got)
	}
	if n, ok := a.num("offset"); !ok || n != 10 {
		t.Errorf("offset = %v %v (numbers as strings are accepted)", n, ok)
	}
	if n, ok := a.num("limit"); !ok || n != 5 {
		t.Errorf("limit = %v %v", n, ok)
	}
	if _, ok := a.num("missing"); ok {
		t.Error("a missing number was found")
	}
	if !a.flag("ignoreCase") || a.flag("literal") || a.flag("missing") {
		t.Error("flags read wrongly")
	}
	if got := a.str("content"); got != "x\ny" {
		t.Errorf("streamed content = %q", got)
	}
	if a.str("limit") != "" {
		t.Error("a number read as a string")
	}
}

func TestCleanLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a\tb", "a   b"},
		{"abcd\tx", "abcd    x"},
		{"\x1b[31mred\x1b[0m ok", "red ok"},
		{"10%\r50%\r100%", "100%"},
		{"windows line\r", "windows line"},
		{"bell\a and nul\x00", "bell and nul"},
		{"日本\t語", "日本  語"},
	}
	for _, c := range cases {
		if got := cleanLine(c.in); got != c.want {
			t.Errorf("cleanLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	cases := []struct {
		text       string
		n          int
		head, tail []string
		count      int
	}{
		{"", 3, nil, nil, 0},
		{"\n", 3, []string{""}, []string{""}, 1},
		{"a", 3, []string{"a"}, []string{"a"}, 1},
		{"a\nb\nc\n", 2, []string{"a", "b"}, []string{"b", "c"}, 3},
		{"a\nb\nc", 5, []string{"a", "b", "c"}, []string{"a", "b", "c"}, 3},
		{"a\n\nb\n\n", 2, []string{"a", ""}, []string{"b", ""}, 4},
		{"a\r\nb\r\n", 1, []string{"a\r"}, []string{"b"}, 2},
	}
	for _, c := range cases {
		if got := headLines(c.text, c.n); !slices.Equal(got, c.head) {
			t.Errorf("headLines(%q, %d) = %q, want %q", c.text, c.n, got, c.head)
		}
		if got := tailLines(c.text, c.n); !slices.Equal(got, c.tail) {
			t.Errorf("tailLines(%q, %d) = %q, want %q", c.text, c.n, got, c.tail)
		}
		if got := countLines(c.text); got != c.count {
			t.Errorf("countLines(%q) = %d, want %d", c.text, got, c.count)
		}
	}
	// Many lines: the tail grows past its first allocation.
	long := numbered("l", 300)
	if got := tailLines(long, 100); len(got) != 100 || got[0] != "l 201" || got[99] != "l 300" {
		t.Errorf("tail of 300 lines = %d lines, %q .. %q", len(got), got[0], got[len(got)-1])
	}
}

func TestSplitBashResult(t *testing.T) {
	cases := []struct {
		name           string
		text           string
		failed, noted  bool
		output, status string
	}{
		{"success", "a\nb", false, false, "a\nb", ""},
		{"no output", "(no output)", false, false, "", ""},
		{"exit code", "a\n\nb\n\nCommand exited with code 3", true, false, "a\n\nb", "Command exited with code 3"},
		{"exit without output", "(no output)\n\nCommand exited with code 1", true, false, "", "Command exited with code 1"},
		{"aborted alone", "Command aborted", true, false, "", "Command aborted"},
		{"bad arguments", "Invalid arguments for bash: command is required", true, false, "", "Invalid arguments for bash: command is required"},
		{"noted", "x\n\n[Showing lines 3-4 of 4. Full output: /tmp/o]", false, true, "x", ""},
		{"noted and failed", "x\n\n[Showing lines 3-4 of 4. Full output: /tmp/o]\n\nCommand exited with code 2", true, true, "x", "Command exited with code 2"},
		{"brackets in output are kept without a note", "x\n\n[not a note]", false, false, "x\n\n[not a note]", ""},
	}
	for _, c := range cases {
		got := splitBashResult(c.text, c.failed, c.noted)
		if got.output != c.output || got.status != c.status {
			t.Errorf("%s: got output %q status %q, want %q %q", c.name, got.output, got.status, c.output, c.status)
		}
	}
}

func TestSplitReadNote(t *testing.T) {
	cases := []struct{ text, content, note string }{
		{"a\nb", "a\nb", ""},
		{"a\n\n[5 more lines in file. Use offset=3 to continue.]", "a", "5 more lines in file. Use offset=3 to continue."},
		{"a\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to continue.]", "a", "Showing lines 1-2000 of 5000. Use offset=2001 to continue."},
		{"[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' f | head -c 51200]", "", "Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' f | head -c 51200"},
		{"text\n\n[link]", "text\n\n[link]", ""},
		{"text\n\n[12 more things]", "text\n\n[12 more things]", ""},
	}
	for _, c := range cases {
		content, note := splitReadNote(c.text)
		if content != c.content || note != c.note {
			t.Errorf("splitReadNote(%q) = %q, %q; want %q, %q", c.text, content, note, c.content, c.note)
		}
	}
}

func TestGrepMatch(t *testing.T) {
	cases := []struct {
		line, path, text string
		ok               bool
	}{
		{"a.go:12: func x()", "a.go", "func x()", true},
		{"dir/a-b.go:3: x", "dir/a-b.go", "x", true},
		{"a.go:7:", "a.go", "", true},
		{"a.go-11- context", "", "", false},
		{"c:12:30 no", "", "", false},
		{"no match here", "", "", false},
	}
	for _, c := range cases {
		path, text, ok := grepMatch(c.line)
		if path != c.path || text != c.text || ok != c.ok {
			t.Errorf("grepMatch(%q) = %q %q %v, want %q %q %v", c.line, path, text, ok, c.path, c.text, c.ok)
		}
	}
}

func TestHumanUnits(t *testing.T) {
	durations := map[time.Duration]string{
		80 * time.Millisecond:                "80ms",
		1400 * time.Millisecond:              "1.4s",
		12 * time.Second:                     "12s",
		65 * time.Second:                     "1m05s",
		time.Hour + 2*time.Minute + 3e9:      "1h02m",
		9*time.Second + 990*time.Millisecond: "10.0s",
	}
	for d, want := range durations {
		if got := humanDuration(d); got != want {
			t.Errorf("humanDuration(%v) = %q, want %q", d, got, want)
		}
	}
	sizes := map[int]string{0: "0 B", 1023: "1023 B", 1229: "1.2 KB", 3 << 20: "3.0 MB"}
	for n, want := range sizes {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
	if got := strings.Join([]string{plural(1, "match", "matches"), plural(2, "match", "matches")}, ","); got != "1 match,2 matches" {
		t.Errorf("plural = %q", got)
	}
}
