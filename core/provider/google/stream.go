package google

import (
	"bytes"
	"context"
	"errors"
	"io"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/redact"
)

// stream decodes one response body into a Builder.
type stream struct {
	p    *Provider
	b    *provider.Builder
	name string
	key  string
	// cur is the open text or thinking block, or -1; consecutive parts of
	// the same kind continue it.
	cur       int
	curKind   core.ContentType
	finish    string
	finishMsg string
	blocked   string // the safety category that blocked the answer, if any
	usage     usageMetadata
	hasUsage  bool
	chunk     chunk
	scan      jsonscan.Scanner // reused for every event
}

// run reads events until the body ends and returns what Stream should.
func (s *stream) run(ctx context.Context, body io.Reader) (*core.AssistantMessage, error) {
	s.b.Start()
	dec := provider.NewSSEDecoder(body)
	for {
		ev, err := dec.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if s.finish != "" && ctx.Err() == nil {
				// The answer was complete; only the connection's close
				// went wrong.
				break
			}
			return provider.Fail(ctx, s.b, provider.StreamError(ctx, s.name, err))
		}
		if ev.Event != "" && ev.Event != "message" {
			continue
		}
		if err := s.event(ev.Data); err != nil {
			return provider.Fail(ctx, s.b, err)
		}
	}
	if ctx.Err() != nil {
		return provider.Fail(ctx, s.b, provider.NetworkError(s.name, ctx.Err()))
	}
	switch s.finish {
	case "":
		return provider.Fail(ctx, s.b, &provider.Error{
			Provider:  s.name,
			Message:   "stream ended before the response was complete",
			Retryable: true,
		})
	case "STOP":
		return s.b.Finish(core.StopEnd), nil
	case "MAX_TOKENS":
		return s.b.Finish(core.StopLength), nil
	}
	// The answer arrived whole and then was refused: its blocks end as
	// they would on success before the message fails, as pi's do.
	s.b.EndAll()
	return provider.Fail(ctx, s.b, finishError(s.name, s.finish, s.blocked, redact.Secrets(s.finishMsg, s.key)))
}

// event applies one SSE data payload.
func (s *stream) event(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || bytes.Equal(data, []byte("[DONE]")) {
		return nil
	}
	ch := &s.chunk
	ch.reset()
	if err := parseChunk(&s.scan, data, ch); err != nil {
		return &provider.Error{Provider: s.name, Message: "malformed event from Gemini: " + err.Error(), Err: err}
	}
	if ch.Error != nil {
		e := fromAPIError(ch.Error)
		e.Provider = s.name
		e.Message = redact.Secrets(e.Message, s.key)
		if e.Message == "" {
			e.Message = "Gemini reported an error mid-stream"
		}
		return e
	}
	// Every chunk names the model that answered, which may be a dated
	// version of the alias asked for.
	s.b.SetModelID(ch.ModelVersion)
	s.b.SetResponseID(ch.ResponseID)
	if pf := ch.PromptFeedback; pf != nil && pf.BlockReason != "" {
		// The refused prompt was still read, and counted.
		s.setUsage(ch)
		return promptBlocked(s.name, pf.BlockReason, redact.Secrets(pf.BlockReasonMessage, s.key))
	}
	for i := range ch.Candidates {
		c := &ch.Candidates[i]
		// cairn asks for one candidate; any other would be a second answer.
		if c.Index != 0 {
			continue
		}
		for j := range c.Content.Parts {
			s.part(&c.Content.Parts[j])
		}
		if c.Blocked != "" && s.blocked == "" {
			s.blocked = c.Blocked
		}
		if c.FinishReason != "" {
			s.finish, s.finishMsg = c.FinishReason, c.FinishMessage
			s.b.SetRawStopReason(s.finish)
		}
	}
	s.setUsage(ch)
	return nil
}

// setUsage records the chunk's usage when it has some that is new.
func (s *stream) setUsage(ch *chunk) {
	if u := &ch.Usage; ch.HasUsage && (!s.hasUsage || *u != s.usage) {
		s.hasUsage, s.usage = true, *u
		thoughts := u.ThoughtsTokenCount // pi 0.87's reasoning, 0 when not reported
		s.b.SetUsage(core.Usage{
			Input:     max(u.PromptTokenCount-u.CachedContentTokenCount, 0),
			Output:    u.CandidatesTokenCount + u.ThoughtsTokenCount,
			CacheRead: u.CachedContentTokenCount,
			Reasoning: &thoughts,
		})
	}
}

// part applies one part of the answer.
func (s *stream) part(pt *inPart) {
	if fc := pt.FunctionCall; fc != nil {
		s.closeCurrent()
		s.toolCall(fc, pt.ThoughtSignature)
		return
	}
	kind := core.ContentText
	if pt.Thought {
		kind = core.ContentThinking
	}
	sig := pt.ThoughtSignature
	open := s.cur >= 0 && s.curKind == kind
	if open && sig != "" && s.signature() != "" && s.signature() != sig {
		// A second signed part is its own part on replay; merging would
		// send one of the signatures with text it does not belong to.
		s.closeCurrent()
		open = false
	}
	if !open {
		if pt.Text == "" && sig == "" {
			// Gemini ends some answers with an empty text part; it adds
			// nothing unless it carries a signature.
			return
		}
		s.closeCurrent()
		if kind == core.ContentThinking {
			s.cur = s.b.BeginThinking()
		} else {
			s.cur = s.b.BeginText()
		}
		s.curKind = kind
	}
	if sig != "" {
		bl := s.b.Block(s.cur)
		if kind == core.ContentThinking {
			bl.ThinkingSignature = sig
		} else {
			bl.TextSignature = sig
		}
	}
	s.b.Append(s.cur, pt.Text)
}

// signature is the open block's signature.
func (s *stream) signature() string {
	bl := s.b.Block(s.cur)
	if bl == nil {
		return ""
	}
	if bl.Type == core.ContentThinking {
		return bl.ThinkingSignature
	}
	return bl.TextSignature
}

func (s *stream) closeCurrent() {
	if s.cur >= 0 {
		s.b.End(s.cur)
		s.cur = -1
	}
}

// toolCall emits a function call, which Gemini sends whole. Its id is
// Gemini's when given and unique in this answer, else one made up here.
func (s *stream) toolCall(fc *inFunctionCall, sig string) {
	id := fc.ID
	if id == "" || s.hasCallID(id) {
		id = s.p.newToolCallID(fc.Name)
	}
	i := s.b.BeginToolCall(id, fc.Name)
	if sig != "" {
		s.b.Block(i).ThoughtSignature = sig
	}
	s.b.Append(i, string(fc.Args))
	s.b.End(i)
}

func (s *stream) hasCallID(id string) bool {
	for _, c := range s.b.Message().Content {
		if c.Type == core.ContentToolCall && c.ID == id {
			return true
		}
	}
	return false
}
