package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
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
	u, ok := r.sess.Messages()[0].(*core.UserMessage)
	if !ok || !strings.HasPrefix(core.PlainText(u.Content), `<skill name="x"`) || !strings.HasSuffix(core.PlainText(u.Content), "Step one.\n</skill>\n\nnow") {
		t.Errorf("the model was sent %#v", r.sess.Messages()[0])
	}
}
