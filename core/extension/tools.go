package extension

// Version 2's calls on the session's whole tool set, as pi's getAllTools,
// getActiveTools and setActiveTools: every tool the session offers
// (built-in, MCP, extensions') and which are active. set_active_tools
// stays the call on the extension's own tools.

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Methods an extension calls on cairn about the session's tools
// (version 2).
const (
	// MethodGetTools lists every tool of the session, active or not, and
	// names the active ones (pi's getAllTools and getActiveTools).
	MethodGetTools = "get_tools"
	// MethodSetTools makes exactly the named tools of the session active
	// from the next request, built-in tools included (pi's
	// setActiveTools).
	MethodSetTools = "set_tools"
)

// ToolInfo is one tool of get_tools, in pi's ToolInfo shape; Source is
// where it comes from: "builtin", "mcp" or "extension".
type ToolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Source      string          `json:"source"`
}

// GetToolsResult answers get_tools: every tool, in the order the model is
// offered them, and the names of the active ones.
type GetToolsResult struct {
	Tools  []ToolInfo `json:"tools"`
	Active []string   `json:"active"`
}

// SetToolsParams names the tools active from now on; the others are
// neither offered nor callable.
type SetToolsParams struct {
	Names []string `json:"names"`
}

// SetToolsResult names, once each, the names the session has no tool of;
// they were ignored.
type SetToolsResult struct {
	Unknown []string `json:"unknown,omitempty"`
}

// ToolSwitcher is a Host whose tools extensions list and switch
// (get_tools, set_tools); cairn's session host is one, over a
// toolset.Switch.
type ToolSwitcher interface {
	// AllTools returns every tool of the session, active or not.
	AllTools() []core.Tool
	// ActiveTools names the active tools.
	ActiveTools() []string
	// SetActiveTools makes exactly names active and returns those it has
	// no tool of.
	SetActiveTools(names []string) (unknown []string)
}

// sessionTools serves get_tools and set_tools.
func (e *extension) sessionTools(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	sw, ok := h.(ToolSwitcher)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session cannot switch its tools")
	}
	if m.Method == MethodGetTools {
		if len(m.Params) > 0 && string(m.Params) != "null" && string(m.Params) != "{}" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "get_tools takes no parameters")
		}
		return e.m.toolInfo(sw), nil
	}
	var p SetToolsParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	// The extensions' own tools are switched where they live, so that an
	// inactive one named here joins the session's tools first.
	for _, x := range e.m.exts {
		x.mu.Lock()
		for _, t := range x.tools {
			t.active = slices.Contains(p.Names, t.def.Name)
		}
		x.mu.Unlock()
	}
	e.m.changed()
	return SetToolsResult{Unknown: sw.SetActiveTools(p.Names)}, nil
}

// toolInfo lists the session's tools, then the extensions' inactive
// tools, which the session does not hold until they are switched on.
func (m *Manager) toolInfo(sw ToolSwitcher) GetToolsResult {
	res := GetToolsResult{Tools: []ToolInfo{}, Active: sw.ActiveTools()}
	if res.Active == nil {
		res.Active = []string{}
	}
	seen := map[string]bool{}
	for _, t := range sw.AllTools() {
		s := t.Spec()
		seen[s.Name] = true
		src := "builtin"
		if _, ok := t.(*Tool); ok {
			src = "extension"
		} else if t.Category() == core.CategoryMCP {
			src = "mcp"
		}
		res.Tools = append(res.Tools, ToolInfo{Name: s.Name, Description: s.Description, Parameters: s.Parameters, Source: src})
	}
	for _, x := range m.exts {
		x.mu.Lock()
		if x.state == Ready {
			for _, t := range x.tools {
				if !t.active && !seen[t.def.Name] {
					seen[t.def.Name] = true
					res.Tools = append(res.Tools, ToolInfo{Name: t.def.Name, Description: t.def.Description, Parameters: t.def.Parameters, Source: "extension"})
				}
			}
		}
		x.mu.Unlock()
	}
	return res
}
