package tui

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/tui/editor"
)

// mcpPromptMsg carries an MCP prompt the server returned for a command
// the person typed, or why it could not be had.
type mcpPromptMsg struct {
	typed string
	exp   mcp.Expansion
	ok    bool // the command named an MCP prompt
	err   error
}

// mcpResourcesMsg carries the ready servers' resources, offered after
// `@server:`.
type mcpResourcesMsg struct {
	mentions []editor.Command
}

// syncMCP offers the MCP servers' prompts after `/` as they come and go
// (servers start in the background, after the first frame), and when the
// ready servers change, returns a command that lists their resources for
// completion after `@server:`.
//
// While servers are still starting, the status line names them and a
// command waits (bounded) for their next change, so the line follows them
// even when nothing else happens; typing is never held up.
func (m *Model) syncMCP() tea.Cmd {
	servers := m.opts.MCPServers
	if servers == nil {
		return nil
	}
	changed := servers.Changed() // before Version: no change falls between
	v := servers.Version()
	starting := servers.Starting()
	var watch tea.Cmd
	if len(starting) > 0 && !m.mcpWatching {
		m.mcpWatching = true
		watch = watchMCP(changed)
	}
	if v == m.mcpVersion {
		return watch
	}
	m.mcpVersion = v
	m.ed.SetCommands(m.commandList())
	if len(starting) > 0 {
		m.status.setKeyed("mcp-starting", "MCP starting: "+strings.Join(starting, ", "))
	} else {
		m.status.setKeyed("mcp-starting", "")
	}
	var ready []string
	for _, st := range servers.Statuses() {
		if st.State == mcp.Ready {
			ready = append(ready, st.Server.Name)
		}
	}
	if key := strings.Join(ready, "\x00"); key != m.mcpReady {
		m.mcpReady = key
		return tea.Batch(watch, listMentions(servers, ready))
	}
	return watch
}

// mcpChangedMsg says the MCP servers changed (or the watch's limit
// passed); Update's syncMCP reads them.
type mcpChangedMsg struct{}

// mcpWatchLimit bounds one watch, so no command outlives the program by
// long.
const mcpWatchLimit = 10 * time.Second

// watchMCP waits for changed to close, within mcpWatchLimit.
func watchMCP(changed <-chan struct{}) tea.Cmd {
	return func() tea.Msg {
		t := time.NewTimer(mcpWatchLimit)
		defer t.Stop()
		select {
		case <-changed:
		case <-t.C:
		}
		return mcpChangedMsg{}
	}
}

// listMentions lists the resources of the servers named ready as
// server:uri; a server that cannot list them offers none.
func listMentions(servers *mcp.Manager, ready []string) tea.Cmd {
	return func() tea.Msg {
		var out []editor.Command
		for _, name := range ready {
			res, err := servers.Resources(context.Background(), name)
			if err != nil {
				continue
			}
			for _, r := range res {
				desc := r.Name
				if r.MIMEType != "" {
					desc = strings.TrimSpace(desc + " (" + r.MIMEType + ")")
				}
				out = append(out, editor.Command{Name: name + ":" + r.URI, Description: desc})
			}
		}
		return mcpResourcesMsg{mentions: out}
	}
}

// mcpCommandList is the MCP prompts as editor commands.
func (m *Model) mcpCommandList() []editor.Command {
	var out []editor.Command
	for _, c := range m.opts.MCPServers.PromptCommands() {
		out = append(out, editor.Command{Name: c.Name, Description: strings.TrimSpace(c.Description() + " (MCP)")})
	}
	return out
}

// runMCPPrompt asks the server for the prompt text names, in the
// background.
func (m *Model) runMCPPrompt(text string) tea.Cmd {
	name, _, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	m.status.setKeyed("mcp", "Getting /"+name+" from its MCP server…")
	servers := m.opts.MCPServers
	return func() tea.Msg {
		exp, ok, err := servers.ExpandPrompt(context.Background(), text)
		return mcpPromptMsg{typed: text, exp: exp, ok: ok, err: err}
	}
}

