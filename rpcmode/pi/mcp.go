package pi

import (
	"github.com/cairn-dev/cairn/core/mcp"
)

// mcpServerData is one server in get_mcp_servers' answer (a cairn
// command: pi has MCP only in its TUI).
type mcpServerData struct {
	Name      string        `json:"name"`
	State     string        `json:"state"`
	Transport string        `json:"transport"`
	Command   string        `json:"command"`
	Source    string        `json:"source"`
	Tools     []mcpToolData `json:"tools"`
	// Prompts are the server's prompts as the commands that send them.
	Prompts []mcpPromptData `json:"prompts"`
	Error   string          `json:"error,omitempty"`
	Stderr  string          `json:"stderr,omitempty"`
	Log     string          `json:"log,omitempty"`
}

// mcpToolData is one tool of a server, under the name the model calls it
// by.
type mcpToolData struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	ReadOnly    bool   `json:"readOnly,omitempty"`
	Destructive *bool  `json:"destructive,omitempty"`
}

// mcpPromptData is one prompt of a server: its command (without the
// slash) and what it does.
type mcpPromptData struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// mcpServers answers get_mcp_servers: every configured server with its
// state, its tools and prompts and, when it failed, why.
func (s *server) mcpServers(*command) (any, error) {
	out := []mcpServerData{}
	if s.host.MCP == nil {
		return map[string]any{"servers": out}, nil
	}
	for _, st := range s.host.MCP() {
		state := st.State.String()
		if st.Server.Disabled {
			state = "disabled"
		}
		d := mcpServerData{Name: st.Server.Name, State: state, Transport: string(st.Server.Transport),
			Command: st.Server.CommandLine(), Source: st.Server.Source, Tools: []mcpToolData{},
			Prompts: []mcpPromptData{}, Stderr: st.Stderr, Log: st.Log}
		if st.Err != nil {
			d.Error = st.Err.Error()
		}
		for _, t := range st.Tools {
			d.Tools = append(d.Tools, mcpToolData{Name: mcp.ToolName(st.Server.Name, t.Name), Description: t.Description,
				ReadOnly: t.ReadOnly, Destructive: t.Destructive})
		}
		for _, p := range st.Prompts {
			c := mcp.PromptCommand{Name: mcp.PromptCommandName(st.Server.Name, p.Name), Server: st.Server.Name, Prompt: p}
			d.Prompts = append(d.Prompts, mcpPromptData{Name: c.Name, Description: c.Description()})
		}
		out = append(out, d)
	}
	return map[string]any{"servers": out}, nil
}
