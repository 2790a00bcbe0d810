package core

import (
	"bytes"
	"encoding/json"
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
	return ReadAgentMessageSpilling(s, nil)
}

// SpillThreshold is the length in bytes of JSON text from which a tool
// result's text is left where it is (see Spill) rather than read.
const SpillThreshold = 8 << 10

// Spill keeps a tool result's text out of memory: given the offsets in the
// scanner's input of the text's JSON string (quotes included), it returns
// where the text can be read back from.
type Spill func(start, end int) StoredText

// ReadAgentMessageSpilling reads a message as ReadAgentMessage does, except
// that the text blocks of a tool result whose JSON string is at least
// SpillThreshold bytes are not read, only skipped (their text is validated
// when it is read back): spill says where their text is kept
// (Content.Stored). A nil spill reads everything.
func ReadAgentMessageSpilling(s *jsonscan.Scanner, spill Spill) (Message, error) {
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
		m, err = readToolResult(s, spill)
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

// A field binds a key of a JSON object to the Go value its value is read
// into, so that each message type states only its keys and readFields
// does the reading. dst is a pointer to one of the types readValue knows.
type field struct {
	key string
	dst any
}

// blocks is content that pi writes only as an array of blocks; a
// *[]Content destination also takes pi's string form.
type blocks []Content

// readFields reads the object at s's position into fields, skipping keys
// that are not among them; a repeated key is read again, and the last one
// counts, as with encoding/json. It returns the first error: the
// scanner's, or a content block's.
func readFields(s *jsonscan.Scanner, fields ...field) error {
	for key := range s.Object() {
		dst := lookup(fields, key)
		if dst == nil {
			s.Skip()
			continue
		}
		if err := readValue(s, dst); err != nil {
			return err
		}
	}
	return s.Err()
}

// lookup returns the destination of key among fields, or nil.
func lookup(fields []field, key []byte) any {
	for _, f := range fields {
		if f.key == string(key) {
			return f.dst
		}
	}
	return nil
}

// readValue reads the value at s's position into dst. null reads as the
// zero value (nil for a **int), which is what encoding/json leaves in a
// field that starts at its zero value.
func readValue(s *jsonscan.Scanner, dst any) error {
	var err error
	switch p := dst.(type) {
	case *string:
		*p = s.Str()
	case *bool:
		*p = s.Bool()
	case *int64:
		*p = s.LooseInt()
	case *int:
		*p = int(s.LooseInt())
	case **int:
		*p = nil
		if !s.Null() {
			n := int(s.LooseInt())
			*p = &n
		}
	case *float64:
		*p = s.Float()
	case *json.RawMessage:
		*p = bytes.Clone(s.Raw())
	case *ContentType:
		*p = internContentType(s.StrBytes())
	case *StopReason:
		*p = StopReason(s.Str())
	case *[]Content:
		*p, err = ReadContent(s)
	case *blocks:
		*p, err = readBlocks(s)
	case *spilledBlocks:
		*p.dst, err = readBlocksSpilling(s, p.spill)
	case spilledText:
		p.read(s)
	case *Usage:
		err = readUsage(s, p)
	case *Cost:
		err = readCost(s, p)
	default:
		// A constant message: formatting dst would make every
		// destination escape to the heap.
		panic("core: readValue: unsupported destination type")
	}
	return err
}

// readUser and the functions after it read one message of their role. They
// return the first error: the scanner's, or a content block's.

func readUser(s *jsonscan.Scanner) (*UserMessage, error) {
	m := new(UserMessage)
	return m, readFields(s,
		field{"content", &m.Content},
		field{"timestamp", &m.Timestamp})
}

func readAssistant(s *jsonscan.Scanner) (*AssistantMessage, error) {
	m := new(AssistantMessage)
	return m, readFields(s,
		field{"content", (*blocks)(&m.Content)},
		field{"api", &m.API},
		field{"provider", &m.Provider},
		field{"model", &m.Model},
		field{"usage", &m.Usage},
		field{"stopReason", &m.StopReason},
		field{"errorMessage", &m.ErrorMessage},
		field{"timestamp", &m.Timestamp},
		field{"responseId", &m.ResponseID},
		field{"rawStopReason", &m.RawStopReason},
		field{"responseModel", &m.ResponseModel})
}

func readUsage(s *jsonscan.Scanner, u *Usage) error {
	return readFields(s,
		field{"input", &u.Input},
		field{"output", &u.Output},
		field{"cacheRead", &u.CacheRead},
		field{"cacheWrite", &u.CacheWrite},
		field{"reasoning", &u.Reasoning},
		field{"totalTokens", &u.TotalTokens},
		field{"cost", &u.Cost},
		field{"cacheWrite1h", &u.CacheWrite1h})
}

func readCost(s *jsonscan.Scanner, c *Cost) error {
	return readFields(s,
		field{"input", &c.Input},
		field{"output", &c.Output},
		field{"cacheRead", &c.CacheRead},
		field{"cacheWrite", &c.CacheWrite},
		field{"total", &c.Total})
}

func readToolResult(s *jsonscan.Scanner, spill Spill) (*ToolResultMessage, error) {
	m := new(ToolResultMessage)
	return m, readFields(s,
		field{"toolCallId", &m.ToolCallID},
		field{"toolName", &m.ToolName},
		field{"content", &spilledBlocks{&m.Content, spill}},
		field{"details", &m.Details},
		field{"isError", &m.IsError},
		field{"timestamp", &m.Timestamp})
}

func readBashExecution(s *jsonscan.Scanner) (*BashExecutionMessage, error) {
	m := new(BashExecutionMessage)
	return m, readFields(s,
		field{"command", &m.Command},
		field{"output", &m.Output},
		field{"exitCode", &m.ExitCode},
		field{"cancelled", &m.Cancelled},
		field{"truncated", &m.Truncated},
		field{"fullOutputPath", &m.FullOutputPath},
		field{"timestamp", &m.Timestamp},
		field{"excludeFromContext", &m.ExcludeFromContext})
}

func readCustom(s *jsonscan.Scanner) (*CustomMessage, error) {
	m := new(CustomMessage)
	return m, readFields(s,
		field{"customType", &m.CustomType},
		field{"content", &m.Content},
		field{"display", &m.Display},
		field{"details", &m.Details},
		field{"timestamp", &m.Timestamp})
}

func readBranchSummary(s *jsonscan.Scanner) (*BranchSummaryMessage, error) {
	m := new(BranchSummaryMessage)
	return m, readFields(s,
		field{"summary", &m.Summary},
		field{"fromId", &m.FromID},
		field{"timestamp", &m.Timestamp})
}

func readCompactionSummary(s *jsonscan.Scanner) (*CompactionSummaryMessage, error) {
	m := new(CompactionSummaryMessage)
	return m, readFields(s,
		field{"summary", &m.Summary},
		field{"tokensBefore", &m.TokensBefore},
		field{"timestamp", &m.Timestamp})
}

// ReadContent reads message content in either of pi's forms: a string (one
// text block) or an array of blocks. null reads as no content.
func ReadContent(s *jsonscan.Scanner) ([]Content, error) {
	if s.Kind() == jsonscan.String {
		return []Content{TextBlock(s.Str())}, s.Err()
	}
	return readBlocks(s)
}

// spilledBlocks is a destination for blocks whose large texts spill says
// where to keep (nil: read them).
type spilledBlocks struct {
	dst   *[]Content
	spill Spill
}

// spilledText is the destination of a text block's text that is kept out
// of memory when it is large and spill is set.
type spilledText struct {
	c     *Content
	spill Spill
}

// readText reads the string at s's position into t's block, or, when it is
// long enough and t.spill is set, validates it and has it kept out of
// memory.
func (t spilledText) read(s *jsonscan.Scanner) {
	if t.spill == nil || s.Kind() != jsonscan.String {
		t.c.Text = s.Str()
		return
	}
	// Only the string's end is found now; its text is validated when it
	// is read back.
	raw := s.SkimString()
	end := s.Offset()
	start := end - len(raw)
	if raw == nil || len(raw) < SpillThreshold {
		s.Rewind(start)
		t.c.Text = s.Str()
		return
	}
	t.c.Text, t.c.Stored = "", t.spill(start, end)
}

// readBlocks reads an array of content blocks; null reads as nil.
func readBlocks(s *jsonscan.Scanner) ([]Content, error) { return readBlocksSpilling(s, nil) }

// readBlocksSpilling reads an array of content blocks, keeping the large
// texts out of memory through spill when it is set; null reads as nil.
func readBlocksSpilling(s *jsonscan.Scanner, spill Spill) ([]Content, error) {
	if s.Null() {
		return nil, s.Err()
	}
	out := []Content{}
	for range s.Array() {
		c, err := readBlock(s, spill)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, s.Err()
}

// readBlock reads one content block. A block of an unknown type is an
// error naming the type; a tool call without arguments gets {}.
func readBlock(s *jsonscan.Scanner, spill Spill) (Content, error) {
	var c Content
	err := readFields(s,
		field{"type", &c.Type},
		field{"text", spilledText{&c, spill}},
		field{"textSignature", &c.TextSignature},
		field{"thinking", &c.Thinking},
		field{"thinkingSignature", &c.ThinkingSignature},
		field{"redacted", &c.Redacted},
		field{"data", &c.Data},
		field{"mimeType", &c.MimeType},
		field{"id", &c.ID},
		field{"name", &c.Name},
		field{"arguments", &c.Arguments},
		field{"thoughtSignature", &c.ThoughtSignature})
	if err != nil {
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
