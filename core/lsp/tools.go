package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// DetailsKey is the key of an edit's details under which the diagnostics
// lines appended to its result are kept, for front ends to show under the
// diff.
const DetailsKey = "diagnostics"

// WithDiagnostics returns t, a tool that writes the file its "path"
// argument names (write, edit), reporting after each successful call the
// errors the call introduced in that file, as m's server for it sees
// them. Paths are resolved against dir as the tools resolve them.
func WithDiagnostics(t core.Tool, m *Manager, dir string) core.Tool {
	return &diagnosed{Tool: t, m: m, dir: dir}
}

// diagnosed is a file-writing tool followed by its file's diagnostics.
type diagnosed struct {
	core.Tool
	m   *Manager
	dir string
}

// Execute runs the tool between a baseline of the file's diagnostics and
// the server's answer about its new text.
func (d *diagnosed) Execute(ctx context.Context, call core.ToolCall, update func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal(call.Arguments, &args)
	if args.Path == "" {
		return d.Tool.Execute(ctx, call, update)
	}
	path := toolpath.Resolve(args.Path, d.dir)
	before := d.m.Before(ctx, path)
	res, err := d.Tool.Execute(ctx, call, update)
	if err != nil || res.IsError || ctx.Err() != nil {
		return res, err
	}
	return Annotate(res, d.m.After(ctx, path, before), d.m.Dir()), nil
}

// Annotate adds what r says to an edit's result: its text as a text block
// for the model, and its lines under DetailsKey in the details.
func Annotate(res core.ToolResult, r Report, dir string) core.ToolResult {
	text := r.Text(dir)
	if text == "" {
		return res
	}
	res.Content = append(res.Content, core.TextBlock("\n\n"+text))
	details := map[string]json.RawMessage{}
	if len(res.Details) > 0 && json.Unmarshal(res.Details, &details) != nil {
		return res
	}
	lines := strings.Split(text, "\n")
	if b, err := json.Marshal(lines); err == nil {
		details[DetailsKey] = b
		if out, err := json.Marshal(details); err == nil {
			res.Details = out
		}
	}
	return res
}

// Tool is the diagnostics tool: a file's errors and warnings from its
// language server, or every file's that the running servers reported. It
// only looks, so it needs no approval inside the project.
type Tool struct {
	// M runs the servers.
	M *Manager
	// Dir resolves relative paths.
	Dir string
}

var toolSpec = core.ToolSpec{
	Name: "diagnostics",
	Description: "Errors and warnings a language server (gopls, typescript-language-server, pyright, rust-analyzer, clangd) " +
		"reports. With path: that file's, starting its server if needed. Without: every file's the running servers reported. " +
		"Edits already append the errors they introduce; use this to check a file before or after other changes.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"File to check (relative or absolute); omit for the whole project"}},"additionalProperties":false}`),
}

// Spec describes the tool.
func (*Tool) Spec() core.ToolSpec { return toolSpec }

// Category is info: the tool only looks.
func (*Tool) Category() core.ApprovalCategory { return core.CategoryInfo }

// Kind is search.
func (*Tool) Kind() core.ToolKind { return core.KindSearch }

// Execute reports the diagnostics of the file asked for, or the project's.
func (t *Tool) Execute(ctx context.Context, call core.ToolCall, _ func(core.ToolUpdate)) (core.ToolResult, error) {
	var args struct {
		Path string `json:"path"`
	}
	if err := json.Unmarshal(call.Arguments, &args); err != nil {
		return core.ErrorResult("diagnostics: " + err.Error()), nil
	}
	if args.Path == "" {
		return t.project(), nil
	}
	path := toolpath.Resolve(args.Path, t.Dir)
	list, err := t.M.File(ctx, path)
	if err != nil {
		return core.ErrorResult(err.Error()), nil
	}
	if len(list) == 0 {
		return core.TextResult("No errors or warnings in " + args.Path + "."), nil
	}
	list = sortedDiagnostics(list)
	return core.TextResult(fmt.Sprintf("%d diagnostic(s):\n", len(list)) + strings.Join(Lines(t.M.Dir(), path, list), "\n")), nil
}

// project lists the running servers' diagnostics, file by file, capped
// at MaxShown lines in all.
func (t *Tool) project() core.ToolResult {
	files, servers := t.M.Project()
	if len(servers) == 0 {
		return core.TextResult("No language server is running yet: they start when a file of their language is edited, " +
			"or when this tool is given a file's path.")
	}
	var lines []string
	total := 0
	for _, f := range files {
		for _, d := range sortedDiagnostics(f.List) {
			total++
			if len(lines) < MaxShown {
				lines = append(lines, Line(t.M.Dir(), f.Path, d))
			}
		}
	}
	if total == 0 {
		return core.TextResult("No errors or warnings reported by " + strings.Join(servers, ", ") + ".")
	}
	if total > len(lines) {
		lines = append(lines, fmt.Sprintf("... and %d more", total-len(lines)))
	}
	return core.TextResult(fmt.Sprintf("%d diagnostic(s) from %s:\n", total, strings.Join(servers, ", ")) + strings.Join(lines, "\n"))
}
