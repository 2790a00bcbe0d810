package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestDialogTitleNamesTheExtension: a dialog an extension opens asks the
// editor for permission under a title that names the extension, so it
// cannot pass for cairn's own approval.
func TestDialogTitleNamesTheExtension(t *testing.T) {
	var buf bytes.Buffer
	out := &output{w: bufio.NewWriter(&buf)}
	s := &server{out: out, permissions: map[int]permit{}}
	w := &writer{srv: s, out: out, sessionID: "s1"}
	s.askDialog(w, core.Question{ID: "q1", Kind: core.QuestionConfirm, Title: "Delete build/?", Message: "3 MB", Extension: "guard"})
	if err := out.w.Flush(); err != nil {
		t.Fatal(err)
	}
	var frame struct {
		Params struct {
			ToolCall struct {
				Title string `json:"title"`
			} `json:"toolCall"`
		} `json:"params"`
	}
	if err := json.Unmarshal(bytes.TrimSpace(buf.Bytes()), &frame); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if got := frame.Params.ToolCall.Title; !strings.HasPrefix(got, "Extension guard: Delete build/?") {
		t.Errorf("title %q does not name the extension", got)
	}
}

// TestNoticeNeverSplitsTheAnswer: a notice (the "Trusted" one) that comes
// while an answer streams waits for the answer's end, and is set apart
// from its last line by a blank line.
func TestNoticeNeverSplitsTheAnswer(t *testing.T) {
	var buf bytes.Buffer
	out := &output{w: bufio.NewWriter(&buf)}
	s := &server{out: out, permissions: map[int]permit{}}
	w := &writer{srv: s, out: out, sessionID: "s1"}
	answer := &core.AssistantMessage{}
	w.handle(core.MessageStart{Message: answer})
	w.handle(core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "Hello wor"})
	w.handle(markNotice{core.Notice{Level: core.NotifyWarning, Message: "Trusted /p."}})
	w.handle(core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "ld."})
	w.handle(core.MessageEnd{Message: answer})
	if err := out.w.Flush(); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var f struct {
			Params struct {
				Update struct {
					Content struct {
						Text string `json:"text"`
					} `json:"content"`
				} `json:"update"`
			} `json:"params"`
		}
		if err := json.Unmarshal([]byte(line), &f); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		text.WriteString(f.Params.Update.Content.Text)
	}
	if got, want := text.String(), "Hello world.\n\n> cairn: Trusted /p.\n\n"; got != want {
		t.Errorf("the message reads %q, want %q", got, want)
	}
}

// TestTaskCardTitledByItsDescription: a subagent's card says what it
// does, not just "task".
func TestTaskCardTitledByItsDescription(t *testing.T) {
	s := &server{}
	b := &bound{host: Host{Cwd: t.TempDir()}, kinds: map[string]core.ToolKind{"task": core.KindOther}}
	args := `{"description":"Find the flaky test","prompt":"Look at ci logs","subagent_type":"explore"}`
	if _, title, _ := s.describe(b, "task", json.RawMessage(args), false); title != "Find the flaky test (explore)" {
		t.Errorf("title %q", title)
	}
}

// TestUnpromptedSessionIsStored: a session created and never prompted is
// written at once, so session/list names it and a later process can
// session/resume it (acpx opens a new session otherwise, silently).
func TestUnpromptedSessionIsStored(t *testing.T) {
	r := newRig(t, rigConfig{files: true})
	id := r.newSession()
	res := r.result("session/list", map[string]any{"cwd": r.cwd})
	found := false
	for _, s := range res["sessions"].([]any) {
		found = found || s.(map[string]any)["sessionId"] == id
	}
	if !found {
		t.Errorf("the new session %s is not stored: %v", id, res)
	}
}
