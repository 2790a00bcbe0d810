package core

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// Decoding reads messages the way pi writes them, with jsonscan rather than
// encoding/json: session files hold megabytes of message text, and this
// reads it several times faster. It accepts what encoding/json would
// accept into these types (null for an absent field, unknown keys
// ignored), with two leniencies: keys match exactly rather than
// case-insensitively, and integer fields take numbers with a fraction or
// out of range (truncated, clamped), so a file another program wrote
// sloppily still opens.

// roleHookMessage is pi's version 2 name of RoleCustom; pi renames it when
// it migrates a file, cairn when it reads one.
const roleHookMessage Role = "hookMessage"

// errUnknownRole marks a message kept raw because cairn does not know its
// role, which is not an error.
var errUnknownRole = errors.New("unknown role")

// DecodeAgentMessage reads a message of any role, the agent roles included.
// A role cairn does not know is kept as a *RawMessage; a message without a
// role, or of a known role whose fields have the wrong shape, is an error.
func DecodeAgentMessage(data []byte) (Message, error) {
	var s jsonscan.Scanner
	s.Reset(data)
	m, err := ReadAgentMessage(&s)
	if err == nil {
		err = s.End()
	}
	switch {
	case err != nil:
		return nil, err
	case m == nil || m.MessageRole() == "":
		return nil, errors.New("message has no role")
	}
	return m, nil
}

// ReadAgentMessage reads the message at s's position, as
// DecodeAgentMessage does, and leaves s after it, so a larger document (a
// session line) is read in one pass. null reads as no message, and a role
// cairn does not know (none included) as a *RawMessage. A message of a
// known role whose fields have the wrong shape is returned as a
// *RawMessage together with an error saying what was wrong, for the caller
// to keep or refuse; for invalid JSON it returns no message and s's error.
func ReadAgentMessage(s *jsonscan.Scanner) (Message, error) {
	if s.Null() {
		return nil, s.Err()
	}
	start := s.Offset()
	role := readRole(s)
	if s.Err() != nil {
		return nil, s.Err()
	}
	s.Rewind(start)
	var m Message
	var err error
	switch role {
	case RoleUser:
		m, err = readUser(s)
	case RoleAssistant:
		m, err = readAssistant(s)
	case RoleToolResult:
		m, err = readToolResult(s)
	case RoleBashExecution:
		m, err = readBashExecution(s)
	case RoleCustom, roleHookMessage:
		m, err = readCustom(s)
	case RoleBranchSummary:
		m, err = readBranchSummary(s)
	case RoleCompactionSummary:
		m, err = readCompactionSummary(s)
	case RoleSystem:
		m, err = readSystem(s)
	default:
		err = errUnknownRole
	}
	if err == nil {
		return m, nil
	}
	s.Rewind(start)
	raw := s.Raw()
	if raw == nil {
		return nil, s.Err()
	}
	kept := &RawMessage{Role: role, JSON: bytes.Clone(raw)}
	if err == errUnknownRole {
		return kept, nil
	}
	return kept, fmt.Errorf("%s message: %w", role, err)
}

// readRole finds the role of the message object at s's position. pi writes
// the role first; then only the role is read, otherwise the whole object
// is scanned, and the last role counts, as with encoding/json. The caller
// rewinds.
func readRole(s *jsonscan.Scanner) Role {
	var role Role
	first := true
	for key := range s.Object() {
		if string(key) != "role" || s.Kind() != jsonscan.String {
			s.Skip()
			first = false
			continue
		}
		role = internRole(s.StrBytes())
		if first {
			break
		}
	}
	return role
}

// internRole returns the role named b, without allocating for known roles.
func internRole(b []byte) Role {
	for _, r := range []Role{RoleUser, RoleAssistant, RoleToolResult, RoleBashExecution, RoleCustom,
		RoleCompactionSummary, RoleBranchSummary} {
		if string(b) == string(r) {
			return r
		}
	}
	return Role(b)
}

// readUser and the functions after it read one message of their role. They
// return the first error: the scanner's, or a content block's.

