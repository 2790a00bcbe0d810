package toolview

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// plain renders a call and returns its lines without ANSI sequences and
// without the padding that fills them to the width.
func plain(c Call, width int, st Styles, expanded bool) []string {
	lines := strings.Split(ansi.Strip(Render(c, width, st, expanded)), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

func bashDone(output string, isError bool) Call {
	return Call{Name: "bash", Args: json.RawMessage(`{"command":"make"}`), State: Done, Result: textResult(output, isError, nil)}
}

func TestRenderContent(t *testing.T) {
	st := DefaultStyles()
	custom := DefaultStyles()
	custom.ExpandHint = "space to expand"
	noHint := DefaultStyles()
	noHint.ExpandHint = ""
	long := numbered("out", 2000)

	cases := []struct {
		name     string
		call     Call
		st       Styles
		expanded bool
		want     []string // lines that must appear, in this order
		not      []string // text that must not appear anywhere
	}{
		{name: "collapsed bash keeps the tail and names the key", call: bashDone(long, false), st: st,
			want: []string{" ✓ $ make", " … 1995 earlier lines · ctrl+o to expand", " out 1996", " out 2000"}, not: []string{"out 1995"}},
		{name: "the hint follows the keymap", call: bashDone(long, false), st: custom,
			want: []string{" … 1995 earlier lines · space to expand"}},
		{name: "no hint when there is no key", call: bashDone(long, false), st: noHint,
			want: []string{" … 1995 earlier lines"}, not: []string{"·"}},
		{name: "expanded bash is capped and drops the hint", call: bashDone(long, false), st: st, expanded: true,
			want: []string{" … 1500 earlier lines", " out 1501", " out 2000"}, not: []string{"ctrl+o", "out 1500\n"}},
		{name: "exit code", call: bashDone("boom\n\nCommand exited with code 3", true), st: st,
			want: []string{" ✗ $ make", " boom", " exit 3"}, not: []string{"Command exited"}},
		{name: "signal", call: bashDone("(no output)\n\nCommand terminated by signal: SIGKILL", true), st: st,
			want: []string{" killed by SIGKILL"}, not: []string{"(no output)"}},
		{name: "bash error without output", call: bashDone("Invalid arguments for bash: command is required", true), st: st,
			want: []string{" Invalid arguments for bash: command is required"}},
		{name: "running bash shows the partial tail and elapsed time", call: Call{
			Name: "bash", Args: json.RawMessage(`{"command":"make"}`), State: Running, Spinner: "⣾", Elapsed: 65 * time.Second,
			Partial: &core.ToolUpdate{Content: []core.Content{core.TextBlock("one\ntwo\n")}}}, st: st,
			want: []string{" ⣾ $ make", " one", " two"}},
		{name: "bash output is cleaned", call: bashDone("\x1b[31mred\x1b[0m\tx\n10%\r100%", false), st: st,
			want: []string{" red x", " 100%"}, not: []string{"10%"}},
		{name: "a read with an offset numbers its lines from it", call: Call{Name: "read", Args: json.RawMessage(`{"path":"notes.txt","offset":41}`), State: Done,
			Result: textResult("alpha\nbeta", false, nil)}, st: st,
			want: []string{" ✓ read notes.txt:41-end · 2 lines", " 41 alpha", " 42 beta"}},
		{name: "plain code without a formatter", call: Call{Name: "write", Args: json.RawMessage(`{"path":"x.go","content":"package x\n"}`), State: Pending}, st: Styles{},
			want: []string{" ● write x.go · 10 B, 1 line", " 1 package x"}},
		{name: "grep notes come from the details", call: Call{Name: "grep", Args: json.RawMessage(`{"pattern":"x"}`), State: Done,
			Result: textResult("a.go:1: x\nb.go:2: x\n\n[2 matches limit reached. Use limit=4 for more, or refine pattern. Some lines truncated to 500 chars. Use read tool to see full lines]", false,
				tools.GrepDetails{MatchLimitReached: 2, LinesTruncated: true})}, st: st,
			want: []string{` ✓ grep "x" · 2 matches in 2 files`, " a.go:1: x", " b.go:2: x", " stopped at 2 matches", " long lines shortened"},
			not:  []string{"Use limit"}},
		{name: "denied shows the reason", call: Call{Name: "write", Args: json.RawMessage(`{"path":"a","content":"x"}`), State: Denied,
			Result: textResult("Denied by the user: not now", true, nil)}, st: st,
			want: []string{" ⊘ write a · 1 B, 1 line", " Denied by the user: not now"}},
		{name: "a failed done call counts as failed", call: Call{Name: "ls", Args: json.RawMessage(`{"path":"x"}`), State: Done,
			Result: textResult("Path not found: /x", true, nil)}, st: st,
			want: []string{" ✗ ls x", " Path not found: /x"}},
		{name: "unknown tool shows compact arguments and images", call: Call{Name: "screenshot", Args: json.RawMessage("{\n  \"url\": \"a\"\n}"), State: Done,
			Result: &core.ToolResult{Content: []core.Content{core.TextBlock("taken"), core.ImageBlock("AAAA", "image/jpeg")}}}, st: st,
			want: []string{` ✓ screenshot {"url":"a"}`, " [image/jpeg]", " taken"}},
		{name: "an edit's diagnostics show under its diff", call: Call{Name: "edit", Args: json.RawMessage(`{"path":"main.go"}`), State: Done,
			Result: textResult("Successfully replaced 1 block(s) in main.go.", false, map[string]any{
				"diff": "  3 func main() {\n- 4 \tvar n int = 1\n+ 4 \tvar n int = \"one\"", "firstChangedLine": 4,
				"diagnostics": []string{"The language server (go) reports 1 new error(s) in this file after the edit:", "main.go:4:14: error: cannot use \"one\""}})}, st: st,
			want: []string{" ✓ edit main.go · +1 -1", `   4 +     var n int = "one"`, " The language server (go) reports 1 new error(s) in this file after the edit:", ` main.go:4:14: error: cannot use "one"`}},
		{name: "a write's diagnostics show under its text", call: Call{Name: "write", Args: json.RawMessage(`{"path":"x.go","content":"package x\n"}`), State: Done,
			Result: textResult("Wrote x.go", false, map[string]any{"diagnostics": []string{"x.go:1:1: error: broken"}})}, st: st,
			want: []string{" 1 package x", " x.go:1:1: error: broken"}},
		{name: "edit preview failure is a warning", call: Call{Name: "edit", Args: json.RawMessage(`{"path":"a.go","edits":[]}`), State: Pending,
			PreviewError: "Invalid arguments for edit: edits must contain at least one replacement"}, st: st,
			want: []string{" ● edit a.go", " Invalid arguments for edit: edits must contain at least one replacement"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lines := plain(c.call, 100, c.st, c.expanded)
			all := strings.Join(lines, "\n") + "\n"
			at := 0
			for _, w := range c.want {
				i := indexFrom(lines, w, at)
				if i < 0 {
					t.Fatalf("missing line %q (in order) in:\n%s", w, all)
				}
				at = i + 1
			}
			for _, n := range c.not {
				if strings.Contains(all, n) {
					t.Errorf("unexpected %q in:\n%s", n, all)
				}
			}
		})
	}
}

// indexFrom finds the first line from index at that starts with prefix.
func indexFrom(lines []string, prefix string, at int) int {
	for i := at; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], prefix) {
			return i
		}
	}
	return -1
}

