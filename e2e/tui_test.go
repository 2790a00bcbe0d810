package e2e

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

// markdownAnswer is the first streamed answer: a heading, a list and a Go
// block, in chunks small enough that the stream is visibly incremental.
const markdownAnswer = "# Cairn heading\n\nSome **bold** words first.\n\n" +
	"- first item\n- second item\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```\n\nThat is all.\n"

// TestTUI drives cairn as a person would, in one conversation: a streamed
// markdown answer, an approved bash call, a `!` command whose output
// reaches the model, a resize, an aborted stream, quitting, and resuming
// with --continue.
func TestTUI(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("main", 100, 30)
	p.waitText("test-model")

	t.Log("step 1: a streamed markdown answer is rendered")
	h.llm.queue(textReply(markdownAnswer, 7))
	p.typeText("show me some markdown")
	p.keys("Enter")
	screen := p.waitText("Cairn heading", "second item", "Println", "That is all.")
	for _, raw := range []string{"```", "**bold**", "- first item"} {
		if strings.Contains(screen, raw) {
			t.Errorf("raw markdown %q is on screen; want it rendered:\n%s", raw, frame(screen))
		}
	}
	// The heading keeps a "# " mark, drawn bold in the heading colour as
	// part of the rendering; the bold words and the code are styled too.
	styled := p.styledScreen()
	for _, c := range []struct {
		text string
		want func(termimage.Style) bool
		what string
	}{
		{"Cairn heading", func(s termimage.Style) bool { return s.Bold }, "bold"},
		{"bold words", func(s termimage.Style) bool { return s.Bold }, "bold"},
		{"func main", func(s termimage.Style) bool { return s.FG.Mode != termimage.ColorDefault }, "coloured"},
	} {
		if st, ok := styleAt(styled, c.text); !ok || !c.want(st) {
			t.Errorf("%q is not %s on screen (style %+v, found %v)", c.text, c.what, st, ok)
		}
	}
	if !strings.Contains(lastRows(screen, 3), "test-model") {
		t.Errorf("the footer (last rows) does not show the model:\n%s", frame(screen))
	}
	first := h.llm.waitRequest(t, 0)
	if got := lastUserText(t, first); got != "show me some markdown" {
		t.Errorf("first request's last user message is %q", got)
	}

	t.Log("step 2: a bash call is approved with a key and runs")
	h.llm.queue(
		reply{chunks: []string{"I will run it."}, toolCalls: []fakeToolCall{{id: "call_1", name: "bash", arguments: `{"command":"echo approved-$((6*7))"}`}}},
		textReply("The tool finished.", 6),
	)
	p.typeText("run a command")
	p.keys("Enter")
	waiting := p.waitText("echo approved-$((6*7))", approvalPrompt)
	if strings.Contains(waiting, "approved-42") || h.llm.count() != 2 {
		t.Fatalf("the command ran before it was approved (%d requests):\n%s", h.llm.count(), frame(waiting))
	}
	p.answerApproval(approvalPrompt, "y")
	p.waitText("approved-42", "The tool finished.")
	toolReq := h.llm.waitRequest(t, 2)
	if !hasToolResult(t, toolReq, "call_1", "approved-42") {
		t.Errorf("the request after the tool call has no tool result with approved-42:\n%s", toolReq.body)
	}

	t.Log("step 3: a ! command's output joins the model's context")
	p.typeText("!echo hi-from-bash")
	p.keys("Enter")
	p.waitFor("the output line hi-from-bash", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "hi-from-bash") && !strings.Contains(l, "echo") {
				return true
			}
		}
		return false
	})
	// Keys typed while the command runs are its input: wait for its end.
	p.waitFor("the command's end (exit 0)", func(s string) bool {
		for _, l := range strings.Split(s, "\n") {
			if strings.TrimSpace(l) == "exit 0" {
				return true
			}
		}
		return false
	})
	h.llm.queue(textReply("It printed a greeting.", 8))
	p.typeText("what did it print?")
	p.keys("Enter")
	p.waitText("It printed a greeting.")
	bashReq := h.llm.waitRequest(t, 3)
	if !hasUserText(t, bashReq, "Ran `echo hi-from-bash`\n```\nhi-from-bash") {
		t.Errorf("the next request does not carry the ! command and its output:\n%s", bashReq.body)
	}

	t.Log("step 4: the screen re-lays out when the terminal is resized")
	for _, size := range [][2]int{{60, 20}, {100, 30}} {
		w, hgt := size[0], size[1]
		p.resize(w, hgt)
		screen := p.waitFor("a layout that fits the new size", func(s string) bool {
			return fits(s, w, hgt) && strings.Contains(lastRows(s, 3), "test-model") && ruleWidth(s) == w
		})
		if strings.Contains(screen, "�") {
			t.Errorf("broken characters after resizing to %dx%d:\n%s", w, hgt, frame(screen))
		}
	}

	t.Log("step 5: Esc aborts a slow stream and the agent takes the next prompt")
	slow := reply{pace: 40 * time.Millisecond}
	for range 300 {
		slow.chunks = append(slow.chunks, "slow ")
	}
	h.llm.queue(slow)
	p.typeText("stream slowly")
	p.keys("Enter")
	p.waitText("slow slow slow")
	p.keys("Escape")
	aborted := h.llm.waitRequest(t, 4)
	if !aborted.cancelled {
		t.Error("the slow stream ran to its end: Esc did not abort it")
	}
	p.waitFor("a note that the answer was interrupted", func(s string) bool {
		return interrupted.MatchString(s)
	})
	h.llm.queue(textReply("Back again after the abort.", 9))
	p.typeText("are you there?")
	p.keys("Enter")
	p.waitText("Back again after the abort.")

	t.Log("step 6: /quit saves the session and --continue brings it back")
	p.typeText("/quit")
	p.keys("Enter")
	status, printed := p.waitExit()
	if status != "0" || !strings.Contains(printed, "Session saved: ") {
		t.Fatalf("after /quit cairn exited with status %s and printed:\n%s", status, printed)
	}
	// The last exchange stays in the terminal's scrollback.
	if !strings.Contains(printed, "are you there?") || !strings.Contains(printed, "Back again after the abort.") {
		t.Errorf("after /quit the last exchange is not on the normal screen:\n%s", printed)
	}
	r := h.cairn("resumed", 100, 30, "--continue")
	r.waitText("are you there?", "Back again after the abort.")
	r.keys("C-c")
	r.keys("C-c")
	if status, printed := r.waitExit(); status != "0" || !strings.Contains(printed, "Session saved: ") {
		t.Errorf("after ctrl+c twice cairn exited with status %s and printed:\n%s", status, printed)
	}
}

