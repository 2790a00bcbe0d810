package aionrs

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn/core/agent"
)

// MaxFrameBytes is the longest command line Serve accepts: 8 MiB. aionrs
// hosts attach files by path, so real commands are far shorter. A longer
// line is refused with a protocol_error and skipped up to its newline.
const MaxFrameBytes = 8 << 20

// commandType names a command of the protocol.
type commandType string

// The commands Serve understands.
const (
	cmdMessage     commandType = "message"
	cmdStop        commandType = "stop"
	cmdToolApprove commandType = "tool_approve"
	cmdToolDeny    commandType = "tool_deny"
	cmdInitHistory commandType = "init_history"
	cmdSetMode     commandType = "set_mode"
	cmdSetConfig   commandType = "set_config"
	cmdPing        commandType = "ping"
	cmdAddMCP      commandType = "add_mcp_server"
)

// command is one decoded line. Only the fields of its Type are meaningful.
type command struct {
	Type   commandType
	MsgID  string
	Input  string
	Files  []string
	CallID string
	Scope  string // "once" or "always"
	Reason string
	Text   string
	Mode   string
	Config *configChange // set_config's fields
	MCP    addMCP
	Rewind agent.RewindArgs
}

// wireCommand is a command line as JSON; pointers tell missing from empty.
type wireCommand struct {
	Type    *string  `json:"type"`
	MsgID   *string  `json:"msg_id"`
	Input   *string  `json:"input"`
	Content *string  `json:"content"` // aionrs's own name for input
	Files   []string `json:"files"`
	CallID  *string  `json:"call_id"`
	Scope   *string  `json:"scope"`
	Reason  *string  `json:"reason"`
	Text    *string  `json:"text"`
	Mode    *string  `json:"mode"`
	// add_mcp_server's fields.
	Name      *string           `json:"name"`
	Transport *string           `json:"transport"`
	Command   *string           `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	URL       *string           `json:"url"`
	Headers   map[string]string `json:"headers"`
}

// protocolError is a command that cannot be served; its text is the
// error frame's message.
type protocolError struct {
	msg string
	// msgID is the message the error is about, when the line named one.
	msgID string
}

func (e *protocolError) Error() string { return e.msg }

func badCommand(format string, args ...any) *protocolError {
	return &protocolError{msg: fmt.Sprintf(format, args...)}
}

// decodeCommand reads one command line. Unknown fields are ignored, as
// hosts add fields over time; a missing or mistyped field the command
// needs is an error.
func decodeCommand(line []byte) (command, *protocolError) {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return command{}, badCommand("Invalid command: each line must be one JSON object")
	}
	var w wireCommand
	if err := json.Unmarshal(trimmed, &w); err != nil {
		return command{}, badCommand("Invalid command: %v", err)
	}
	if w.Type == nil {
		return command{}, badCommand(`Invalid command: the "type" field is missing`)
	}
	c := command{Type: commandType(*w.Type)}
	str := func(p *string) string {
		if p == nil {
			return ""
		}
		return *p
	}
	need := func(name string, p *string) *protocolError {
		if p == nil || *p == "" {
			return badCommand("Invalid %s command: %q is required", c.Type, name)
		}
		return nil
	}
	switch c.Type {
	case cmdMessage:
		if err := need("msg_id", w.MsgID); err != nil {
			return c, err
		}
		c.MsgID, c.Files = *w.MsgID, w.Files
		c.Input = str(w.Input)
		if w.Input == nil {
			c.Input = str(w.Content)
		}
		if c.Input == "" && len(c.Files) == 0 {
			return c, &protocolError{msgID: c.MsgID, msg: `Invalid message command: "input" is empty and no files are attached`}
		}
	case cmdToolApprove:
		if err := need("call_id", w.CallID); err != nil {
			return c, err
		}
		c.CallID, c.Scope = *w.CallID, str(w.Scope)
		switch c.Scope {
		case "":
			c.Scope = "once"
		case "once", "always":
		default:
			return c, badCommand(`Invalid tool_approve command: scope must be "once" or "always", not %q`, c.Scope)
		}
	case cmdToolDeny:
		if err := need("call_id", w.CallID); err != nil {
			return c, err
		}
		c.CallID, c.Reason = *w.CallID, str(w.Reason)
	case cmdInitHistory:
		if w.Text == nil {
			return c, badCommand(`Invalid init_history command: "text" is required`)
		}
		c.Text = *w.Text
	case cmdSetMode:
		if err := need("mode", w.Mode); err != nil {
			return c, err
		}
		c.Mode = *w.Mode
	case cmdSetConfig:
		var cc configChange
		if err := json.Unmarshal(trimmed, &cc); err != nil {
			return c, badCommand("Invalid set_config command: %v", err)
		}
		c.Config = &cc
	case cmdAddMCP:
		if err := need("name", w.Name); err != nil {
			return c, err
		}
		if err := need("transport", w.Transport); err != nil {
			return c, err
		}
		c.MCP = addMCP{name: *w.Name, transport: *w.Transport, command: str(w.Command), url: str(w.URL),
			args: w.Args, env: w.Env, headers: w.Headers}
	case cmdRewind:
		// cairn's own command: its arguments are read as every adapter
		// reads them, and unknown fields are refused.
		args, err := agent.DecodeRewindArgs(trimmed, "type")
		if err != nil {
			return c, badCommand("Invalid rewind command: %v", err)
		}
		c.Rewind = args
	case cmdStop, cmdPing:
	default:
		return c, badCommand("Unknown command type: %s", c.Type)
	}
	return c, nil
}
