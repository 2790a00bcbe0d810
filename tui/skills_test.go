package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/skills"
)

// TestSkillCommand: /skill:name is completed, listed by /help as a skill,
// and sends the skill's instructions with the words after it; a skill
// whose file went away says so and keeps what was typed.
func TestSkillCommand(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "x", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("---\nname: x\ndescription: Does x.\n---\nStep one.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := skills.Load([]skills.Root{{Path: root, Source: skills.SourceUser, Label: "~/.cairn/skills"}})
	r := newRig(t, rigOptions{templates: set.Templates(), responses: []faux.Response{{Text: "Done."}}})
	found := false
	for _, c := range r.m.commandList() {
		found = found || (c.Name == "skill:x" && c.Description == "Does x.")
	}
	if !found {
		t.Error("the skill is not offered after /")
	}
	r.m.cmdHelp("")
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, "/skill:x") || !strings.Contains(v, "Does x. (skill)") {
		t.Errorf("/help does not list the skill:\n%s", v)
	}
	r.typeText("/skill:x on main.go")
	r.send(key("enter"))
	r.waitSettled()
	var sent string
	for _, m := range r.sess.Messages() {
		if u, ok := m.(*core.UserMessage); ok {
			sent = u.Text()
		}
	}
	if !strings.HasPrefix(sent, `<skill name="x"`) || !strings.HasSuffix(sent, "Step one.\n</skill>\n\non main.go") {
		t.Errorf("sent %q", sent)
	}

	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	r.typeText("/skill:x again")
	r.send(key("enter"))
	if !strings.Contains(r.m.status.text, "skill x") || r.m.ed.Value() != "/skill:x again" {
		t.Errorf("status %q, editor %q", r.m.status.text, r.m.ed.Value())
	}
}
