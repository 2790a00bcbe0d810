package extension

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/toolset"
)

// builtin stands for a built-in tool of the session.
type builtin string

func (b builtin) Spec() core.ToolSpec {
	return core.ToolSpec{Name: string(b), Description: "the " + string(b), Parameters: json.RawMessage(`{}`)}
}
func (b builtin) Category() core.ApprovalCategory { return core.CategoryInfo }
func (b builtin) Kind() core.ToolKind             { return core.KindOther }
func (b builtin) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.ToolResult{}, nil
}

// switchHost is a session whose tools extensions switch.
type switchHost struct {
	*fakeHost
	sw *toolset.Switch
}

func (h switchHost) AllTools() []core.Tool                  { return h.sw.All() }
func (h switchHost) ActiveTools() []string                  { return h.sw.Active() }
func (h switchHost) SetActiveTools(names []string) []string { return h.sw.SetActive(names) }

// toolsExtension is a version-v extension with an inactive tool "late",
// attached to h (a switchHost over read and bash and the extensions'
// tools when switching).
func toolsExtension(t *testing.T, v int, switching bool) (*extension, *toolset.Switch) {
	t.Helper()
	m := New(nil, Options{Mode: "tui"})
	e := &extension{m: m, cfg: Config{Name: "x"}, version: v, state: Ready, ops: map[*opCtx]struct{}{}, exited: make(chan struct{})}
	t.Cleanup(func() { close(e.exited) })
	e.tools = []*Tool{{e: e, def: ToolDef{Name: "late", Description: "comes later", Parameters: json.RawMessage(`{"type":"object"}`)}}}
	m.exts = []*extension{e}
	reg := toolset.Static([]core.Tool{builtin("read"), builtin("bash")})
	reg.Add(m)
	sw := toolset.NewSwitch(reg)
	if switching {
		m.Attach(switchHost{newHost(), sw})
	} else {
		m.Attach(newHost())
	}
	return e, sw
}

func toolsCall(e *extension, method, params string) (any, *jsonrpc2.Error) {
	return e.sessionTools(jsonrpc2.Message{Method: method, Params: json.RawMessage(params)})
}

// get_tools lists the session's tools and the extensions' inactive ones;
// set_tools switches built-in and extension tools alike and names the
// unknown.
func TestSessionTools(t *testing.T) {
	e, sw := toolsExtension(t, 2, true)
	r, err := toolsCall(e, MethodGetTools, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(r)
	want := `{"tools":[{"name":"read","description":"the read","parameters":{},"source":"builtin"},{"name":"bash","description":"the bash","parameters":{},"source":"builtin"},{"name":"late","description":"comes later","parameters":{"type":"object"},"source":"extension"}],"active":["read","bash"]}`
	if string(got) != want {
		t.Errorf("get_tools %s\nwant %s", got, want)
	}
	r, err = toolsCall(e, MethodSetTools, `{"names":["late","nope","read"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if res := r.(SetToolsResult); !slices.Equal(res.Unknown, []string{"nope"}) {
		t.Errorf("unknown %v", res.Unknown)
	}
	if got := sw.Active(); !slices.Equal(got, []string{"read", "late"}) {
		t.Errorf("active %v", got)
	}
	if sw.Find("bash") != nil || sw.Find("late") == nil {
		t.Error("the switch did not reach the calls")
	}
	if _, err := toolsCall(e, MethodSetTools, `{"names":["read"],"more":1}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("an unknown field: %v", err)
	}
	if _, err := toolsCall(e, MethodGetTools, `{"x":1}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("get_tools with a parameter: %v", err)
	}
}

// Version 1 has no get_tools; a session that cannot switch its tools
// refuses, saying so.
func TestSessionToolsRefused(t *testing.T) {
	e, _ := toolsExtension(t, 1, true)
	if _, err := toolsCall(e, MethodGetTools, `{}`); err == nil || err.Code != jsonrpc2.MethodNotFound {
		t.Errorf("version 1: %v", err)
	}
	e, _ = toolsExtension(t, 2, false)
	if _, err := toolsCall(e, MethodSetTools, `{"names":[]}`); err == nil || err.Code != CodeRefused || !strings.Contains(err.Message, "cannot switch") {
		t.Errorf("no switch: %v", err)
	}
}
