package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/skills"
)

// TestSkillsAreAvailableCommands: an editor is offered each skill as the
// command skill:<name>, and running it sends the skill's instructions and
// the words after it.
func TestSkillsAreAvailableCommands(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: x\ndescription: Does x.\n---\nStep one.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := skills.Load([]skills.Root{{Path: root, Source: skills.SourceUser, Label: "~/.cairn/skills"}})
	r := newRig(t, rigConfig{prompts: set.Templates(), responses: []faux.Response{{Text: "done"}}})
	sid := r.newSession()
	cmds := r.update("available_commands_update", nil)
	if !strings.Contains(cmds.text, `{"name":"skill:x","description":"Does x."}`) {
		t.Errorf("commands: %s", cmds.text)
	}
	if got := r.response(r.prompt(sid, "/skill:x now")).str("result.stopReason"); got != "end_turn" {
		t.Errorf("stopReason = %q", got)
	}
	// Kept as typed; the expansion beside it is what the model reads.
	msgs := r.sess.Messages()
	u, ok := msgs[0].(*core.UserMessage)
	if !ok || core.PlainText(u.Content) != "/skill:x now" {
		t.Errorf("the person's message is %#v, want the command as typed", msgs[0])
	}
	exp, ok := msgs[1].(*core.CustomMessage)
	if !ok || exp.Display || !strings.HasPrefix(core.PlainText(exp.Content), `<skill name="x"`) || !strings.HasSuffix(core.PlainText(exp.Content), "Step one.\n</skill>\n\nnow") {
		t.Errorf("the model was sent %#v", msgs[1])
	}
	llm := core.ToLLM(msgs)
	if len(llm) < 2 || !strings.Contains(core.PlainText(llm[1].(*core.UserMessage).Content), "Step one.") {
		t.Errorf("the model's context %#v lacks the expansion", llm)
	}
}

// A command typed as the prompt is stored as typed, so session/load shows
// what the person wrote, not the template's text.
func TestSlashCommandStoredAsTyped(t *testing.T) {
	set := prompts.Templates{{Name: "review", Description: "Review a file", Body: "Review $1 with great care, line by line."}}
	r := newRig(t, rigConfig{files: true, prompts: set, responses: []faux.Response{{Text: "reviewed"}}})
	sid := r.newSession()
	if got := r.response(r.prompt(sid, "/review main.go")).str("result.stopReason"); got != "end_turn" {
		t.Fatalf("stopReason = %q", got)
	}
	from := len(r.out.all())
	r.result("session/load", map[string]any{"sessionId": sid, "cwd": r.cwd, "mcpServers": []any{}})
	var shown []string
	for _, l := range r.out.all()[from:] {
		if l.str("params.update.sessionUpdate") == "user_message_chunk" {
			shown = append(shown, l.str("params.update.content.text"))
		}
	}
	if len(shown) != 1 || shown[0] != "/review main.go" {
		t.Errorf("replayed user text = %q, want the command as typed", shown)
	}
}
