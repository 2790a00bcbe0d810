package provider

import (
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// NoResultText is the text of the error result CleanHistory gives a tool
// call that never got one.
const NoResultText = "No result provided"

// ReplayOptions is what one wire format adds to CleanHistory's rules. The
// zero value applies the rules alone.
type ReplayOptions struct {
	// ToolCallID, when set, rewrites a replayed tool call's id into one the
	// API accepts. sameModel says whether the call came from the model being
	// asked, whose ids the API already knows. It must be deterministic;
	// results follow their call's new id.
	ToolCallID func(id string, sameModel bool) string
}

// CleanHistory returns the conversation as the model may see it on its next
// request. Every provider calls it before converting messages to its wire
// format, so they all replay a history by the same rules, pi's:
//
//   - An answer that failed or was aborted is left out: it may hold half a
//     thought or half a tool call, and the model should go on from the last
//     good state.
//   - An answer from another model (provider, API or model id differ) keeps
//     its thinking only as plain text, drops redacted and blank thinking, and
//     loses every signature and replay token, which only the model that
//     issued them can verify. Answers from the same model are kept as they
//     are.
//   - Tool call ids are rewritten by opts.ToolCallID, and results follow.
//   - A tool call still without a result when the next prompt or answer
//     comes gets an error result saying NoResultText, since every API
//     rejects a call left unanswered.
//
// Two rules go beyond pi's, for the same reason as the last: a call is also
// answered when the history ends, and a result whose call is not in the
// answer before it (that answer was left out, or compaction cut it) or that
// answers a call a second time is left out.
//
// Tool result texts kept out of memory (core.Content.Stored) stay there: a
// wire format carries them as Text values (ResultTextOf, BlockText), read
// back when the request is written, so a request does not copy every
// result of a long conversation into memory.
//
// And for a model that does not take images, each image of a
// prompt or a tool result (an MCP server's screenshot, say) is replaced by
// a text saying an image was left out, so the model knows it is missing
// instead of never hearing of it.
//
// Messages of other types, and nil ones, are dropped. The caller's messages
// are never modified: a message that must change is copied.
func CleanHistory(msgs []core.Message, model *core.Model, opts ReplayOptions) []core.Message {
	c := cleaner{model: model, opts: opts, out: make([]core.Message, 0, len(msgs)),
		textOnly: model != nil && !model.SupportsImages()}
	for _, msg := range msgs {
		switch msg := msg.(type) {
		case *core.UserMessage:
			if msg != nil {
				c.closeTurn()
				if c.textOnly && hasImage(msg.Content) {
					cp := *msg
					cp.Content = c.imagesLeftOut(msg.Content)
					msg = &cp
				}
				c.out = append(c.out, msg)
			}
		case *core.AssistantMessage:
			if msg != nil {
				c.closeTurn()
				c.answer(msg)
			}
		case *core.ToolResultMessage:
			if msg != nil {
				if c.textOnly && hasImage(msg.Content) {
					cp := *msg
					cp.Content = c.imagesLeftOut(msg.Content)
					msg = &cp
				}
				c.result(msg)
			}
		}
	}
	c.closeTurn()
	return c.out
}

// cleaner is CleanHistory's state: the messages kept so far and the tool
// calls of the last kept answer.
type cleaner struct {
	model *core.Model
	opts  ReplayOptions
	// textOnly: the model takes no images, so they are left out, saying so.
	textOnly bool
	out      []core.Message
	calls    []openCall
}

// openCall is a tool call of the last answer: its id as recorded (which its
// result carries), its id as replayed, and whether a result was kept.
type openCall struct {
	recorded, id, name string
	answered           bool
}

// answer keeps a finished answer, rewritten where replay needs it, and
// opens its tool calls.
func (c *cleaner) answer(msg *core.AssistantMessage) {
	if msg.StopReason == core.StopError || msg.StopReason == core.StopAborted {
		return
	}
	same := msg.Provider == c.model.Provider && msg.API == c.model.API && msg.Model == c.model.ID
	if same && !c.renamesCalls(msg) {
		for _, b := range msg.Content {
			if b.Type == core.ContentToolCall {
				c.calls = append(c.calls, openCall{recorded: b.ID, id: b.ID, name: b.Name})
			}
		}
		c.out = append(c.out, msg)
		return
	}
	c.out = append(c.out, c.rewrite(msg, same))
}

// rewrite copies an answer that must change for replay and opens its calls.
func (c *cleaner) rewrite(msg *core.AssistantMessage, same bool) *core.AssistantMessage {
	cp := *msg
	cp.Content = make([]core.Content, 0, len(msg.Content))
	for _, b := range msg.Content {
		switch b.Type {
		case core.ContentThinking:
			if !same {
				if b.Redacted || strings.TrimSpace(b.Thinking) == "" {
					continue
				}
				b = core.TextBlock(b.Thinking)
			}
		case core.ContentText:
			if !same {
				b = core.TextBlock(b.Text)
			}
		case core.ContentToolCall:
			if !same {
				b.ThoughtSignature = ""
			}
			recorded := b.ID
			if c.opts.ToolCallID != nil {
				b.ID = c.opts.ToolCallID(b.ID, same)
			}
			c.calls = append(c.calls, openCall{recorded: recorded, id: b.ID, name: b.Name})
		}
		cp.Content = append(cp.Content, b)
	}
	return &cp
}

// renamesCalls reports whether opts.ToolCallID changes any of a same-model
// answer's tool call ids.
func (c *cleaner) renamesCalls(msg *core.AssistantMessage) bool {
	if c.opts.ToolCallID == nil {
		return false
	}
	for _, b := range msg.Content {
		if b.Type == core.ContentToolCall && c.opts.ToolCallID(b.ID, true) != b.ID {
			return true
		}
	}
	return false
}

// result keeps a tool result that answers an open call for the first time,
// under the call's replayed id.
func (c *cleaner) result(msg *core.ToolResultMessage) {
	for i := range c.calls {
		call := &c.calls[i]
		if call.recorded != msg.ToolCallID && call.id != msg.ToolCallID {
			continue
		}
		if call.answered {
			return
		}
		call.answered = true
		if call.id != msg.ToolCallID {
			cp := *msg
			cp.ToolCallID = call.id
			msg = &cp
		}
		c.out = append(c.out, msg)
		return
	}
}

func hasImage(blocks []core.Content) bool {
	for _, b := range blocks {
		if b.Type == core.ContentImage {
			return true
		}
	}
	return false
}

// imagesLeftOut returns blocks with each image replaced by a text that
// says an image was left out, and why.
func (c *cleaner) imagesLeftOut(blocks []core.Content) []core.Content {
	out := make([]core.Content, len(blocks))
	for i, b := range blocks {
		if b.Type == core.ContentImage {
			b = core.TextBlock(ImageOmittedText)
		}
		out[i] = b
	}
	return out
}

// closeTurn answers the open calls that got no result.
func (c *cleaner) closeTurn() {
	for _, call := range c.calls {
		if !call.answered {
			c.out = append(c.out, &core.ToolResultMessage{
				ToolCallID: call.id,
				ToolName:   call.name,
				Content:    []core.Content{core.TextBlock(NoResultText)},
				IsError:    true,
			})
		}
	}
	c.calls = c.calls[:0]
}

// SafeToolCallID fits id to [A-Za-z0-9_-]{1,64}, the strictest tool call id
// syntax any API imposes (Anthropic's, and Gemini's for its own calls):
// other bytes become '_', the excess is cut and an empty id becomes "call".
// It is deterministic, so a call and its result still match.
func SafeToolCallID(id string) string {
	const max = 64
	ok := len(id) > 0 && len(id) <= max
	for i := 0; ok && i < len(id); i++ {
		ok = idByte(id[i])
	}
	if ok {
		return id
	}
	if id == "" {
		return "call"
	}
	out := []byte(id[:min(len(id), max)])
	for i, ch := range out {
		if !idByte(ch) {
			out[i] = '_'
		}
	}
	return string(out)
}

func idByte(ch byte) bool {
	return ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-'
}