// onMCPPrompt sends the prompt a server returned; when there is none,
// what was typed comes back to the editor with the reason.
func (m *Model) onMCPPrompt(msg mcpPromptMsg) tea.Cmd {
	m.status.setKeyed("mcp", "")
	typed := editor.SubmitMsg{Text: msg.typed}
	switch {
	case !msg.ok:
		name, _, _ := strings.Cut(strings.TrimPrefix(msg.typed, "/"), " ")
		m.restoreDraft(typed)
		m.status.set(core.NotifyError, fmt.Sprintf("Unknown command /%s. /help lists the commands.", name), m.now())
		return nil
	case msg.err != nil:
		m.restoreDraft(typed)
		m.status.set(core.NotifyError, msg.err.Error(), m.now())
		return nil
	case m.firstRun != nil:
		m.restoreDraft(typed)
		m.status.set(core.NotifyWarning, "No model is set up yet: see above.", m.now())
		return nil
	}
	images, err := editorImages(msg.exp.Images)
	if err != nil {
		m.restoreDraft(typed)
		m.status.set(core.NotifyError, err.Error(), m.now())
		return nil
	}
	return m.sendPromptText(typed, msg.exp.Text, images)
}

// loadRefs reads the images and the MCP resources a prompt names (`@path`,
// `@server:uri`) in the background. A resource that cannot be read stops
// the prompt, as an unreadable image does.
func (m *Model) loadRefs(sub editor.SubmitMsg, paths []string) tea.Cmd {
	servers := m.opts.MCPServers
	m.status.setKeyed("mcp", "Reading MCP resources…")
	loadImages := loadImageRefs(sub, paths)
	return func() tea.Msg {
		msg := loadImages().(imageRefsMsg)
		if msg.err != nil {
			return msg
		}
		exp, err := servers.AttachResources(context.Background(), sub.Text)
		if err == nil {
			var images []editor.Image
			images, err = editorImages(exp.Images)
			msg.images = append(msg.images, images...)
		}
		msg.text, msg.err = exp.Text, err
		return msg
	}
}

// editorImages turns image blocks from a server into draft images.
func editorImages(blocks []core.Content) ([]editor.Image, error) {
	var out []editor.Image
	for i, b := range blocks {
		data, err := base64.StdEncoding.DecodeString(b.Data)
		if err != nil {
			return nil, fmt.Errorf("an MCP server sent an image that is not base64: %v", err)
		}
		out = append(out, editor.Image{Name: fmt.Sprintf("mcp-image-%d", i+1), MimeType: b.MimeType, Data: data})
	}
	return out, nil
}

// mcpReconnect restarts the server named in args (/mcp reconnect <server>).
func (m *Model) mcpReconnect(args string) tea.Cmd {
	name := strings.TrimSpace(args)
	switch {
	case m.opts.MCPServers == nil:
		m.status.set(core.NotifyError, "No MCP servers are running: there is nothing to reconnect.", m.now())
	case name == "":
		m.status.set(core.NotifyError, "Usage: /mcp reconnect <server>. /mcp lists the servers.", m.now())
	default:
		if err := m.opts.MCPServers.Reconnect(name); err != nil {
			m.status.set(core.NotifyError, err.Error(), m.now())
			return nil
		}
		m.status.set(core.NotifyInfo, fmt.Sprintf("Reconnecting to MCP server %q; /mcp shows when it is ready.", name), m.now())
	}
	return nil
}

// mcpPromptLines lists a server's prompts under their commands for /mcp.
func (m *Model) mcpPromptLines(b *strings.Builder, st mcp.Status) {
	for _, p := range st.Prompts {
		c := mcp.PromptCommand{Name: mcp.PromptCommandName(st.Server.Name, p.Name), Server: st.Server.Name, Prompt: p}
		fmt.Fprintf(b, "  /%s%s\n", strings.TrimSpace(c.Name+" "+c.Usage()), m.st.muted.Render(" (prompt)"))
	}
}
