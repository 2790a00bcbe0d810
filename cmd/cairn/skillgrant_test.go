package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/skills"
)

type grantTool struct{}

func (grantTool) Spec() core.ToolSpec             { return core.ToolSpec{Name: "bash"} }
func (grantTool) Category() core.ApprovalCategory { return core.CategoryExec }
func (grantTool) Kind() core.ToolKind             { return core.KindOther }
func (grantTool) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.ToolResult{}, nil
}

type noAnswer struct{ asked int }

func (n *noAnswer) Ask(context.Context, core.Question) (core.Answer, core.Outcome) {
	n.asked++
	return core.Answer{}, core.Dismissed
}

// TestSkillGrantForOnePrompt: /skill:commit (typed, or as its expansion)
// lets the prompt run the skill's allowed-tools commands unasked; the
// person's next message ends it, and another prompt never had it.
func TestSkillGrantForOnePrompt(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "commit", skills.FileName)
	writeFile(t, path, "---\ndescription: Commit.\nallowed-tools: Bash(git add:*), Bash\n---\nStage and commit.\n")
	set := skills.Load([]skills.Root{{Path: dir, Source: skills.SourceUser, Label: "test"}})
	gate, err := approval.Open(approval.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var told []string
	ic := skillGrantInterceptor(set, gate, func(s string) { told = append(told, s) })
	if !ic.NotForChildren {
		t.Error("a subagent's prompt (the model's words) could grant the skill's tools")
	}
	ctx := context.Background()
	args, _ := json.Marshal(map[string]string{"command": "git add -A"})
	call := core.ToolCall{ID: "1", Name: "bash", Arguments: args}
	runs := func() bool {
		ask := &noAnswer{}
		d := gate.Check(ctx, grantTool{}, call, ask)
		return d.Allow && ask.asked == 0
	}
	expansion, err := set.Skills[0].Command("now")
	if err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{expansion, "/skill:commit now"} {
		if _, err := ic.Input(ctx, agent.InputEvent{Text: prompt}); err != nil {
			t.Fatal(err)
		}
		if _, err := ic.BeforeAgentStart(ctx, agent.AgentStartEvent{Prompt: prompt}); err != nil {
			t.Fatal(err)
		}
		if !runs() {
			t.Errorf("%.20q: git add was asked about", prompt)
		}
		if _, err := ic.Input(ctx, agent.InputEvent{Text: "and now?"}); err != nil {
			t.Fatal(err)
		}
		if runs() {
			t.Errorf("%.20q: the grant outlived the next message", prompt)
		}
	}
	if _, err := ic.BeforeAgentStart(ctx, agent.AgentStartEvent{Prompt: "please git add"}); err != nil || runs() {
		t.Errorf("a plain prompt was granted: %v", err)
	}
	all := strings.Join(told, "\n")
	if !strings.Contains(all, "skill commit may use without asking, for this prompt: bash: git add") ||
		!strings.Contains(all, "Bash: every command: cairn asks as usual") {
		t.Errorf("told:\n%s", all)
	}
}
