package openairesp

import "github.com/cairn-dev/cairn/core/jsonscan"

// Delta events are nearly every event of a long answer, and encoding/json
// spends five allocations and most of the time on each one; the finished
// items of a large tool call repeat megabytes of arguments that it would
// scan four times. The functions here read the few fields we need with
// jsonscan instead. They give up (ok false) on anything unusual (a
// malformed document, an unexpected kind, a key encoding/json would match
// to a field only by ignoring case), and the caller then decodes the event
// with encoding/json, which has the last word and reports errors.
// FuzzFastPaths checks that both always agree.

// deltaFields returns the output_index and delta of a delta event.
func deltaFields(s *jsonscan.Scanner, data []byte) (index int, delta string, ok bool) {
	s.Reset(data)
	for key := range s.Object() {
		switch {
		case s.Null():
			// null leaves a field alone, as with encoding/json
		case string(key) == "delta":
			delta = s.Str()
		case string(key) == "output_index":
			index = int(s.Int())
		case jsonscan.FieldMatch(key, "delta", "output_index"):
			return 0, "", false
		default:
			s.Skip()
		}
	}
	return index, delta, s.End() == nil
}

// itemFields returns the output_index of an output_item event and the raw
// bytes of its item, without decoding the item.
func itemFields(s *jsonscan.Scanner, data []byte) (index int, item []byte, ok bool) {
	s.Reset(data)
	for key := range s.Object() {
		switch {
		case string(key) == "item":
			if s.Kind() != jsonscan.Object {
				return 0, nil, false
			}
			item = s.Raw()
		case string(key) == "output_index":
			if !s.Null() {
				index = int(s.Int())
			}
		case jsonscan.FieldMatch(key, "item", "output_index"):
			// even with null: encoding/json keeps "null" as the item
			return 0, nil, false
		default:
			s.Skip()
		}
	}
	return index, item, s.End() == nil && item != nil
}

// argumentsFields returns the output_index of a function_call_arguments.done
// event and its arguments, still encoded.
func argumentsFields(s *jsonscan.Scanner, data []byte) (index int, args []byte, ok bool) {
	s.Reset(data)
	for key := range s.Object() {
		switch {
		case s.Null():
		case string(key) == "arguments":
			if args, ok = stringLiteral(s); !ok {
				return 0, nil, false
			}
		case string(key) == "output_index":
			index = int(s.Int())
		case jsonscan.FieldMatch(key, "arguments", "output_index"):
			return 0, nil, false
		default:
			s.Skip()
		}
	}
	return index, args, s.End() == nil
}

// callFields reads a function_call item's ids and name, and returns its
// arguments still encoded, so the megabytes a large call repeats here are
// scanned once and decoded only if the deltas did not carry them.
func callFields(s *jsonscan.Scanner, data []byte) (item outputItem, args []byte, ok bool) {
	s.Reset(data)
	for key := range s.Object() {
		switch {
		case s.Null():
		case string(key) == "type":
			item.Type = s.Str()
		case string(key) == "id":
			item.ID = s.Str()
		case string(key) == "call_id":
			item.CallID = s.Str()
		case string(key) == "name":
			item.Name = s.Str()
		case string(key) == "arguments":
			if args, ok = stringLiteral(s); !ok {
				return outputItem{}, nil, false
			}
		case jsonscan.FieldMatch(key, "type", "id", "call_id", "name", "arguments"):
			return outputItem{}, nil, false
		default:
			s.Skip()
		}
	}
	if s.End() != nil {
		return outputItem{}, nil, false
	}
	return item, args, true
}

// stringLiteral moves past a string value and returns it still encoded.
func stringLiteral(s *jsonscan.Scanner) ([]byte, bool) {
	if s.Kind() != jsonscan.String {
		return nil, false
	}
	return s.Raw(), true
}

// decodeString decodes a JSON string literal found by the fast path; an
// empty literal is an empty string.
func decodeString(s *jsonscan.Scanner, lit []byte) (string, bool) {
	if len(lit) == 0 {
		return "", true
	}
	s.Reset(lit)
	v := s.Str()
	return v, s.End() == nil
}
