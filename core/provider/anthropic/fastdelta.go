package anthropic

import "github.com/cairn-dev/cairn/core/jsonscan"

// scanDelta decodes a content_block_delta payload into ev without
// reflection: nearly every event of a long answer is one, and
// encoding/json spends most of its time and allocations on the shape
// around the one string that matters. It accepts the payloads the API sends
// (any key order, padding, escapes, extra fields); for anything else
// (another event type, a delta type it does not know, malformed JSON) it
// reports false and the caller decodes with encoding/json, which handles
// the shape or explains why it is malformed. When it reports true,
// encoding/json would have produced the same fields.
func scanDelta(s *jsonscan.Scanner, data []byte, ev *streamEvent) bool {
	s.Reset(data)
	isDelta := false
	for key := range s.Object() {
		if s.Null() {
			continue // null leaves a field alone, as with encoding/json
		}
		switch string(key) {
		case "type":
			if isDelta = string(s.StrBytes()) == "content_block_delta"; !isDelta {
				return false
			}
			ev.Type = "content_block_delta"
		case "index":
			ev.Index = int(s.Int())
		case "delta":
			if !scanDeltaFields(s, &ev.Delta) {
				return false
			}
		default:
			if jsonscan.FieldMatch(key, eventFields...) {
				return false
			}
			s.Skip()
		}
	}
	return isDelta && s.End() == nil
}

// eventFields and deltaFields are the JSON names of streamEvent's and
// eventDelta's fields. encoding/json matches keys case-insensitively, so a
// key that differs from one of these only in case must fall back.
var (
	eventFields = []string{"type", "index", "message", "content_block", "delta", "usage", "error"}
	deltaFields = []string{"type", "text", "thinking", "partial_json", "signature", "stop_reason"}
)

// scanDeltaFields reads the delta object. Delta types are interned so the
// common ones cost no allocation.
func scanDeltaFields(s *jsonscan.Scanner, d *eventDelta) bool {
	for key := range s.Object() {
		if s.Null() {
			continue
		}
		switch string(key) {
		case "type":
			switch string(s.StrBytes()) {
			case "text_delta":
				d.Type = "text_delta"
			case "thinking_delta":
				d.Type = "thinking_delta"
			case "input_json_delta":
				d.Type = "input_json_delta"
			case "signature_delta":
				d.Type = "signature_delta"
			default:
				return false
			}
		case "text":
			d.Text = s.Str()
		case "thinking":
			d.Thinking = s.Str()
		case "partial_json":
			d.PartialJSON = s.Str()
		case "signature":
			d.Signature = s.Str()
		case "stop_reason":
			d.StopReason = s.Str()
		default:
			if jsonscan.FieldMatch(key, deltaFields...) {
				return false
			}
			s.Skip()
		}
	}
	return true
}
