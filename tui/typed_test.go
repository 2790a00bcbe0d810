package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/core/skills"
)

// TestSkillShownAsTyped: /skill:name args shows as pi shows it, the kind
// and name with how to expand, then the person's words, not the skill's
// body; ctrl+o shows the text the model read; the rewind picker lists
// what was typed.
func TestSkillShownAsTyped(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "review", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: review\ndescription: Reviews.\n---\n" + strings.Repeat("A step of the skill.\n", 40)
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	set := skills.Load([]skills.Root{{Path: root, Source: skills.SourceUser, Label: "~/.cairn/skills"}})
	r := newRig(t, rigOptions{templates: set.Templates(), responses: []faux.Response{{Text: "Reviewed."}}})
	r.typeText("/skill:review the parser please")
	r.send(key("enter"))
	r.waitSettled()
	r.showSent()
	v := ansi.Strip(r.m.View().Content)
	if !strings.Contains(v, "[skill] review (ctrl+o to expand)") || !strings.Contains(v, "the parser please") {
		t.Errorf("the skill is not shown as typed:\n%s", v)
	}
	if strings.Contains(v, "<skill") || strings.Contains(v, "A step of the skill.") {
		t.Errorf("the skill's text shows collapsed:\n%s", v)
	}
	r.send(key("ctrl+o"))
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, "A step of the skill.") {
		t.Errorf("ctrl+o does not show the text the model read:\n%s", v)
	}
	if got := r.m.typed.promptLabel(lastUserText(r)); got != "/skill:review the parser please" {
		t.Errorf("rewind label %q", got)
	}
}

// TestTemplateShownAsTyped: a template's message shows as the command the
// person typed.
func TestTemplateShownAsTyped(t *testing.T) {
	templates := prompts.Templates{{Name: "fixup", Description: "Fix", Body: "Look at $1 and fix every bug you find in it, then run the tests.", Scope: prompts.ScopeUser}}
	r := newRig(t, rigOptions{templates: templates, responses: []faux.Response{{Text: "Fixed."}}})
	r.typeText("/fixup main.go")
	r.send(key("enter"))
	r.waitSettled()
	r.showSent()
	v := ansi.Strip(r.m.View().Content)
	if !strings.Contains(v, "[template] fixup (ctrl+o to expand)") || !strings.Contains(v, "main.go") || strings.Contains(v, "fix every bug") {
		t.Errorf("the template is not shown as typed:\n%s", v)
	}
}

// showSent hands the TUI the message the session sent, as its event
// would.
func (r *rig) showSent() {
	for _, m := range r.sess.Messages() {
		if u, ok := m.(*core.UserMessage); ok {
			r.send(eventsMsg{core.MessageStart{Message: u}})
		}
	}
}

func lastUserText(r *rig) string {
	for i := len(r.m.tr.entries) - 1; i >= 0; i-- {
		if u, ok := r.m.tr.entries[i].it.(*userItem); ok {
			return u.text
		}
	}
	return ""
}

func TestParseSkillPrompt(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
		name string
		args string
	}{
		{"<skill name=\"x\" location=\"/a/SKILL.md\">\nReferences are relative to /a.\n\nStep.\n</skill>\n\non main.go", true, "x", "on main.go"},
		{"<skill name=\"x\" location=\"/a/SKILL.md\">\nReferences are relative to /a.\n\nStep.\n</skill>", true, "x", ""},
		{"<skill name=\"q\\\"x\" location=\"/a\">\nb\n</skill>", true, `q"x`, ""},
		{"please read <skill name=\"x\" location=\"/a\">\nb\n</skill>", false, "", ""},
		{"plain words", false, "", ""},
	} {
		p, ok := parseSkillPrompt(tc.text)
		if ok != tc.ok || p.name != tc.name || p.args != tc.args {
			t.Errorf("%q: %+v %v", tc.text, p, ok)
		}
	}
}

func FuzzParseSkillPrompt(f *testing.F) {
	f.Add("<skill name=\"x\" location=\"/a\">\nb\n</skill>\n\nargs")
	f.Add("<skill name=\"\" location=\"\">\n\n</skill>")
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := parseSkillPrompt(s)
		if ok && (!strings.HasPrefix(s, "<skill name=") || !strings.Contains(p.command(), "/skill:")) {
			t.Errorf("%q parsed as %+v", s, p)
		}
	})
}

// TestExtensionDialogNamesTheExtension: an extension's confirm and select
// say which extension asks; cairn's own question does not.
func TestExtensionDialogNamesTheExtension(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.m.onQuestion(core.Question{ID: "q1", Kind: core.QuestionConfirm, Title: "Allow bash: rm -rf build?", Extension: "guard"})
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, "⚑ extension guard asks") {
		t.Errorf("the confirm does not name its extension:\n%s", v)
	}
	r = newRig(t, rigOptions{})
	r.m.onQuestion(core.Question{ID: "q2", Kind: core.QuestionSelect, Title: "Pick one", Options: []core.Option{{Value: "a", Label: "a"}}, Extension: "guard"})
	if v := ansi.Strip(r.m.View().Content); !strings.Contains(v, "Extension guard: Pick one") {
		t.Errorf("the select does not name its extension:\n%s", v)
	}
}

// TestWelcomeListsWhatWasLoaded: the welcome names the context files,
// skills, MCP servers, extensions, hooks and agents cairn loaded, and the
// key that switches to plan mode.
func TestWelcomeListsWhatWasLoaded(t *testing.T) {
	r := newRig(t, rigOptions{})
	r.send(loadedMsg{[]LoadedGroup{{Label: "Context", Items: []string{"AGENTS.md", "~/.cairn/AGENTS.md"}},
		{Label: "Skills", Items: []string{"review"}}, {Label: "MCP", Items: []string{"github"}},
		{Label: "Extensions"}, {Label: "Hooks", Items: []string{"PreToolUse"}}, {Label: "Agents", Items: []string{"explorer"}}}})
	v := ansi.Strip(r.m.View().Content)
	for _, want := range []string{"Context   AGENTS.md, ~/.cairn/AGENTS.md", "Skills    review", "MCP       github", "Hooks     PreToolUse", "Agents    explorer", "shift+tab switches the mode: default, auto_edit, plan"} {
		if !strings.Contains(v, want) {
			t.Errorf("the welcome does not say %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Extensions") {
		t.Errorf("an empty kind is listed:\n%s", v)
	}
}

// TestFooterShowsSandboxAndModeKey: with the sandbox on, the footer says
// what commands may do; the mode names the key that changes it.
func TestFooterShowsSandboxAndModeKey(t *testing.T) {
	r := newRig(t, rigOptions{})
	if v := ansi.Strip(r.m.footerView(120)); strings.Contains(v, "sandbox") || !strings.Contains(v, "default (shift+tab)") {
		t.Errorf("footer without a sandbox:\n%s", v)
	}
	r.m.opts.Sandbox = &sandbox.Policy{Project: "/p"}
	r.m.foot.reset(r.m.opts, r.sess)
	if v := ansi.Strip(r.m.footerView(120)); !strings.Contains(v, "sandbox: writes project · network off") {
		t.Errorf("footer does not show the sandbox:\n%s", v)
	}
}
