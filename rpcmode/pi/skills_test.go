package pi

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/skills"
)

// TestSkillsAreCommands: get_commands lists each skill as "skill:<name>"
// with source "skill" after the templates, as pi 0.87 does, and a prompt
// "/skill:name args" reaches the model as the skill's block and the args.
func TestSkillsAreCommands(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "SKILL.md")
	if err := os.WriteFile(path, []byte("---\nname: x\ndescription: Does x.\n---\nStep one.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	set := skills.Load([]skills.Root{{Path: filepath.Dir(dir), Source: skills.SourceUser, Label: "~/.cairn/skills"}})
	fp := faux.New(faux.Options{}, faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: fp, prompts: append(testPrompts[:1:1], set.Templates()...)})
	r.send(map[string]any{"id": "c", "type": "get_commands"})
	res := r.response("c")
	want := map[string]any{"name": "skill:x", "description": "Does x.", "source": "skill", "location": "user", "path": path,
		"sourceInfo": map[string]any{"path": path, "source": "local", "scope": "user", "origin": "top-level", "baseDir": dir}}
	if !sameJSON(res.get("data.commands.1"), want) {
		t.Errorf("get_commands: %s", res.text)
	}
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "/skill:x on main.go"})
	r.response("p")
	text := "<skill name=\"x\" location=\"" + filepath.ToSlash(path) + "\">\nReferences are relative to " + filepath.ToSlash(dir) +
		".\n\nStep one.\n</skill>\n\non main.go"
	r.wait(map[string]any{"type": "message_start", "message.role": "user", "message.content.0.text": text})
	r.wait(map[string]any{"type": "agent_settled"})
}
