package session

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core"
)

// decoder turns session lines into Go values with the scanner. It accepts
// what encoding/json would accept into core's types and pi's entries (null
// for an absent field, unknown keys ignored), with two leniencies: keys
// match exactly rather than case-insensitively, and numbers with a fraction
// are accepted for integer fields.
type decoder struct {
	scanner
	// soft is set when a line was kept only as raw JSON because its known
	// type or role did not decode; the caller reports it.
	soft error
}

// entryHead is what indexing needs of an entry line: its type, id and
// parent.
type entryHead struct {
	typ       EntryType
	id        string
	parentID  string
	hasParent bool
}

// Key names, as byte slices compared against keys without allocating.
var (
	keyType     = []byte("type")
	keyID       = []byte("id")
	keyParentID = []byte("parentId")
)

// head validates a whole line and extracts its type, id and parent. It
// fails for invalid JSON and for lines that are not entries: not an object,
// no string type, no non-empty string id, or a parentId neither a string
// nor null.
func (d *decoder) head(line []byte) (entryHead, error) {
	d.reset(line)
	var h entryHead
	var haveType, haveID bool
	if d.peek() != '{' {
		if err := d.skip(); err != nil {
			return h, err
		}
		if err := d.end(); err != nil {
			return h, err
		}
		return h, errNotObject
	}
	var shapeErr error
	err := d.object(func(key []byte) error {
		switch {
		case bytes.Equal(key, keyType):
			if !d.isString() {
				haveType = false
				return d.skip()
			}
			b, err := d.stringBytes()
			if err != nil {
				return err
			}
			h.typ, haveType = internType(b), true
		case bytes.Equal(key, keyID):
			if !d.isString() {
				haveID = false
				return d.skip()
			}
			b, err := d.stringBytes()
			if err != nil {
				return err
			}
			h.id, haveID = string(b), len(b) > 0
		case bytes.Equal(key, keyParentID):
			switch {
			case d.null():
				h.parentID, h.hasParent = "", false
			case d.isString():
				b, err := d.stringBytes()
				if err != nil {
					return err
				}
				h.parentID, h.hasParent = string(b), true
			default:
				shapeErr = errors.New("parentId is neither a string nor null")
				return d.skip()
			}
		default:
			return d.skip()
		}
		return nil
	})
	if err == nil {
		err = d.end()
	}
	switch {
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
		e.Payload = &CompactionEntry{Summary: f.summary, FirstKeptEntryID: f.firstKeptEntryID,
			TokensBefore: int(f.tokensBefore), Details: f.details, FromHook: f.fromHook}
	case TypeBranchSummary:
		e.Payload = &BranchSummaryEntry{FromID: f.fromID, Summary: f.summary, Details: f.details, FromHook: f.fromHook}
	case TypeCustom:
		e.Payload = &CustomEntry{CustomType: f.customType, Data: f.data}
	case TypeCustomMessage:
		e.Payload = &CustomMessageEntry{CustomType: f.customType, Content: f.content, Display: f.display, Details: f.details}
	case TypeLabel:
		e.Payload = &LabelEntry{TargetID: f.targetID, Label: f.label}
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
	var s scanner
	s.reset(raw)
	_ = s.object(func(key []byte) error {
		if string(key) == "timestamp" && s.isString() {
			ts, err := s.str()
			e.Timestamp = ts
			return err
		}
		return s.skip()
	})
	return e
}

// fields decodes every known key of an entry line.
func (d *decoder) fields(line []byte) (*entryFields, error) {
	d.reset(line)
	f := new(entryFields)
	var haveType bool
	err := d.object(func(key []byte) error {
		// pi writes the type first; once it is known, keys of other types
		// are not this entry's business.
		if haveType && !typeHasKey(f.typ, string(key)) {
			return d.skip()
		}
		var err error
		switch string(key) {
		case "type":
			var b []byte
			if b, err = d.stringBytes(); err == nil {
				f.typ, haveType = internType(b), true
			}
		case "id":
			f.id, err = d.str()
		case "parentId":
			if d.null() {
				f.parentID, f.hasParent = "", false
				return nil
			}
			f.parentID, err = d.str()
			f.hasParent = true
		case "timestamp":
			f.timestamp, err = d.str()
		case "message":
			f.message, err = d.message()
		case "provider":
			f.provider, err = d.str()
		case "modelId":
			f.modelID, err = d.str()
		case "thinkingLevel":
			f.thinkingLevel, err = d.str()
		case "summary":
			f.summary, err = d.str()
		case "firstKeptEntryId":
			f.firstKeptEntryID, err = d.str()
		case "tokensBefore":
			f.tokensBefore, err = d.integer()
		case "details":
			f.details, err = d.rawCopy()
		case "fromHook":
			f.fromHook, err = d.boolean()
		case "fromId":
			f.fromID, err = d.str()
		case "customType":
			f.customType, err = d.str()
		case "data":
			f.data, err = d.rawCopy()
		case "content":
			f.content, err = d.contentOrString()
		case "display":
			f.display, err = d.boolean()
		case "targetId":
			f.targetID, err = d.str()
		case "label":
			f.label, err = d.str()
		case "name":
			f.name, err = d.str()
		default:
			err = d.skip()
		}
		return err
	})
	if err == nil {
		err = d.end()
	}
	if err != nil {
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
		return key == "summary" || key == "firstKeptEntryId" || key == "tokensBefore" || key == "details" || key == "fromHook"
	case TypeBranchSummary:
		return key == "fromId" || key == "summary" || key == "details" || key == "fromHook"
	case TypeCustom:
		return key == "customType" || key == "data"
	case TypeCustomMessage:
		return key == "customType" || key == "content" || key == "display" || key == "details"
	case TypeLabel:
		return key == "targetId" || key == "label"
	case TypeSessionInfo:
		return key == "name"
	}
	return true
}

// rawCopy reads any value and returns a copy of its JSON.
func (d *decoder) rawCopy() ([]byte, error) {
	b, err := d.raw()
	if err != nil {
		return nil, err
	}
	return bytes.Clone(b), nil
}

// header decodes the first line of a session file.
func (d *decoder) header(line []byte) (Header, error) {
	d.reset(line)
	var h Header
	var typ string
	var version int64
	err := d.object(func(key []byte) error {
		var err error
		switch string(key) {
		case "type":
			typ, err = d.strOrSkip()
		case "version":
			if c := d.peek(); c == '-' || c >= '0' && c <= '9' {
				version, err = d.integer()
			} else {
				err = d.skip()
			}
		case "id":
			h.ID, err = d.strOrSkip()
		case "timestamp":
			h.Timestamp, err = d.strOrSkip()
		case "cwd":
			h.Cwd, err = d.strOrSkip()
		case "parentSession":
			h.ParentSession, err = d.strOrSkip()
		default:
			err = d.skip()
		}
		return err
	})
	if err == nil {
		err = d.end()
	}
	if err != nil {
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
func (d *decoder) strOrSkip() (string, error) {
	if d.isString() {
		return d.str()
	}
	return "", d.skip()
}