// TestRenderFitsEveryWidth draws every golden case, and some awkward text,
// at widths from tiny to wide: every line must be exactly as wide as asked.
func TestRenderFitsEveryWidth(t *testing.T) {
	cases := renderCases(t)
	awkward := strings.Join([]string{
		"日本語のテキストがここにあります。日本語のテキストがここにあります。日本語のテキストがここにあります。",
		"\x1b[1;32mcoloured\x1b[0m output with\ttabs\tand a very long tail " + strings.Repeat("x", 300),
		"emoji 👍🏽 and combining e\u0301 characters",
	}, "\n")
	cases = append(cases,
		renderCase{name: "awkward bash", call: bashDone(awkward, false), expanded: true},
		renderCase{name: "awkward read", call: Call{Name: "read", Args: json.RawMessage(`{"path":"日本.txt"}`), State: Done, Result: textResult(awkward, false, nil)}, expanded: true},
		renderCase{name: "awkward generic", call: Call{Name: "ツール", Args: json.RawMessage(`{"q":"日本語"}`), State: Failed, Result: textResult(awkward, true, nil)}},
	)
	for _, c := range cases {
		for _, width := range []int{1, 5, 9, 20, 37, 61} {
			out := Render(c.call, width, DefaultStyles(), c.expanded)
			for i, line := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(line); w != width {
					t.Errorf("%s at %d: line %d is %d cells: %q", c.name, width, i, w, ansi.Strip(line))
				}
			}
			if h := Header(c.call, width, DefaultStyles()); ansi.StringWidth(h) > width {
				t.Errorf("%s: header at %d is %d cells: %q", c.name, width, ansi.StringWidth(h), ansi.Strip(h))
			}
		}
	}
}

