package piext

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/session"
	"github.com/cairn-dev/cairn/core/toolset"
)

// builtinTool stands for one of cairn's built-in tools: a name, a
// description and parameters.
type builtinTool struct{ name string }

func (b builtinTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: b.name, Description: "cairn's " + b.name, Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (b builtinTool) Category() core.ApprovalCategory { return core.CategoryInfo }
func (b builtinTool) Kind() core.ToolKind             { return core.KindOther }
func (b builtinTool) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.TextResult(b.name), nil
}

// sessionTools is the harness's session tools: four built-in tools and
// the extensions', behind the switch extensions turn them on and off
// with, as cmd/cairn builds them.
func sessionTools(m *extension.Manager) *toolset.Switch {
	reg := toolset.Static([]core.Tool{builtinTool{"read"}, builtinTool{"bash"}, builtinTool{"edit"}, builtinTool{"write"}})
	reg.Add(m)
	return toolset.NewSwitch(reg)
}

// The fake session is an extension.ToolSwitcher over its switch.
func (h *fakeHost) AllTools() []core.Tool { return h.tools.All() }
func (h *fakeHost) ActiveTools() []string { return h.tools.Active() }
func (h *fakeHost) SetActiveTools(names []string) []string {
	unknown := h.tools.SetActive(names)
	h.changed()
	return unknown
}

// activeIs waits until the session's active tools are want.
func (h *harness) activeIs(t *testing.T, want ...string) {
	t.Helper()
	h.host.waitFor(t, "active tools "+strings.Join(want, ",")+" (have "+strings.Join(h.host.tools.Active(), ",")+")", func([]core.Event, []string, []core.Question) bool {
		return slices.Equal(h.host.tools.Active(), want)
	})
}

// tools: /tools lists cairn's tools in pi-tui's SettingsList; switching
// one off leaves the session without it (neither offered nor callable)
// and keeps the choice in a tools-config entry, which a session started
// later restores at session_start.
func driveTools(t *testing.T) {
	h := startHost(t, "custom", "tools.ts")
	h.sessionStart(t)
	done := h.asyncInput(t, "/tools")
	c := h.component(t, 70, 20)
	lines := strings.Join(c.lines(t, "Tool Configuration"), "\n")
	for _, name := range []string{"read", "bash", "edit", "write"} {
		if !strings.Contains(lines, name) {
			t.Errorf("the list lacks cairn's %s:\n%s", name, lines)
		}
	}
	c.key(keyDown, keyEnter) // bash: disabled
	h.activeIs(t, "read", "edit", "write")
	if h.host.tools.Find("bash") != nil {
		t.Error("a switched-off tool is still callable")
	}
	c.lines(t, "disabled")
	c.key(keyEscape)
	c.closed(t)
	if err := receive(t, "/tools to end", done); err != nil {
		t.Fatal(err)
	}
	if n := h.entryCount("tools-config"); n != 1 {
		t.Fatalf("%d tools-config entries, want 1", n)
	}
	h.host.mu.Lock()
	var kept []session.Payload
	for _, e := range h.host.entries {
		kept = append(kept, e.Payload)
	}
	h.host.mu.Unlock()

	// The next session restores the choice from its entries.
	again := startHostWith(t, t.TempDir(), nil, kept, "custom", "tools.ts")
	again.sessionStart(t)
	again.activeIs(t, "read", "edit", "write")
}

// getAllTools lists every tool of the session with its description and
// parameters, getActiveTools the active ones; setActiveTools switches
// built-in tools and the extension's own, and names in the extension's
// log what the session has no tool of.
func TestToolsOfTheSession(t *testing.T) {
	dir := t.TempDir()
	ext := filepath.Join(dir, "probe.ts")
	src := `export default function (pi) {
  pi.registerTool({ name: "probe", label: "Probe", description: "the probe", parameters: { type: "object", properties: {} },
    async execute() { return { content: [{ type: "text", text: "ok" }] }; } });
  pi.registerCommand("probe", { handler: async (args, ctx) => {
    if (args === "set") { pi.setActiveTools(["edit", "nope"]); return; }
    if (args === "on") { pi.setActiveTools(["edit", "probe"]); return; }
    const all = pi.getAllTools();
    ctx.ui.notify(JSON.stringify({ all: all.map((t) => [t.name, t.description, t.parameters.type, t.sourceInfo.source]), active: pi.getActiveTools() }), "info");
  } });
}
`
	if err := os.WriteFile(ext, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHost(t, "tui", ext)
	if err := receive(t, "/probe", h.asyncInput(t, "/probe")); err != nil {
		t.Fatal(err)
	}
	want := `{"all":[["read","cairn's read","object","builtin"],["bash","cairn's bash","object","builtin"],["edit","cairn's edit","object","builtin"],["write","cairn's write","object","builtin"],["probe","the probe","object","local"]],"active":["read","bash","edit","write","probe"]}`
	h.host.waitFor(t, "the tools listed", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), want)
	})
	if err := receive(t, "/probe set", h.asyncInput(t, "/probe set")); err != nil {
		t.Fatal(err)
	}
	h.activeIs(t, "edit")
	if h.host.tools.Find("read") != nil || h.m.Find("probe") != nil {
		t.Error("a switched-off tool is still callable")
	}
	// Switched off, the extension's own tool is still listed, and comes
	// back when named.
	if err := receive(t, "/probe", h.asyncInput(t, "/probe")); err != nil {
		t.Fatal(err)
	}
	h.host.waitFor(t, "the tools listed again", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), `["probe","the probe","object","local"]],"active":["edit"]}`)
	})
	if err := receive(t, "/probe on", h.asyncInput(t, "/probe on")); err != nil {
		t.Fatal(err)
	}
	h.activeIs(t, "edit", "probe")
	if h.host.tools.Find("probe") == nil {
		t.Error("the tool switched on again is not callable")
	}
	// Closed, the extensions' logs hold all they wrote.
	h.m.Close()
	logs, _ := filepath.Glob(filepath.Join(h.logDir, "*.log"))
	var log []byte
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		log = append(log, b...)
	}
	if !strings.Contains(string(log), `setActiveTools: no tool is named "nope"; ignored`) {
		t.Errorf("the log (%v) does not name the unknown tool:\n%s", logs, log)
	}
}
