package session

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core"
)

// roleHookMessage is the version 2 name of core.RoleCustom; pi renames it
// when it migrates a file, cairn when it reads one.
const roleHookMessage core.Role = "hookMessage"

// decodeMessage reads a message of any role pi writes, as
// core.DecodeAgentMessage does but several times faster on long texts. A
// message of an unknown role, or of a known role that does not decode,
// becomes a *core.RawMessage; only invalid JSON is an error.
func decodeMessage(data []byte) (core.Message, error) {
	var d decoder
	d.reset(data)
	m, err := d.message()
	if err != nil {
		return nil, err
	}
	if err := d.end(); err != nil {
		return nil, err
	}
	return m, nil
}

// message decodes a message of any role. A message of an unknown role, or
// of a known role that does not decode, becomes a core.RawMessage (d.soft
// says why for a known role); only invalid JSON is an error.
func (d *decoder) message() (core.Message, error) {
	if d.null() {
		return nil, nil
	}
	start := d.i
	role, err := d.role()
	if err != nil {
		return nil, err
	}
	d.i = start
	var m core.Message
	switch role {
	case core.RoleUser:
		m, err = d.userMessage()
	case core.RoleAssistant:
		m, err = d.assistantMessage()
	case core.RoleToolResult:
		m, err = d.toolResultMessage()
	case core.RoleBashExecution:
		m, err = d.bashExecution()
	case core.RoleCustom, roleHookMessage:
		m, err = d.customMessage()
	case core.RoleBranchSummary:
		m, err = d.branchSummary()
	case core.RoleCompactionSummary:
		m, err = d.compactionSummary()
	default:
		err = errUnknownRole
	}
	if err == nil {
		return m, nil
	}
	d.i = start
	raw, rerr := d.raw()
	if rerr != nil {
		return nil, rerr
	}
	if err != errUnknownRole {
		d.soft = fmt.Errorf("%s message: %w", role, err)
	}
	return &core.RawMessage{Role: role, JSON: bytes.Clone(raw)}, nil
}

var errUnknownRole = errors.New("unknown role")

// role finds the role key of the message object at the current position.
// pi writes the role first; then only the role is read, otherwise the whole
// object is scanned. The caller rewinds.
func (d *decoder) role() (core.Role, error) {
	start := d.i
	if d.peek() == '{' {
		d.i++
		if d.peek() == '"' {
			if key, err := d.stringBytes(); err == nil && string(key) == "role" && d.peek() == ':' {
				d.i++
				if d.isString() {
					if r, err := d.str(); err == nil {
						return core.Role(r), nil
					}
				}
			}
		}
	}
	d.i = start
	var role core.Role
	err := d.object(func(key []byte) error {
		if string(key) == "role" && d.isString() {
			r, err := d.str()
			role = core.Role(r)
			return err
		}
		return d.skip()
	})
	return role, err
}

func (d *decoder) userMessage() (*core.UserMessage, error) {
	m := new(core.UserMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "content":
			m.Content, err = d.contentOrString()
		case "timestamp":
			m.Timestamp, err = d.integer()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) assistantMessage() (*core.AssistantMessage, error) {
	m := new(core.AssistantMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "content":
			m.Content, err = d.contents()
		case "api":
			m.API, err = d.str()
		case "provider":
			m.Provider, err = d.str()
		case "model":
			m.Model, err = d.str()
		case "usage":
			err = d.usage(&m.Usage)
		case "stopReason":
			var s string
			s, err = d.str()
			m.StopReason = core.StopReason(s)
		case "errorMessage":
			m.ErrorMessage, err = d.str()
		case "timestamp":
			m.Timestamp, err = d.integer()
		case "responseId":
			m.ResponseID, err = d.str()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) usage(u *core.Usage) error {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) error {
		var err error
		var n int64
		switch string(key) {
		case "input":
			n, err = d.integer()
			u.Input = int(n)
		case "output":
			n, err = d.integer()
			u.Output = int(n)
		case "cacheRead":
			n, err = d.integer()
			u.CacheRead = int(n)
		case "cacheWrite":
			n, err = d.integer()
			u.CacheWrite = int(n)
		case "totalTokens":
			n, err = d.integer()
			u.TotalTokens = int(n)
		case "cost":
			err = d.cost(&u.Cost)
		default:
			err = d.skip()
		}
		return err
	})
}

func (d *decoder) cost(c *core.Cost) error {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "input":
			c.Input, err = d.float()
		case "output":
			c.Output, err = d.float()
		case "cacheRead":
			c.CacheRead, err = d.float()
		case "cacheWrite":
			c.CacheWrite, err = d.float()
		case "total":
			c.Total, err = d.float()
		default:
			err = d.skip()
		}
		return err
	})
}

