package google

import (
	"encoding/json"
	"errors"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// chunk is one streamed GenerateContentResponse, restricted to what cairn
// reads. parseChunk fills it; one chunk is reused for every event.
type chunk struct {
	Candidates     []candidate
	Usage          usageMetadata
	HasUsage       bool
	PromptFeedback *promptFeedback
	Error          *apiError
	// ModelVersion and ResponseID are the answering model and the
	// response's id as the last chunk that named them gave them. reset
	// keeps them, so a stream repeating them in every chunk allocates once.
	ModelVersion string
	ResponseID   string
}

type candidate struct {
	Content struct {
		Parts []inPart
	}
	FinishReason  string
	FinishMessage string
	Index         int
	// Blocked is the category of the first safety rating that blocked the
	// candidate ("HARM_CATEGORY_DANGEROUS_CONTENT"), if any did.
	Blocked string
}

// inPart is one part of the model's answer. Parts of kinds cairn does not
// use (inline images, executable code) decode to a part with none of these
// set and are skipped.
type inPart struct {
	Text             string
	Thought          bool
	ThoughtSignature string
	FunctionCall     *inFunctionCall
}

// inFunctionCall is a call as Gemini sends it: whole. Args aliases the
// event's bytes and is only valid while the event is applied.
type inFunctionCall struct {
	ID   string
	Name string
	Args []byte
}

type usageMetadata struct {
	PromptTokenCount        int
	CandidatesTokenCount    int
	ThoughtsTokenCount      int
	CachedContentTokenCount int
}

type promptFeedback struct {
	BlockReason        string `json:"blockReason"`
	BlockReasonMessage string `json:"blockReasonMessage"`
}

// reset readies the reused chunk for the next event, keeping its arrays and
// the model version and response id seen so far.
func (ch *chunk) reset() {
	*ch = chunk{Candidates: ch.Candidates[:0], ModelVersion: ch.ModelVersion, ResponseID: ch.ResponseID}
}

// parseChunk reads one GenerateContentResponse into ch, which the caller has
// reset. The rare members (an error, prompt feedback) go through
// encoding/json; the ones in every chunk are read here. null reads as
// encoding/json reads it.
func parseChunk(s *jsonscan.Scanner, data []byte, ch *chunk) error {
	s.Reset(data)
	if s.Kind() != jsonscan.Object {
		return errNotObject
	}
	for key := range s.Object() {
		switch string(key) {
		case "candidates":
			ch.Candidates = ch.Candidates[:0]
			for range s.Array() {
				if c := ch.addCandidate(); !s.Null() {
					parseCandidate(s, c)
				}
			}
		case "usageMetadata":
			if s.Null() {
				ch.HasUsage, ch.Usage = false, usageMetadata{}
				continue
			}
			ch.HasUsage = true
			parseUsage(s, &ch.Usage)
		case "promptFeedback":
			if err := decodeInto(s, &ch.PromptFeedback); err != nil {
				return err
			}
		case "error":
			if err := decodeInto(s, &ch.Error); err != nil {
				return err
			}
		case "modelVersion":
			keepStr(s, &ch.ModelVersion)
		case "responseId":
			keepStr(s, &ch.ResponseID)
		default:
			s.Skip()
		}
	}
	return s.End()
}

var errNotObject = errors.New("expected a JSON object")

// addCandidate appends a zeroed candidate, keeping the parts array a
// previous event left in that slot so steady streaming allocates nothing.
func (ch *chunk) addCandidate() *candidate {
	n := len(ch.Candidates)
	if n == cap(ch.Candidates) {
		ch.Candidates = append(ch.Candidates, candidate{})
		return &ch.Candidates[n]
	}
	ch.Candidates = ch.Candidates[:n+1]
	c := &ch.Candidates[n]
	parts := c.Content.Parts[:0]
	*c = candidate{}
	c.Content.Parts = parts
	return c
}

// grow extends a slice by one zeroed element, reusing spare capacity.
func grow[T any](xs []T) []T {
	var zero T
	if len(xs) < cap(xs) {
		xs = xs[:len(xs)+1]
		xs[len(xs)-1] = zero
		return xs
	}
	return append(xs, zero)
}

// decodeInto hands one value to encoding/json.
func decodeInto(s *jsonscan.Scanner, dst any) error {
	raw := s.Raw()
	if raw == nil {
		return s.Err()
	}
	return json.Unmarshal(raw, dst)
}

func parseCandidate(s *jsonscan.Scanner, c *candidate) {
	parts := c.Content.Parts[:0]
	for key := range s.Object() {
		switch string(key) {
		case "content":
			for key := range s.Object() {
				if string(key) != "parts" {
					s.Skip()
					continue
				}
				parts = parts[:0]
				for range s.Array() {
					if !s.Null() {
						parts = grow(parts)
						parsePart(s, &parts[len(parts)-1])
					}
				}
			}
		case "finishReason":
			str(s, &c.FinishReason)
		case "finishMessage":
			str(s, &c.FinishMessage)
		case "index":
			integer(s, &c.Index)
		case "safetyRatings":
			c.Blocked = ""
			for range s.Array() {
				parseSafetyRating(s, c)
			}
		default:
			s.Skip()
		}
	}
	c.Content.Parts = parts
}

// parseSafetyRating reads one of a candidate's safety ratings and records
// its category when it is the first named one that blocked the candidate.
func parseSafetyRating(s *jsonscan.Scanner, c *candidate) {
	var buf [64]byte // categories are short; this keeps them off the heap
	category := buf[:0]
	blocked := false
	for key := range s.Object() {
		switch string(key) {
		case "category":
			if !s.Null() {
				category = append(category[:0], s.StrBytes()...)
			}
		case "blocked":
			if !s.Null() {
				blocked = s.Bool()
			}
		default:
			s.Skip()
		}
	}
	if blocked && c.Blocked == "" {
		c.Blocked = string(category)
	}
}

func parsePart(s *jsonscan.Scanner, p *inPart) {
	for key := range s.Object() {
		switch string(key) {
		case "text":
			str(s, &p.Text)
		case "thought":
			if !s.Null() {
				p.Thought = s.Bool()
			}
		case "thoughtSignature":
			str(s, &p.ThoughtSignature)
		case "functionCall":
			if s.Null() {
				p.FunctionCall = nil
				continue
			}
			if p.FunctionCall == nil {
				p.FunctionCall = &inFunctionCall{}
			}
			parseFunctionCall(s, p.FunctionCall)
		default:
			s.Skip()
		}
	}
}

func parseFunctionCall(s *jsonscan.Scanner, fc *inFunctionCall) {
	for key := range s.Object() {
		switch string(key) {
		case "id":
			str(s, &fc.ID)
		case "name":
			str(s, &fc.Name)
		case "args":
			if fc.Args = nil; !s.Null() {
				fc.Args = s.Raw()
			}
		default:
			s.Skip()
		}
	}
}

func parseUsage(s *jsonscan.Scanner, u *usageMetadata) {
	for key := range s.Object() {
		switch string(key) {
		case "promptTokenCount":
			integer(s, &u.PromptTokenCount)
		case "candidatesTokenCount":
			integer(s, &u.CandidatesTokenCount)
		case "thoughtsTokenCount":
			integer(s, &u.ThoughtsTokenCount)
		case "cachedContentTokenCount":
			integer(s, &u.CachedContentTokenCount)
		default:
			s.Skip()
		}
	}
}

// str and integer read a field; null leaves it alone, as with
// encoding/json.
// keepStr reads a string into dst, allocating only when it differs from
// what dst holds; null leaves dst as it is.
func keepStr(s *jsonscan.Scanner, dst *string) {
	if s.Null() {
		return
	}
	if b := s.StrBytes(); string(b) != *dst {
		*dst = string(b)
	}
}

func str(s *jsonscan.Scanner, dst *string) {
	if !s.Null() {
		*dst = s.Str()
	}
}

func integer(s *jsonscan.Scanner, dst *int) {
	if !s.Null() {
		*dst = int(s.Int())
	}
}
