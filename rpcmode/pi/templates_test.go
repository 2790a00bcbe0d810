package pi

import (
	"testing"

	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

var testPrompts = prompts.Templates{
	{Name: "deploy", Description: "Deploy", Body: "Deploy ${1:-staging} now", Path: "/repo/.cairn/prompts/deploy.md", Scope: prompts.ScopeProject},
	{Name: "review", Description: "Review a change", Body: "Review $1, then $@", Path: "/home/me/.cairn/prompts/review.md", Scope: prompts.ScopeUser},
}

func TestGetCommandsListsPromptTemplates(t *testing.T) {
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), prompts: testPrompts})
	r.send(map[string]any{"id": "c", "type": "get_commands"})
	res := r.response("c")
	want := []any{
		map[string]any{"name": "deploy", "description": "Deploy", "source": "prompt", "location": "project", "path": "/repo/.cairn/prompts/deploy.md",
			"sourceInfo": map[string]any{"path": "/repo/.cairn/prompts/deploy.md", "source": "local", "scope": "project", "origin": "top-level"}},
		map[string]any{"name": "review", "description": "Review a change", "source": "prompt", "location": "user", "path": "/home/me/.cairn/prompts/review.md",
			"sourceInfo": map[string]any{"path": "/home/me/.cairn/prompts/review.md", "source": "local", "scope": "user", "origin": "top-level"}},
	}
	if !sameJSON(res.get("data.commands"), want) {
		t.Errorf("get_commands: %s", res.text)
	}
}

// TestPromptTemplatesExpand: a prompt, steer or follow_up starting with a
// template's /name reaches the model as the template's text.
func TestPromptTemplatesExpand(t *testing.T) {
	fp := faux.New(slow, faux.Response{Text: mediumText()}, faux.Response{Text: "a"}, faux.Response{Text: "b"}, faux.Response{Text: "c"})
	r := newRig(t, rigConfig{faux: fp, prompts: testPrompts})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": `/review "the parser" carefully`})
	r.response("p")
	r.wait(map[string]any{"type": "message_start", "message.role": "user", "message.content.0.text": "Review the parser, then the parser carefully"})

	r.send(map[string]any{"id": "s", "type": "steer", "message": "/deploy"})
	r.wait(map[string]any{"type": "queue_update", "steering.0": "Deploy staging now"})
	r.response("s")
	r.send(map[string]any{"id": "f", "type": "follow_up", "message": "/deploy prod"})
	r.wait(map[string]any{"type": "queue_update", "followUp.0": "Deploy prod now"})
	r.response("f")
	// Not a template: sent as typed.
	r.send(map[string]any{"id": "u", "type": "follow_up", "message": "/etc/hosts looks wrong"})
	r.wait(map[string]any{"type": "queue_update", "followUp.1": "/etc/hosts looks wrong"})
	r.response("u")
	r.wait(map[string]any{"type": "agent_settled"})
}