func readUser(s *jsonscan.Scanner) (*UserMessage, error) {
	m := new(UserMessage)
	var err error
	for key := range s.Object() {
		switch string(key) {
		case "content":
			m.Content, err = ReadContent(s)
		case "timestamp":
			m.Timestamp = s.LooseInt()
		default:
			s.Skip()
		}
		if err != nil {
			return nil, err
		}
	}
	return m, s.Err()
}

func readAssistant(s *jsonscan.Scanner) (*AssistantMessage, error) {
	m := new(AssistantMessage)
	var err error
	for key := range s.Object() {
		switch string(key) {
		case "content":
			m.Content, err = readBlocks(s)
		case "api":
			m.API = s.Str()
		case "provider":
			m.Provider = s.Str()
		case "model":
			m.Model = s.Str()
		case "usage":
			readUsage(s, &m.Usage)
		case "stopReason":
			m.StopReason = StopReason(s.Str())
		case "errorMessage":
			m.ErrorMessage = s.Str()
		case "timestamp":
			m.Timestamp = s.LooseInt()
		case "responseId":
			m.ResponseID = s.Str()
		default:
			s.Skip()
		}
		if err != nil {
			return nil, err
		}
	}
	return m, s.Err()
}

func readUsage(s *jsonscan.Scanner, u *Usage) {
	for key := range s.Object() {
		switch string(key) {
		case "input":
			u.Input = int(s.LooseInt())
		case "output":
			u.Output = int(s.LooseInt())
		case "cacheRead":
			u.CacheRead = int(s.LooseInt())
		case "cacheWrite":
			u.CacheWrite = int(s.LooseInt())
		case "totalTokens":
			u.TotalTokens = int(s.LooseInt())
		case "cost":
			readCost(s, &u.Cost)
		default:
			s.Skip()
		}
	}
}

func readCost(s *jsonscan.Scanner, c *Cost) {
	for key := range s.Object() {
		switch string(key) {
		case "input":
			c.Input = s.Float()
		case "output":
			c.Output = s.Float()
		case "cacheRead":
			c.CacheRead = s.Float()
		case "cacheWrite":
			c.CacheWrite = s.Float()
		case "total":
			c.Total = s.Float()
		default:
			s.Skip()
		}
	}
}

func readToolResult(s *jsonscan.Scanner) (*ToolResultMessage, error) {
	m := new(ToolResultMessage)
	var err error
	for key := range s.Object() {
		switch string(key) {
		case "toolCallId":
			m.ToolCallID = s.Str()
		case "toolName":
			m.ToolName = s.Str()
		case "content":
			m.Content, err = readBlocks(s)
		case "details":
			m.Details = bytes.Clone(s.Raw())
		case "isError":
			m.IsError = s.Bool()
		case "timestamp":
			m.Timestamp = s.LooseInt()
		default:
			s.Skip()
		}
		if err != nil {
			return nil, err
		}
	}
	return m, s.Err()
}

func readBashExecution(s *jsonscan.Scanner) (*BashExecutionMessage, error) {
	m := new(BashExecutionMessage)
	for key := range s.Object() {
		switch string(key) {
		case "command":
			m.Command = s.Str()
		case "output":
			m.Output = s.Str()
		case "exitCode":
			m.ExitCode = nil
			if !s.Null() {
				code := int(s.LooseInt())
				m.ExitCode = &code
			}
		case "cancelled":
			m.Cancelled = s.Bool()
		case "truncated":
			m.Truncated = s.Bool()
		case "fullOutputPath":
			m.FullOutputPath = s.Str()
		case "timestamp":
			m.Timestamp = s.LooseInt()
		case "excludeFromContext":
			m.ExcludeFromContext = s.Bool()
		default:
			s.Skip()
		}
	}
	return m, s.Err()
}

