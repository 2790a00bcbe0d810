package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/prompts"
)

// PromptCommand is a server's prompt offered as the slash command
// /mcp__<server>__<prompt>, as Claude Code names them.
type PromptCommand struct {
	// Name is the command without its slash.
	Name   string
	Server string
	Prompt PromptInfo
}

// Usage shows the prompt's arguments: <required> and [optional] ones, in
// order.
func (c PromptCommand) Usage() string {
	var parts []string
	for _, a := range c.Prompt.Arguments {
		if a.Required {
			parts = append(parts, "<"+a.Name+">")
		} else {
			parts = append(parts, "["+a.Name+"]")
		}
	}
	return strings.Join(parts, " ")
}

// Description is what a command list shows: the first line of the
// prompt's description (or its title), then its usage.
func (c PromptCommand) Description() string {
	d := firstLine(c.Prompt.Description)
	if d == "" {
		d = c.Prompt.Title
	}
	return strings.TrimSpace(d + " " + c.Usage())
}

// PromptCommandName is the slash command name (without the slash) of a
// server's prompt: characters a command cannot hold become _.
func PromptCommandName(server, prompt string) string {
	return "mcp__" + commandSafe(server) + "__" + commandSafe(prompt)
}

func commandSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}

// PromptCommands returns the prompts of the ready servers as slash
// commands, in configuration order. Two prompts whose names meet the same
// command name are offered once, the first.
func (m *Manager) PromptCommands() []PromptCommand {
	if m == nil {
		return nil
	}
	var out []PromptCommand
	seen := map[string]bool{}
	for _, st := range m.Statuses() {
		if st.State != Ready {
			continue
		}
		for _, p := range st.Prompts {
			name := PromptCommandName(st.Server.Name, p.Name)
			if seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, PromptCommand{Name: name, Server: st.Server.Name, Prompt: p})
		}
	}
	return out
}

// Expansion is what a prompt or a message with attachments becomes: the
// text to send and the images that go with it.
type Expansion struct {
	Text   string
	Images []core.Content
}

// ExpandPrompt expands a message that starts with an MCP prompt's slash
// command (/mcp__<server>__<prompt> args...): it asks the server for the
// prompt filled with the arguments (see PromptArgs) and returns its
// messages' text, joined by blank lines, and their images. A server still
// starting is waited for, within its timeout and ctx. ok is false when
// text names no configured MCP server (and the message is something
// else); with ok true, err says why the prompt could not be had (an
// unknown prompt, a missing argument, a server stopped, not ready in time
// or failing).
func (m *Manager) ExpandPrompt(ctx context.Context, text string) (exp Expansion, ok bool, err error) {
	if !m.NamesPrompt(text) {
		return Expansion{}, false, nil
	}
	name, input, _ := promptCall(text)
	cmd, found := m.findPrompt(name)
	if !found {
		server, ours := m.promptServer(name)
		if !ours {
			return Expansion{}, false, nil
		}
		if cmd, err = m.waitPrompt(ctx, server, name); err != nil {
			return Expansion{}, true, err
		}
	}
	args, err := PromptArgs(cmd.Prompt, input)
	if err != nil {
		return Expansion{}, true, fmt.Errorf("/%s: %w", name, err)
	}
	s, _ := m.server(cmd.Server)
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	conn, err := m.Conn(ctx, cmd.Server)
	if err != nil {
		return Expansion{}, true, err
	}
	content, err := conn.GetPrompt(ctx, cmd.Prompt.Name, args)
	if err != nil {
		return Expansion{}, true, fmt.Errorf("MCP server %q: get prompt %s: %s", cmd.Server, cmd.Prompt.Name, modelError(err))
	}
	exp = flatten(content)
	if strings.TrimSpace(exp.Text) == "" && len(exp.Images) == 0 {
		return Expansion{}, true, fmt.Errorf("MCP server %q: prompt %s is empty", cmd.Server, cmd.Prompt.Name)
	}
	return exp, true, nil
}

// NamesPrompt reports whether text starts with the slash command of an MCP
// prompt of a configured server (listed or not yet): whether ExpandPrompt
// would take it. It asks no server.
func (m *Manager) NamesPrompt(text string) bool {
	if m == nil {
		return false
	}
	name, _, ok := promptCall(text)
	if !ok {
		return false
	}
	if _, found := m.findPrompt(name); found {
		return true
	}
	_, ours := m.promptServer(name)
	return ours
}

// promptCall splits "/mcp__<server>__<prompt> input" into the command's
// name and its input.
func promptCall(text string) (name, input string, ok bool) {
	rest, found := strings.CutPrefix(text, "/")
	if !found || !strings.HasPrefix(rest, "mcp__") {
		return "", "", false
	}
	name = rest
	if i := strings.IndexAny(rest, " \t\r\n"); i >= 0 {
		name, input = rest[:i], rest[i+1:]
	}
	return name, input, true
}

