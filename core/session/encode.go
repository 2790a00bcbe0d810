package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
)

// appendHeader appends the header line (without its newline) in pi's key
// order.
func appendHeader(b []byte, h Header) []byte {
	b = append(b, `{"type":"session","version":`...)
	b = strconv.AppendInt(b, int64(h.Version), 10)
	b = append(b, `,"id":`...)
	b = jsonscan.AppendString(b, h.ID)
	b = append(b, `,"timestamp":`...)
	b = jsonscan.AppendString(b, h.Timestamp)
	b = append(b, `,"cwd":`...)
	b = jsonscan.AppendString(b, h.Cwd)
	if h.ParentSession != "" {
		b = append(b, `,"parentSession":`...)
		b = jsonscan.AppendString(b, h.ParentSession)
	}
	return append(b, '}')
}

// MarshalJSON writes the header line in pi's key order.
func (h Header) MarshalJSON() ([]byte, error) { return appendHeader(nil, h), nil }

// MarshalJSON writes the entry as pi does: type, id, parentId, timestamp,
// then the payload; custom and custom_message entries put their payload
// right after the type. An UnknownEntry is written exactly as it was read.
func (e Entry) MarshalJSON() ([]byte, error) { return appendEntry(nil, &e) }

// UnmarshalJSON reads an entry line written by cairn or pi.
func (e *Entry) UnmarshalJSON(data []byte) error {
	var d decoder
	got, err := d.entry(data)
	if err != nil {
		return err
	}
	*e = got
	return nil
}

// appendEntry appends the entry's line, without its newline.
func appendEntry(b []byte, e *Entry) ([]byte, error) {
	if e.Payload == nil {
		return nil, fmt.Errorf("entry %s has no payload", e.ID)
	}
	if u, ok := e.Payload.(*UnknownEntry); ok {
		if err := validJSON(u.Raw); err != nil {
			return nil, fmt.Errorf("%s entry %s: %w", u.Type, e.ID, err)
		}
		return append(b, u.Raw...), nil
	}
	if e.Type != e.Payload.EntryType() {
		return nil, fmt.Errorf("entry %s has type %q but a %s payload", e.ID, e.Type, e.Payload.EntryType())
	}
	b = append(b, `{"type":`...)
	b = jsonscan.AppendString(b, string(e.Type))
	var err error
	switch p := e.Payload.(type) {
	case *CustomEntry:
		b = append(b, `,"customType":`...)
		b = jsonscan.AppendString(b, p.CustomType)
		if b, err = appendRaw(b, "data", p.Data); err != nil {
			return nil, err
		}
		return appendEnvelope(b, e), nil
	case *CustomMessageEntry:
		b = append(b, `,"customType":`...)
		b = jsonscan.AppendString(b, p.CustomType)
		b = append(b, `,"content":`...)
		if b, err = appendContent(b, p.Content); err != nil {
			return nil, err
		}
		b = append(b, `,"display":`...)
		b = strconv.AppendBool(b, p.Display)
		if b, err = appendRaw(b, "details", p.Details); err != nil {
			return nil, err
		}
		return appendEnvelope(b, e), nil
	}
	b = appendEnvelope(b, e)
	b = b[:len(b)-1] // reopen the object for the payload
	switch p := e.Payload.(type) {
	case *MessageEntry:
		b = append(b, `,"message":`...)
		if b, err = appendMessage(b, p.Message); err != nil {
			return nil, fmt.Errorf("message entry %s: %w", e.ID, err)
		}
	case *ModelChangeEntry:
		b = append(b, `,"provider":`...)
		b = jsonscan.AppendString(b, p.Provider)
		b = append(b, `,"modelId":`...)
		b = jsonscan.AppendString(b, p.ModelID)
	case *ThinkingLevelChangeEntry:
		b = append(b, `,"thinkingLevel":`...)
		b = jsonscan.AppendString(b, string(p.ThinkingLevel))
	case *CompactionEntry:
		b = append(b, `,"summary":`...)
		b = jsonscan.AppendString(b, p.Summary)
		b = append(b, `,"firstKeptEntryId":`...)
		b = jsonscan.AppendString(b, p.FirstKeptEntryID)
		b = append(b, `,"tokensBefore":`...)
		b = strconv.AppendInt(b, int64(p.TokensBefore), 10)
		if p.SystemMessage != nil {
			sm, err := p.SystemMessage.MarshalJSON()
			if err != nil {
				return nil, err
			}
			b = append(b, `,"systemMessage":`...)
			b = append(b, sm...)
		}
		if b, err = appendRaw(b, "details", p.Details); err != nil {
			return nil, err
		}
		if p.Usage != nil {
			u, err := json.Marshal(p.Usage)
			if err != nil {
				return nil, err
			}
			b = append(b, `,"usage":`...)
			b = append(b, u...)
		}
		b = append(b, `,"fromHook":`...)
		b = strconv.AppendBool(b, p.FromHook)
	case *BranchSummaryEntry:
		b = append(b, `,"fromId":`...)
		b = jsonscan.AppendString(b, p.FromID)
		b = append(b, `,"summary":`...)
		b = jsonscan.AppendString(b, p.Summary)
		if b, err = appendRaw(b, "details", p.Details); err != nil {
			return nil, err
		}
		b = append(b, `,"fromHook":`...)
		b = strconv.AppendBool(b, p.FromHook)
	case *LabelEntry:
		b = append(b, `,"targetId":`...)
		b = jsonscan.AppendString(b, p.TargetID)
		if p.Label != "" {
			b = append(b, `,"label":`...)
			b = jsonscan.AppendString(b, p.Label)
		}
	case *ContextEditEntry:
		b = append(b, `,"targetId":`...)
		b = jsonscan.AppendString(b, p.TargetID)
		b = append(b, `,"replacement":`...)
		if len(p.Replacement) == 0 {
			b = append(b, "null"...)
		} else {
			b = append(b, p.Replacement...)
		}
	case *SessionInfoEntry:
		b = append(b, `,"name":`...)
		b = jsonscan.AppendString(b, p.Name)
	default:
		return nil, fmt.Errorf("entry %s has an unsupported payload %T", e.ID, e.Payload)
	}
	return append(b, '}'), nil
}

