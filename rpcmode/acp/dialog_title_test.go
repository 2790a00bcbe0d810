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