func TestHeader(t *testing.T) {
	st := DefaultStyles()
	cases := []struct {
		call  Call
		width int
		want  string
	}{
		{Call{Name: "bash", Args: json.RawMessage(`{"command":"go test ./...\ngo vet ./..."}`), State: Done, Elapsed: 1500 * time.Millisecond}, 40,
			"✓ $ go test ./...                   1.5s"},
		{Call{Name: "bash", Args: json.RawMessage(`{"command":"echo a very long command that cannot fit"}`), State: Running, Spinner: "⠋", Elapsed: 2 * time.Second}, 30,
			"⠋ $ echo a very long com… 2.0s"},
		{Call{Name: "read", Args: json.RawMessage(`{"path":"core/agent.go","offset":10,"limit":31}`), State: Pending}, 60,
			"● read core/agent.go:10-40"},
		{Call{Name: "read", Args: json.RawMessage(`{"path":"a.go","limit":20}`), State: Streaming}, 60,
			"● read a.go:1-20"},
		{Call{Name: "edit", Args: json.RawMessage(`{"path":"a.go"}`), State: Cancelled}, 30,
			"⊘ edit a.go          cancelled"},
		{Call{Name: "ls", State: Running, Spinner: "⠋"}, 8, "⠋ ls ."},
		{Call{Name: "find", Args: json.RawMessage(`{"pattern":"*.go","path":"core"}`), State: Pending}, 60, `● find "*.go" in core`},
	}
	for _, c := range cases {
		if got := ansi.Strip(Header(c.call, c.width, st)); got != c.want {
			t.Errorf("Header = %q, want %q", got, c.want)
		}
	}
}

func TestBackgroundFollowsState(t *testing.T) {
	st := DefaultStyles()
	cases := map[State]lipgloss.Style{Streaming: st.PendingBg, Pending: st.PendingBg, Running: st.PendingBg,
		Done: st.SuccessBg, Failed: st.ErrorBg, Denied: st.ErrorBg, Cancelled: st.ErrorBg}
	for state, bg := range cases {
		out := Render(Call{Name: "ls", State: state, Result: textResult("a", false, nil)}, 40, st, false)
		seq := background(bg)
		for i, line := range strings.Split(out, "\n") {
			if !strings.HasPrefix(line, seq) {
				t.Errorf("%v: line %d does not start on its background: %q", state, i, line)
			}
		}
	}
	// Without background colours nothing sets one.
	bare := st
	bare.PendingBg, bare.SuccessBg, bare.ErrorBg = lipgloss.NewStyle(), lipgloss.NewStyle(), lipgloss.NewStyle()
	if out := Render(bashDone("x", false), 40, bare, false); strings.Contains(out, "\x1b[48") {
		t.Errorf("a background without background styles: %q", out)
	}
}

func TestPaintMatchesLipgloss(t *testing.T) {
	st := DefaultStyles()
	styles := []lipgloss.Style{st.Title, st.Output, st.Muted, st.Error, st.PendingBg, lipgloss.NewStyle(),
		lipgloss.NewStyle().Italic(true).Faint(true).Blink(true).Foreground(lipgloss.Color("3")).Background(lipgloss.Color("200"))}
	for _, s := range styles {
		if got, want := paintOf(s).render("text"), s.Render("text"); got != want {
			t.Errorf("paint %q, lipgloss %q", got, want)
		}
	}
}

func TestStateString(t *testing.T) {
	if Streaming.String() != "streaming" || Cancelled.String() != "cancelled" || State(42).String() != "unknown" {
		t.Error("state names")
	}
}

// exit_plan_mode's box shows the plan, wrapped, and what became of it.
func TestPlanBox(t *testing.T) {
	args := []byte(`{"plan":"1. Rename foo to bar\n2. Run the tests"}`)
	pending := ansi.Strip(Render(Call{ID: "p", Name: "exit_plan_mode", Args: args, State: Pending}, 60, Styles{}, false))
	for _, want := range []string{"plan · 2 lines", "1. Rename foo to bar", "2. Run the tests"} {
		if !strings.Contains(pending, want) {
			t.Errorf("%q missing:\n%s", want, pending)
		}
	}
	res := &core.ToolResult{IsError: true, Content: []core.Content{core.TextBlock("The user did not accept the plan: add docs")}}
	kept := ansi.Strip(Render(Call{ID: "p", Name: "exit_plan_mode", Args: args, State: Done, Result: res}, 60, Styles{}, false))
	if !strings.Contains(kept, "2. Run the tests") || !strings.Contains(kept, "add docs") {
		t.Errorf("a plan kept planning lost its text or feedback:\n%s", kept)
	}
}