func (d *decoder) toolResultMessage() (*core.ToolResultMessage, error) {
	m := new(core.ToolResultMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "toolCallId":
			m.ToolCallID, err = d.str()
		case "toolName":
			m.ToolName, err = d.str()
		case "content":
			m.Content, err = d.contents()
		case "details":
			m.Details, err = d.rawCopy()
		case "isError":
			m.IsError, err = d.boolean()
		case "timestamp":
			m.Timestamp, err = d.integer()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) bashExecution() (*core.BashExecutionMessage, error) {
	m := new(core.BashExecutionMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "command":
			m.Command, err = d.str()
		case "output":
			m.Output, err = d.str()
		case "exitCode":
			if d.null() {
				m.ExitCode = nil
				return nil
			}
			var n int64
			n, err = d.integer()
			code := int(n)
			m.ExitCode = &code
		case "cancelled":
			m.Cancelled, err = d.boolean()
		case "truncated":
			m.Truncated, err = d.boolean()
		case "fullOutputPath":
			m.FullOutputPath, err = d.str()
		case "timestamp":
			m.Timestamp, err = d.integer()
		case "excludeFromContext":
			m.ExcludeFromContext, err = d.boolean()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) customMessage() (*core.CustomMessage, error) {
	m := new(core.CustomMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "customType":
			m.CustomType, err = d.str()
		case "content":
			m.Content, err = d.contentOrString()
		case "display":
			m.Display, err = d.boolean()
		case "details":
			m.Details, err = d.rawCopy()
		case "timestamp":
			m.Timestamp, err = d.integer()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) branchSummary() (*core.BranchSummaryMessage, error) {
	m := new(core.BranchSummaryMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "summary":
			m.Summary, err = d.str()
		case "fromId":
			m.FromID, err = d.str()
		case "timestamp":
			m.Timestamp, err = d.integer()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

func (d *decoder) compactionSummary() (*core.CompactionSummaryMessage, error) {
	m := new(core.CompactionSummaryMessage)
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "summary":
			m.Summary, err = d.str()
		case "tokensBefore":
			var n int64
			n, err = d.integer()
			m.TokensBefore = int(n)
		case "timestamp":
			m.Timestamp, err = d.integer()
		default:
			err = d.skip()
		}
		return err
	})
	return m, err
}

// contentOrString reads message content in either of pi's forms: a string
// (one text block) or an array of blocks. null reads as no content.
func (d *decoder) contentOrString() ([]core.Content, error) {
	if d.isString() {
		s, err := d.str()
		return []core.Content{core.TextBlock(s)}, err
	}
	return d.contents()
}

// contents reads an array of content blocks (null reads as nil).
func (d *decoder) contents() ([]core.Content, error) {
	if d.null() {
		return nil, nil
	}
	out := []core.Content{}
	err := d.array(func() error {
		c, err := d.block()
		out = append(out, c)
		return err
	})
	return out, err
}

// block reads one content block the way core.Content.UnmarshalJSON does.
func (d *decoder) block() (core.Content, error) {
	var c core.Content
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			var s string
			s, err = d.str()
			c.Type = core.ContentType(s)
		case "text":
			c.Text, err = d.str()
		case "textSignature":
			c.TextSignature, err = d.str()
		case "thinking":
			c.Thinking, err = d.str()
		case "thinkingSignature":
			c.ThinkingSignature, err = d.str()
		case "redacted":
			c.Redacted, err = d.boolean()
		case "data":
			c.Data, err = d.str()
		case "mimeType":
			c.MimeType, err = d.str()
		case "id":
			c.ID, err = d.str()
		case "name":
			c.Name, err = d.str()
		case "arguments":
			c.Arguments, err = d.rawCopy()
		case "thoughtSignature":
			c.ThoughtSignature, err = d.str()
		default:
			err = d.skip()
		}
		return err
	})
	if err != nil {
		return c, err
	}
	switch c.Type {
	case core.ContentText, core.ContentThinking, core.ContentImage, core.ContentToolCall:
	default:
		return c, fmt.Errorf("content block has unknown type %q", c.Type)
	}
	if c.Type == core.ContentToolCall && (len(c.Arguments) == 0 || string(c.Arguments) == "null") {
		c.Arguments = []byte(`{}`)
	}
	return c, nil
}

// float reads a number (null reads as 0).
func (d *decoder) float() (float64, error) {
	if d.null() {
		return 0, nil
	}
	if c := d.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, d.fail("expected a number")
	}
	text, err := d.number()
	if err != nil {
		return 0, err
	}
	return parseFloat(text), nil
}
