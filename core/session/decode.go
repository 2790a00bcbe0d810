package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
)

// decoder turns session lines into Go values with jsonscan, and messages
// with core's reader in the same pass. It accepts what encoding/json would
// accept into core's types and pi's entries (null for an absent field,
// unknown keys ignored), with two leniencies: keys match exactly rather
// than case-insensitively, and numbers with a fraction are accepted for
// integer fields.
type decoder struct {
	jsonscan.Scanner
	// soft is set when a line was kept only as raw JSON because its known
	// type or role did not decode; the caller reports it.
	soft error
	// spill, when set, keeps large tool result texts in the file.
	spill core.Spill
	// scratch is reused from line to line: a session has many.
	scratch entryFields
}

// decodeMessage reads a message of any role pi writes, as
// core.DecodeAgentMessage does, except that a message of a known role that
// does not decode becomes a *core.RawMessage: only invalid JSON is an
// error.
func decodeMessage(data []byte) (core.Message, error) {
	var d decoder
	d.Reset(data)
	m, err := d.message()
	if err != nil {
		return nil, err
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	return m, nil
}

// message reads a message of any role with core's reader; one of a known
// role that does not decode is kept raw, and d.soft says why.
func (d *decoder) message() (core.Message, error) {
	m, err := core.ReadAgentMessageSpilling(&d.Scanner, d.spill)
	if m != nil && err != nil {
		d.soft = err
		return m, nil
	}
	return m, err
}

// errNotObject is returned when a line holds valid JSON that is not an
// object.
var errNotObject = errors.New("not a JSON object")

// entryHead is what indexing needs of an entry line: its type, id and
// parent.
type entryHead struct {
	typ       EntryType
	id        string
	parentID  string
	hasParent bool
}

// head validates a whole line and extracts its type, id and parent. It
// fails for invalid JSON and for lines that are not entries: not an object,
// no string type, no non-empty string id, or a parentId neither a string
// nor null.
func (d *decoder) head(line []byte) (entryHead, error) {
	d.Reset(line)
	var h entryHead
	var haveType, haveID bool
	if d.Kind() != jsonscan.Object {
		d.Skip()
		if err := d.End(); err != nil {
			return h, err
		}
		return h, errNotObject
	}
	var shapeErr error
	for key := range d.Object() {
		switch string(key) {
		case "type":
			if haveType = d.Kind() == jsonscan.String; haveType {
				h.typ = internType(d.StrBytes())
			} else {
				d.Skip()
			}
		case "id":
			if haveID = d.Kind() == jsonscan.String; haveID {
				b := d.StrBytes()
				h.id, haveID = string(b), len(b) > 0
			} else {
				d.Skip()
			}
		case "parentId":
			switch d.Kind() {
			case jsonscan.Null:
				d.Null()
				h.parentID, h.hasParent = "", false
			case jsonscan.String:
				h.parentID, h.hasParent = d.Str(), true
			default:
				shapeErr = errors.New("parentId is neither a string nor null")
				d.Skip()
			}
		default:
			d.Skip()
		}
	}
	switch err := d.End(); {
	case err != nil:
		return h, err
	case !haveType:
		return h, errors.New("no string type")
	case !haveID:
		return h, errors.New("no id")
	case shapeErr != nil:
		return h, shapeErr
	}
	return h, nil
}

// internType returns the type name, without allocating for known types.
func internType(b []byte) EntryType {
	for _, t := range []EntryType{TypeMessage, TypeModelChange, TypeThinkingLevelChange, TypeCompaction,
		TypeBranchSummary, TypeCustom, TypeCustomMessage, TypeLabel, TypeSessionInfo, typeSession} {
		if string(b) == string(t) {
			return t
		}
	}
	return EntryType(b)
}

// typeSession is the type of the header line.
const typeSession EntryType = "session"

// entryFields collects every payload field of every entry type; the type
// picks which ones become the payload.
type entryFields struct {
	entryHead
	timestamp        string
	message          core.Message
	provider         string
	modelID          string
	thinkingLevel    string
	summary          string
	firstKeptEntryID string
	tokensBefore     int64
	usage            []byte // a compaction's summary usage, as written
	replacement      []byte // a context edit's replacement, as written
	systemMessage    core.Message
	details          []byte
	fromHook         bool
	fromID           string
	customType       string
	data             []byte
	content          []core.Content
	display          bool
	targetID         string
	label            string
	name             string
}

// entry decodes a whole line. A line of a type it does not know, or of a
// known type whose fields have the wrong shape, becomes an UnknownEntry
// holding the line (d.soft says why, for known types).
func (d *decoder) entry(line []byte) (Entry, error) {
	d.soft = nil
	f, err := d.fields(line)
	if err != nil {
		// Whether the line is valid JSON at all decides between an error
		// and an UnknownEntry.
		h, herr := d.head(line)
		if herr != nil {
			return Entry{}, herr
		}
		if knownType(h.typ) {
			d.soft = fmt.Errorf("%s entry %s: %w", h.typ, h.id, err)
		}
		return unknownEntry(h, line), nil
	}
	e := Entry{Type: f.typ, ID: f.id, Timestamp: f.timestamp}
	if f.hasParent {
		p := f.parentID
		e.ParentID = &p
	}
	switch f.typ {
	case TypeMessage:
		if f.message == nil {
			d.soft = fmt.Errorf("message entry %s has no message", f.id)
			return unknownEntry(f.entryHead, line), nil
		}
		e.Payload = &MessageEntry{Message: f.message}
	case TypeModelChange:
		e.Payload = &ModelChangeEntry{Provider: f.provider, ModelID: f.modelID}
	case TypeThinkingLevelChange:
		e.Payload = &ThinkingLevelChangeEntry{ThinkingLevel: core.ThinkingLevel(f.thinkingLevel)}
	case TypeCompaction:
		c := &CompactionEntry{Summary: f.summary, FirstKeptEntryID: f.firstKeptEntryID,
			TokensBefore: int(f.tokensBefore), Details: f.details, FromHook: f.fromHook}
		if sm, ok := f.systemMessage.(*core.SystemMessage); ok {
			sm.Replayed = true
			c.SystemMessage = sm
		}
		if f.usage != nil {
			var u core.Usage
			if json.Unmarshal(f.usage, &u) == nil {
				c.Usage = &u
			}
		}
		e.Payload = c
	case TypeBranchSummary:
		e.Payload = &BranchSummaryEntry{FromID: f.fromID, Summary: f.summary, Details: f.details, FromHook: f.fromHook}
	case TypeCustom:
		e.Payload = &CustomEntry{CustomType: f.customType, Data: f.data}
	case TypeCustomMessage:
		e.Payload = &CustomMessageEntry{CustomType: f.customType, Content: f.content, Display: f.display, Details: f.details}
	case TypeLabel:
		e.Payload = &LabelEntry{TargetID: f.targetID, Label: f.label}
	case TypeContextEdit:
		e.Payload = &ContextEditEntry{TargetID: f.targetID, Replacement: f.replacement}
	case TypeSessionInfo:
		e.Payload = &SessionInfoEntry{Name: f.name}
	default:
		return unknownEntry(f.entryHead, line), nil
	}
	return e, nil
}

func knownType(t EntryType) bool {
	switch t {
	case TypeMessage, TypeModelChange, TypeThinkingLevelChange, TypeCompaction, TypeBranchSummary,
		TypeCustom, TypeCustomMessage, TypeLabel, TypeSessionInfo:
		return true
	}
	return false
}

func unknownEntry(h entryHead, line []byte) Entry {
	e := Entry{Type: h.typ, ID: h.id}
	if h.hasParent {
		p := h.parentID
		e.ParentID = &p
	}
	raw := bytes.TrimRight(line, " \t\r\n")
	e.Payload = &UnknownEntry{Type: h.typ, Raw: bytes.Clone(raw)}
	// The timestamp is worth having even for an entry we cannot read.
	var s jsonscan.Scanner
	s.Reset(raw)
	for key := range s.Object() {
		if string(key) == "timestamp" && s.Kind() == jsonscan.String {
			e.Timestamp = s.Str()
			continue
		}
		s.Skip()
	}
	return e
}

// fields decodes every known key of an entry line.
func (d *decoder) fields(line []byte) (*entryFields, error) {
	d.Reset(line)
	d.scratch = entryFields{}
	f := &d.scratch
	var haveType bool
	for key := range d.Object() {
		// pi writes the type first; once it is known, keys of other types
		// are not this entry's business.
		if haveType && !typeHasKey(f.typ, string(key)) {
			d.Skip()
			continue
		}
		var err error
		switch string(key) {
		case "type":
			if d.Kind() != jsonscan.String {
				return nil, errors.New("type is not a string")
			}
			f.typ, haveType = internType(d.StrBytes()), true
		case "id":
			f.id = d.Str()
		case "parentId":
			f.parentID, f.hasParent = "", false
			if !d.Null() {
				f.parentID, f.hasParent = d.Str(), true
			}
		case "timestamp":
			f.timestamp = d.Str()
		case "message":
			f.message, err = d.message()
		case "provider":
			f.provider = d.Str()
		case "modelId":
			f.modelID = d.Str()
		case "thinkingLevel":
			f.thinkingLevel = d.Str()
		case "summary":
			f.summary = d.Str()
		case "firstKeptEntryId":
			f.firstKeptEntryID = d.Str()
		case "tokensBefore":
			f.tokensBefore = d.LooseInt()
		case "systemMessage":
			f.systemMessage, err = d.message()
		case "details":
			f.details = d.rawCopy()
		case "usage":
			f.usage = d.rawCopy()
		case "replacement":
			f.replacement = d.rawCopy()
		case "fromHook":
			f.fromHook = d.Bool()
		case "fromId":
			f.fromID = d.Str()
		case "customType":
			f.customType = d.Str()
		case "data":
			f.data = d.rawCopy()
		case "content":
			f.content, err = core.ReadContent(&d.Scanner)
		case "display":
			f.display = d.Bool()
		case "targetId":
			f.targetID = d.Str()
		case "label":
			f.label = d.Str()
		case "name":
			f.name = d.Str()
		default:
			d.Skip()
		}
		if err != nil {
			return nil, err
		}
	}
	if err := d.End(); err != nil {
		return nil, err
	}
	if !haveType || f.id == "" {
		return nil, errors.New("not an entry: no type or id")
	}
	return f, nil
}

// typeHasKey reports whether key belongs to entries of type t: the
// envelope's keys or t's payload keys. Unknown types keep every key.
func typeHasKey(t EntryType, key string) bool {
	switch key {
	case "type", "id", "parentId", "timestamp":
		return true
	}
	switch t {
	case TypeMessage:
		return key == "message"
	case TypeModelChange:
		return key == "provider" || key == "modelId"
	case TypeThinkingLevelChange:
		return key == "thinkingLevel"
	case TypeCompaction:
		return key == "summary" || key == "firstKeptEntryId" || key == "tokensBefore" || key == "systemMessage" || key == "details" || key == "usage" || key == "fromHook"
	case TypeBranchSummary:
		return key == "fromId" || key == "summary" || key == "details" || key == "fromHook"
	case TypeCustom:
		return key == "customType" || key == "data"
	case TypeCustomMessage:
		return key == "customType" || key == "content" || key == "display" || key == "details"
	case TypeLabel:
		return key == "targetId" || key == "label"
	case TypeContextEdit:
		return key == "targetId" || key == "replacement"
	case TypeSessionInfo:
		return key == "name"
	}
	return true
}

// rawCopy reads any value and returns a copy of its JSON.
func (d *decoder) rawCopy() []byte { return bytes.Clone(d.Raw()) }

// header decodes the first line of a session file.
func (d *decoder) header(line []byte) (Header, error) {
	d.Reset(line)
	var h Header
	var typ string
	var version int64
	for key := range d.Object() {
		switch string(key) {
		case "type":
			typ = d.strOrSkip()
		case "version":
			if d.Kind() == jsonscan.Number {
				version = d.LooseInt()
			} else {
				d.Skip()
			}
		case "id":
			h.ID = d.strOrSkip()
		case "timestamp":
			h.Timestamp = d.strOrSkip()
		case "cwd":
			h.Cwd = d.strOrSkip()
		case "parentSession":
			h.ParentSession = d.strOrSkip()
		default:
			d.Skip()
		}
	}
	if err := d.End(); err != nil {
		return Header{}, err
	}
	if typ != string(typeSession) || h.ID == "" {
		return Header{}, errors.New(`not a session header: want type "session" and an id`)
	}
	h.Version = int(version)
	if h.Version == 0 {
		h.Version = 1 // pi's version 1 had no version field
	}
	return h, nil
}

// strOrSkip reads a string, or steps over a value of another kind.
func (d *decoder) strOrSkip() string {
	if d.Kind() == jsonscan.String {
		return d.Str()
	}
	d.Skip()
	return ""
}
