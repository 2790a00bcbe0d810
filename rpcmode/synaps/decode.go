package synaps

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/agent"
)

// command is one decoded inbound frame.
type command struct {
	Type string
	// ID is the correlation id; HasID is false when the frame had none
	// (shutdown, and tools_list may omit it).
	ID    string
	HasID bool
	// Message is the text of prompt and follow_up.
	Message     string
	Attachments []attachment
	// Model is set_model's model.
	Model string
	// Rewind is cairn's rewind command's arguments.
	Rewind agent.RewindArgs
}

// attachment is a file a prompt names.
type attachment struct {
	Path string `json:"path"`
	Name string `json:"name,omitempty"`
	Mime string `json:"mime,omitempty"`
}

// frameError is a frame that cannot be served. HasID says whether ID was
// read, so the error frame can carry it.
type frameError struct {
	ID    string
	HasID bool
	Msg   string
}

func (e *frameError) Error() string { return e.Msg }

// The commands and whether each needs an id.
var commandTypes = map[string]bool{
	"prompt": true, "follow_up": true, "compact": true, "new_session": true,
	"get_messages": true, "set_model": true, "get_available_models": true,
	"abort": true, "get_session_stats": true, "get_state": true,
	"tools_list": false, "shutdown": false,
	"rewind": true, // cairn's own
}

// rawCommand holds the fields any command may carry, undecoded.
type rawCommand struct {
	Type        json.RawMessage `json:"type"`
	ID          json.RawMessage `json:"id"`
	Message     json.RawMessage `json:"message"`
	Attachments json.RawMessage `json:"attachments"`
	Model       json.RawMessage `json:"model"`
}

// decodeCommand reads one non-blank line. A failure is a *frameError
// saying precisely what is wrong.
func decodeCommand(line []byte) (command, error) {
	var c command
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return c, &frameError{Msg: "malformed frame: expected one JSON object per line"}
	}
	var raw rawCommand
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return c, &frameError{Msg: "malformed frame: " + jsonProblem(err)}
	}
	var fe *frameError
	if raw.ID != nil && !isNull(raw.ID) {
		if err := json.Unmarshal(raw.ID, &c.ID); err != nil {
			return c, &frameError{Msg: `field "id" must be a string`}
		}
		c.HasID = true
	}
	fail := func(msg string) (command, error) {
		fe = &frameError{ID: c.ID, HasID: c.HasID, Msg: msg}
		return c, fe
	}
	if raw.Type == nil || isNull(raw.Type) {
		return fail(`field "type" is required: the command's name, a string`)
	}
	if err := json.Unmarshal(raw.Type, &c.Type); err != nil {
		return fail(`field "type" must be a string`)
	}
	needsID, known := commandTypes[c.Type]
	if !known {
		return fail(fmt.Sprintf("unknown command type %q; known: %s", c.Type, strings.Join(knownTypes(), ", ")))
	}
	if needsID && !c.HasID {
		return fail(fmt.Sprintf(`command %q needs field "id": a string echoed in its response`, c.Type))
	}
	switch c.Type {
	case "prompt", "follow_up":
		if err := requiredString(raw.Message, "message", &c.Message); err != nil {
			return fail(err.Error())
		}
		if c.Type == "prompt" {
			atts, err := decodeAttachments(raw.Attachments)
			if err != nil {
				return fail(err.Error())
			}
			c.Attachments = atts
		}
	case "set_model":
		if err := requiredString(raw.Model, "model", &c.Model); err != nil {
			return fail(err.Error())
		}
		if strings.TrimSpace(c.Model) == "" {
			return fail(`field "model" must name a model`)
		}
	case "rewind":
		args, err := agent.DecodeRewindArgs(trimmed, "type", "id")
		if err != nil {
			return fail(err.Error())
		}
		c.Rewind = args
	}
	return c, nil
}

func requiredString(raw json.RawMessage, name string, dst *string) error {
	if raw == nil || isNull(raw) {
		return fmt.Errorf("field %q is required: a string", name)
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return fmt.Errorf("field %q must be a string", name)
	}
	return nil
}

// decodeAttachments reads prompt's attachments: absolute paths without
// ".." segments, as the protocol requires.
func decodeAttachments(raw json.RawMessage) ([]attachment, error) {
	if raw == nil || isNull(raw) {
		return nil, nil
	}
	var atts []attachment
	if err := json.Unmarshal(raw, &atts); err != nil {
		return nil, errors.New(`field "attachments" must be an array of {path, name?, mime?} objects with string values`)
	}
	for i, a := range atts {
		switch {
		case a.Path == "":
			return nil, fmt.Errorf(`attachments[%d]: field "path" is required`, i)
		case !filepath.IsAbs(a.Path):
			return nil, fmt.Errorf("attachments[%d]: path %q must be absolute", i, a.Path)
		case slices.Contains(strings.Split(filepath.ToSlash(a.Path), "/"), ".."):
			return nil, fmt.Errorf(`attachments[%d]: path %q must not contain ".." segments`, i, a.Path)
		case strings.ContainsAny(a.Path, "\x00\n\r"):
			return nil, fmt.Errorf("attachments[%d]: path %q contains a control character", i, a.Path)
		}
	}
	return atts, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func knownTypes() []string {
	names := make([]string, 0, len(commandTypes))
	for n := range commandTypes {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// jsonProblem words a decoding error without Go type names.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return fmt.Sprintf("invalid JSON at byte %d: %v", syn.Offset, syn)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return "expected a JSON object"
	}
	return err.Error()
}

// promptText is the message the model receives: a note naming the
// attached files, then the host's text.
func promptText(message string, atts []attachment) string {
	if len(atts) == 0 {
		return message
	}
	var b strings.Builder
	b.WriteString("[user attached files: ")
	for i, a := range atts {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", a.Path)
	}
	b.WriteString("]\n\n")
	b.WriteString(message)
	return b.String()
}
