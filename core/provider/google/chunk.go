package google

import "encoding/json"

// chunk is one streamed GenerateContentResponse, restricted to what cairn
// reads. parseChunk fills it; one chunk is reused for every event.
type chunk struct {
	Candidates     []candidate
	Usage          usageMetadata
	HasUsage       bool
	PromptFeedback *promptFeedback
	Error          *apiError
}

type candidate struct {
	Content struct {
		Parts []inPart
	}
	FinishReason  string
	FinishMessage string
	Index         int
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

// reset readies the reused chunk for the next event, keeping its arrays.
func (ch *chunk) reset() {
	*ch = chunk{Candidates: ch.Candidates[:0]}
}

// parseChunk reads one GenerateContentResponse into ch, which the caller has
// reset. The rare members (an error, prompt feedback) go through
// encoding/json; the ones in every chunk are read here.
func parseChunk(data []byte, ch *chunk) error {
	s := &scanner{data: data}
	if s.peek() != '{' {
		return s.fail("expected an object")
	}
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "candidates":
			ch.Candidates = ch.Candidates[:0]
			return s.array(func(int) error {
				c := ch.addCandidate()
				if s.null() {
					return nil
				}
				return parseCandidate(s, c)
			})
		case "usageMetadata":
			if s.null() {
				ch.HasUsage, ch.Usage = false, usageMetadata{}
				return nil
			}
			ch.HasUsage = true
			return parseUsage(s, &ch.Usage)
		case "promptFeedback":
			return s.decodeInto(&ch.PromptFeedback)
		case "error":
			return s.decodeInto(&ch.Error)
		}
		return s.skip()
	})
	if err != nil {
		return err
	}
	return s.end()
}

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
func (s *scanner) decodeInto(dst any) error {
	raw, err := s.raw()
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, dst)
}

func parseCandidate(s *scanner, c *candidate) error {
	parts := c.Content.Parts[:0]
	err := s.object(func(key []byte) error {
		switch string(key) {
		case "content":
			return s.object(func(key []byte) error {
				if string(key) != "parts" {
					return s.skip()
				}
				parts = parts[:0]
				return s.array(func(int) error {
					if s.null() {
						return nil
					}
					parts = grow(parts)
					return parsePart(s, &parts[len(parts)-1])
				})
			})
		case "finishReason":
			return s.str(&c.FinishReason)
		case "finishMessage":
			return s.str(&c.FinishMessage)
		case "index":
			return s.integer(&c.Index)
		}
		return s.skip()
	})
	c.Content.Parts = parts
	return err
}

func parsePart(s *scanner, p *inPart) error {
	return s.object(func(key []byte) error {
		switch string(key) {
		case "text":
			return s.str(&p.Text)
		case "thought":
			return s.boolean(&p.Thought)
		case "thoughtSignature":
			return s.str(&p.ThoughtSignature)
		case "functionCall":
			if s.null() {
				p.FunctionCall = nil
				return nil
			}
			if p.FunctionCall == nil {
				p.FunctionCall = &inFunctionCall{}
			}
			fc := p.FunctionCall
			return s.object(func(key []byte) error {
				switch string(key) {
				case "id":
					return s.str(&fc.ID)
				case "name":
					return s.str(&fc.Name)
				case "args":
					if s.null() {
						fc.Args = nil
						return nil
					}
					raw, err := s.raw()
					fc.Args = raw
					return err
				}
				return s.skip()
			})
		}
		return s.skip()
	})
}

func parseUsage(s *scanner, u *usageMetadata) error {
	return s.object(func(key []byte) error {
		switch string(key) {
		case "promptTokenCount":
			return s.integer(&u.PromptTokenCount)
		case "candidatesTokenCount":
			return s.integer(&u.CandidatesTokenCount)
		case "thoughtsTokenCount":
			return s.integer(&u.ThoughtsTokenCount)
		case "cachedContentTokenCount":
			return s.integer(&u.CachedContentTokenCount)
		}
		return s.skip()
	})
}