func readCustom(s *jsonscan.Scanner) (*CustomMessage, error) {
	m := new(CustomMessage)
	var err error
	for key := range s.Object() {
		switch string(key) {
		case "customType":
			m.CustomType = s.Str()
		case "content":
			m.Content, err = ReadContent(s)
		case "display":
			m.Display = s.Bool()
		case "details":
			m.Details = bytes.Clone(s.Raw())
		case "timestamp":
			m.Timestamp = s.LooseInt()
		default:
			s.Skip()
		}
		if err != nil {
			return nil, err
		}
	}
	return m, s.Err()
}

func readBranchSummary(s *jsonscan.Scanner) (*BranchSummaryMessage, error) {
	m := new(BranchSummaryMessage)
	for key := range s.Object() {
		switch string(key) {
		case "summary":
			m.Summary = s.Str()
		case "fromId":
			m.FromID = s.Str()
		case "timestamp":
			m.Timestamp = s.LooseInt()
		default:
			s.Skip()
		}
	}
	return m, s.Err()
}

func readCompactionSummary(s *jsonscan.Scanner) (*CompactionSummaryMessage, error) {
	m := new(CompactionSummaryMessage)
	for key := range s.Object() {
		switch string(key) {
		case "summary":
			m.Summary = s.Str()
		case "tokensBefore":
			m.TokensBefore = int(s.LooseInt())
		case "timestamp":
			m.Timestamp = s.LooseInt()
		default:
			s.Skip()
		}
	}
	return m, s.Err()
}

// ReadContent reads message content in either of pi's forms: a string (one
// text block) or an array of blocks. null reads as no content.
func ReadContent(s *jsonscan.Scanner) ([]Content, error) {
	if s.Kind() == jsonscan.String {
		return []Content{TextBlock(s.Str())}, s.Err()
	}
	return readBlocks(s)
}

// readBlocks reads an array of content blocks; null reads as nil.
func readBlocks(s *jsonscan.Scanner) ([]Content, error) {
	if s.Null() {
		return nil, s.Err()
	}
	out := []Content{}
	for range s.Array() {
		c, err := readBlock(s)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, s.Err()
}

// readBlock reads one content block. A block of an unknown type is an
// error naming the type; a tool call without arguments gets {}.
func readBlock(s *jsonscan.Scanner) (Content, error) {
	var c Content
	for key := range s.Object() {
		switch string(key) {
		case "type":
			c.Type = internContentType(s.StrBytes())
		case "text":
			c.Text = s.Str()
		case "textSignature":
			c.TextSignature = s.Str()
		case "thinking":
			c.Thinking = s.Str()
		case "thinkingSignature":
			c.ThinkingSignature = s.Str()
		case "redacted":
			c.Redacted = s.Bool()
		case "data":
			c.Data = s.Str()
		case "mimeType":
			c.MimeType = s.Str()
		case "id":
			c.ID = s.Str()
		case "name":
			c.Name = s.Str()
		case "arguments":
			c.Arguments = bytes.Clone(s.Raw())
		case "thoughtSignature":
			c.ThoughtSignature = s.Str()
		default:
			s.Skip()
		}
	}
	if err := s.Err(); err != nil {
		return c, err
	}
	switch c.Type {
	case ContentText, ContentThinking, ContentImage, ContentToolCall:
	default:
		return c, fmt.Errorf("content block has unknown type %q", c.Type)
	}
	if c.Type == ContentToolCall && (len(c.Arguments) == 0 || string(c.Arguments) == "null") {
		c.Arguments = []byte(`{}`)
	}
	return c, nil
}

// internContentType returns the block type named b, without allocating for
// known types.
func internContentType(b []byte) ContentType {
	for _, t := range []ContentType{ContentText, ContentThinking, ContentImage, ContentToolCall} {
		if string(b) == string(t) {
			return t
		}
	}
	return ContentType(b)
}

// decodeWhole reads data, which must hold exactly one value, with read.
func decodeWhole[T any](data []byte, read func(*jsonscan.Scanner) (T, error)) (T, error) {
	var s jsonscan.Scanner
	s.Reset(data)
	v, err := read(&s)
	if err == nil {
		err = s.End()
	}
	return v, err
}