// flatten joins content's text blocks with blank lines and keeps its
// images.
func flatten(content []core.Content) Expansion {
	var exp Expansion
	var texts []string
	for _, c := range content {
		switch c.Type {
		case core.ContentImage:
			exp.Images = append(exp.Images, c)
		case core.ContentText:
			if c.Text != "" {
				texts = append(texts, c.Text)
			}
		}
	}
	exp.Text = strings.Join(texts, "\n\n")
	return exp
}

func (m *Manager) findPrompt(name string) (PromptCommand, bool) {
	for _, c := range m.PromptCommands() {
		if c.Name == name {
			return c, true
		}
	}
	return PromptCommand{}, false
}

// promptServer returns the configured server a prompt command's name
// starts with (mcp__<server>__), if any: a name that fits no server is not
// an MCP prompt at all.
func (m *Manager) promptServer(name string) (string, bool) {
	for _, st := range m.Statuses() {
		if rest, ok := strings.CutPrefix(name, "mcp__"+commandSafe(st.Server.Name)+"__"); ok && rest != "" {
			return st.Server.Name, true
		}
	}
	return "", false
}

// waitPrompt waits, within the server's timeout, for a server that is not
// ready yet, then looks for the prompt name again.
func (m *Manager) waitPrompt(ctx context.Context, server, name string) (PromptCommand, error) {
	s, _ := m.server(server)
	ctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	if _, err := m.Conn(ctx, server); err != nil {
		return PromptCommand{}, err
	}
	if cmd, ok := m.findPrompt(name); ok {
		return cmd, nil
	}
	rest := strings.TrimPrefix(name, "mcp__"+commandSafe(server)+"__")
	return PromptCommand{}, fmt.Errorf("MCP server %q has no prompt %q; /mcp lists its prompts", server, rest)
}

// PromptArgs maps the text typed after a prompt's command to its
// arguments:
//
//   - a prompt with one argument takes the whole text as it ("name=" in
//     front is allowed and removed);
//   - otherwise the text is split as a shell would (quotes keep spaces),
//     name=value sets the argument name, and the other words fill the
//     arguments not named, in order.
//
// A required argument left out or empty, an unknown name, one given twice
// or words left over are errors that name the arguments the prompt takes.
func PromptArgs(p PromptInfo, input string) (map[string]string, error) {
	input = strings.TrimSpace(input)
	args := map[string]string{}
	switch {
	case len(p.Arguments) == 0:
		if input != "" {
			return nil, fmt.Errorf("%s takes no arguments", p.Name)
		}
		return args, nil
	case len(p.Arguments) == 1:
		a := p.Arguments[0]
		if v, ok := strings.CutPrefix(input, a.Name+"="); ok {
			input = unquote(v)
		}
		if input != "" {
			args[a.Name] = input
		}
		return args, checkRequired(p, args)
	}
	known := map[string]bool{}
	for _, a := range p.Arguments {
		known[a.Name] = true
	}
	var positional []string
	for _, word := range prompts.ParseArgs(input) {
		k, v, isPair := strings.Cut(word, "=")
		switch {
		case isPair && known[k]:
			if _, dup := args[k]; dup {
				return nil, fmt.Errorf("argument %q is given twice (%s)", k, takes(p))
			}
			args[k] = v
		case isPair && isArgName(k):
			return nil, fmt.Errorf("%s has no argument %q (%s)", p.Name, k, takes(p))
		default:
			positional = append(positional, word)
		}
	}
	for _, a := range p.Arguments {
		if len(positional) == 0 {
			break
		}
		if _, set := args[a.Name]; !set {
			args[a.Name], positional = positional[0], positional[1:]
		}
	}
	if len(positional) > 0 {
		return nil, fmt.Errorf("too many arguments: %q is left over (%s)", strings.Join(positional, " "), takes(p))
	}
	return args, checkRequired(p, args)
}

func checkRequired(p PromptInfo, args map[string]string) error {
	for _, a := range p.Arguments {
		if a.Required && args[a.Name] == "" {
			return fmt.Errorf("missing required argument %q (%s)", a.Name, takes(p))
		}
	}
	return nil
}

// takes says which arguments p takes: "args-prompt takes city, state
// (optional)".
func takes(p PromptInfo) string {
	var names []string
	for _, a := range p.Arguments {
		n := a.Name
		if !a.Required {
			n += " (optional)"
		}
		names = append(names, n)
	}
	return p.Name + " takes " + strings.Join(names, ", ")
}

// isArgName reports whether s looks like an argument name rather than a
// value that holds "=".
func isArgName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '_' && r != '-' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
