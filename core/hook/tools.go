package hook

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Tool is how a call of a cairn tool looks to a hook: the name it is
// matched and reported by, and its arguments in Claude Code's terms.
type Tool struct {
	// Name is Claude Code's name for the tool (Bash, Edit, ...), or
	// cairn's where Claude Code has none (MCP tools share the name).
	Name string
	// Names are every name a matcher may select the call by: Name, and
	// cairn's own name (and Edit for a MultiEdit).
	Names []string
	// Input is tool_input: the arguments with Claude Code's field names,
	// paths absolute.
	Input json.RawMessage
}

// claudeNames maps cairn's built-in tools to Claude Code's names.
var claudeNames = map[string]string{
	"bash": "Bash", "bash_output": "BashOutput", "kill_shell": "KillShell",
	"read": "Read", "write": "Write", "edit": "Edit", "grep": "Grep", "find": "Glob", "ls": "LS",
}

// renamed are the argument names that differ, cairn's to Claude Code's,
// for every tool but edit (which changes shape).
var renamed = map[string]map[string]string{
	"read":  {"path": "file_path"},
	"write": {"path": "file_path"},
	"grep":  {"ignoreCase": "-i", "context": "-C"},
}

// absolute are the arguments that name a path, made absolute for hooks as
// Claude Code's are.
var absolute = map[string]bool{"path": true, "file_path": true}

// ToolCall describes a call of tool name with args (cairn's arguments)
// for hooks; dir is the directory relative paths are resolved against.
// Arguments that are not a JSON object are passed on as they are.
func ToolCall(name string, args json.RawMessage, dir string) Tool {
	if inner, innerArgs, ok := throughMCPCall(name, args); ok {
		// A call through mcp_call is the call of the MCP tool it names,
		// so a matcher for that tool guards it too.
		return Tool{Name: inner, Names: []string{inner, name}, Input: innerArgs}
	}
	t := Tool{Name: name, Names: []string{name}, Input: args}
	claude, ok := claudeNames[name]
	if !ok {
		return t
	}
	var in map[string]any
	if json.Unmarshal(args, &in) != nil || in == nil {
		t.Name, t.Names = claude, []string{claude, name}
		return t
	}
	out := map[string]any{}
	for k, v := range in {
		if to, ok := renamed[name][k]; ok {
			k = to
		}
		out[k] = v
	}
	if name == "bash" {
		if secs, ok := in["timeout"].(float64); ok {
			out["timeout"] = secs * 1000 // Claude Code's is in milliseconds
		}
	}
	if name == "edit" {
		claude = editInput(in, out)
	}
	for k := range absolute {
		if p, ok := out[k].(string); ok && p != "" && !filepath.IsAbs(p) && dir != "" {
			out[k] = filepath.Join(dir, p)
		}
	}
	t.Name, t.Names = claude, []string{claude, name}
	if claude == "MultiEdit" {
		t.Names = append(t.Names, "Edit")
	}
	if data, err := json.Marshal(out); err == nil {
		t.Input = data
	}
	return t
}

// editInput writes cairn's edit arguments (path, edits of oldText and
// newText) as Claude Code's Edit (one edit) or MultiEdit, and returns
// which.
func editInput(in, out map[string]any) string {
	delete(out, "path")
	delete(out, "edits")
	out["file_path"] = in["path"]
	edits, _ := in["edits"].([]any)
	var list []map[string]any
	for _, e := range edits {
		m, _ := e.(map[string]any)
		list = append(list, map[string]any{"old_string": m["oldText"], "new_string": m["newText"], "replace_all": false})
	}
	if len(list) == 1 {
		out["old_string"], out["new_string"], out["replace_all"] = list[0]["old_string"], list[0]["new_string"], false
		return "Edit"
	}
	out["edits"] = list
	return "MultiEdit"
}

// ToolArguments turns a hook's updatedInput, in Claude Code's terms, back
// into arguments of cairn's tool name. The caller checks the result
// against the tool's parameters.
//
// For a call through mcp_call, original is its arguments: updated replaces
// the named tool's arguments.
func ToolArguments(name string, original, updated json.RawMessage) (json.RawMessage, error) {
	if inner, _, ok := throughMCPCall(name, original); ok {
		return json.Marshal(map[string]any{"tool": inner, "arguments": updated})
	}
	if _, ok := claudeNames[name]; !ok {
		return updated, nil
	}
	var in map[string]any
	if err := json.Unmarshal(updated, &in); err != nil || in == nil {
		return nil, fmt.Errorf("updatedInput is not a JSON object")
	}
	out := map[string]any{}
	back := map[string]string{}
	for from, to := range renamed[name] {
		back[to] = from
	}
	for k, v := range in {
		if from, ok := back[k]; ok {
			k = from
		}
		out[k] = v
	}
	switch name {
	case "bash":
		if ms, ok := in["timeout"].(float64); ok {
			out["timeout"] = ms / 1000
		}
	case "edit":
		delete(out, "file_path")
		delete(out, "old_string")
		delete(out, "new_string")
		delete(out, "replace_all")
		if r, _ := in["replace_all"].(bool); r {
			return nil, fmt.Errorf("cairn's edit tool has no replace_all")
		}
		out["path"] = in["file_path"]
		var edits []map[string]any
		if list, ok := in["edits"].([]any); ok {
			for _, e := range list {
				m, _ := e.(map[string]any)
				if r, _ := m["replace_all"].(bool); r {
					return nil, fmt.Errorf("cairn's edit tool has no replace_all")
				}
				edits = append(edits, map[string]any{"oldText": m["old_string"], "newText": m["new_string"]})
			}
		} else {
			edits = []map[string]any{{"oldText": in["old_string"], "newText": in["new_string"]}}
		}
		out["edits"] = edits
	}
	return json.Marshal(out)
}

// mcpCallTool is the name of cairn's tool that calls an MCP tool by name
// (core/mcp's CallToolName).
const mcpCallTool = "mcp_call"

// throughMCPCall reads a call of mcp_call: the MCP tool it names
// (mcp__server__tool) and that tool's arguments.
func throughMCPCall(name string, args json.RawMessage) (string, json.RawMessage, bool) {
	if name != mcpCallTool {
		return "", nil, false
	}
	var call struct {
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(args, &call) != nil || !strings.HasPrefix(call.Tool, "mcp__") {
		return "", nil, false
	}
	if len(call.Arguments) == 0 || string(call.Arguments) == "null" {
		call.Arguments = json.RawMessage(`{}`)
	}
	return call.Tool, call.Arguments, true
}