// appendEnvelope appends the id, parentId and timestamp keys and closes the
// object.
func appendEnvelope(b []byte, e *Entry) []byte {
	b = append(b, `,"id":`...)
	b = jsonscan.AppendString(b, e.ID)
	b = append(b, `,"parentId":`...)
	if e.ParentID == nil {
		b = append(b, "null"...)
	} else {
		b = jsonscan.AppendString(b, *e.ParentID)
	}
	b = append(b, `,"timestamp":`...)
	b = jsonscan.AppendString(b, e.Timestamp)
	return append(b, '}')
}

// appendRaw appends `,"key":raw` when raw is set, after checking it is JSON.
func appendRaw(b []byte, key string, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return b, nil
	}
	if err := validJSON(raw); err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return append(b, raw...), nil
}

func validJSON(raw []byte) error {
	var s jsonscan.Scanner
	s.Reset(raw)
	s.Skip()
	if err := s.End(); err != nil {
		return fmt.Errorf("invalid JSON: %w", err)
	}
	return nil
}

// appendContent appends content blocks as a JSON array.
func appendContent(b []byte, content []core.Content) ([]byte, error) {
	b = append(b, '[')
	for i, c := range content {
		if i > 0 {
			b = append(b, ',')
		}
		j, err := c.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if c.Type == core.ContentToolCall {
			// Arguments are caller-supplied raw JSON: check them before
			// they reach the file.
			if err := validJSON(j); err != nil {
				return nil, fmt.Errorf("tool call %s: %w", c.ID, err)
			}
		}
		b = append(b, j...)
	}
	return append(b, ']'), nil
}

// errNoMessage is returned for a message entry without a message.
var errNoMessage = errors.New("no message")

// appendMessage appends a message of any role. core's messages go through
// their own MarshalJSON (so their shape has one definition), with the HTML
// escapes encoding/json adds undone: pi writes <, > and & as they are. A
// raw message is written exactly as it was read.
func appendMessage(b []byte, m core.Message) ([]byte, error) {
	switch m := m.(type) {
	case nil:
		return nil, errNoMessage
	case *core.RawMessage:
		if err := validJSON(m.JSON); err != nil {
			return nil, err
		}
		return append(b, m.JSON...), nil
	}
	j, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return appendUnescapedHTML(b, j), nil
}

// appendUnescapedHTML appends JSON produced by encoding/json with its
// \u003c, \u003e and \u0026 escapes turned back into <, > and &.
func appendUnescapedHTML(b, j []byte) []byte {
	start := 0
	for i := 0; i < len(j); i++ {
		if j[i] != '\\' {
			continue
		}
		if i+5 < len(j) && j[i+1] == 'u' && j[i+2] == '0' && j[i+3] == '0' {
			var c byte
			switch string(j[i+4 : i+6]) {
			case "3c":
				c = '<'
			case "3e":
				c = '>'
			case "26":
				c = '&'
			}
			if c != 0 {
				b = append(b, j[start:i]...)
				b = append(b, c)
				i += 5
				start = i + 1
				continue
			}
		}
		i++ // step over the escaped character, which may be a backslash
	}
	return append(b, j[start:]...)
}