// approvalPrompt is text on the approval prompt's line.
const approvalPrompt = "[y] once"

// interrupted matches what cairn shows under an answer stopped with Esc.
var interrupted = regexp.MustCompile(`(?i)interrupted|aborted|cancelled`)

// lastRows is the last n non-empty rows of a screen.
func lastRows(screen string, n int) string {
	rows := strings.Split(strings.TrimRight(screen, "\n"), "\n")
	return strings.Join(rows[max(0, len(rows)-n):], "\n")
}

// fits reports whether a screen has the given number of rows and no row
// wider than width.
func fits(screen string, width, height int) bool {
	rows := strings.Split(strings.TrimSuffix(screen, "\n"), "\n")
	return len(rows) == height && widest(screen) <= width
}

// ruleWidth is the length of the longest run of horizontal line characters
// on the screen: the editor's border spans the whole width.
func ruleWidth(screen string) int {
	best := 0
	for _, l := range strings.Split(screen, "\n") {
		n := 0
		for _, r := range l {
			if strings.ContainsRune("─━═╭╮╰╯", r) {
				n++
				best = max(best, n)
			} else {
				n = 0
			}
		}
	}
	return best
}

func decodeRequest(t testing.TB, r request) chatRequest {
	t.Helper()
	var c chatRequest
	if err := json.Unmarshal(r.body, &c); err != nil {
		t.Fatalf("request body is not JSON: %v\n%s", err, r.body)
	}
	return c
}

// lastUserText is the text of a request's last user message.
func lastUserText(t testing.TB, r request) string {
	c := decodeRequest(t, r)
	for i := len(c.Messages) - 1; i >= 0; i-- {
		if c.Messages[i].Role == "user" {
			return messageText(c.Messages[i].Content)
		}
	}
	return ""
}

// hasUserText reports whether a user message of the request contains text.
func hasUserText(t testing.TB, r request, text string) bool {
	for _, m := range decodeRequest(t, r).Messages {
		if m.Role == "user" && strings.Contains(messageText(m.Content), text) {
			return true
		}
	}
	return false
}

// hasToolResult reports whether the request carries the result of call id
// containing text.
func hasToolResult(t testing.TB, r request, id, text string) bool {
	for _, m := range decodeRequest(t, r).Messages {
		if m.Role == "tool" && m.ToolCallID == id && strings.Contains(messageText(m.Content), text) {
			return true
		}
	}
	return false
}

// styleAt finds text on a styled screen and returns the style of its first
// character.
func styleAt(s *termimage.Screen, text string) (termimage.Style, bool) {
	for _, row := range s.Cells {
		var line strings.Builder
		var starts []int // cell index of each byte offset's character
		for x, c := range row {
			if c.Width == 0 {
				continue
			}
			for range len(c.Text) {
				starts = append(starts, x)
			}
			line.WriteString(c.Text)
		}
		if i := strings.Index(line.String(), text); i >= 0 {
			return row[starts[i]].Style, true
		}
	}
	return termimage.Style{}, false
}
