package openai

import (
	"regexp"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// prepareHistory makes a conversation safe to replay on this model, the way
// pi does before every request:
//
//   - Answers that failed or were aborted are dropped: they may hold half a
//     tool call, and the model should continue from the last good state.
//   - Answers from another model keep their thinking only as plain text and
//     lose provider replay tokens, which this server could not verify.
//   - Tool call ids from other providers are rewritten into a form this
//     server accepts, and their results follow the new ids.
//   - A tool call that never got a result gets an error result, since every
//     server rejects a call left unanswered; a result whose call is not in
//     the answer before it (because that answer was dropped) is left out,
//     for the same reason.
//
// The caller's messages are never modified.
func prepareHistory(msgs []core.Message, m *core.Model, c *compat) []core.Message {
	out := make([]core.Message, 0, len(msgs))
	renamed := map[string]string{}
	var pending []core.Content
	answered := map[string]bool{}

	flush := func() {
		for _, call := range pending {
			if !answered[call.ID] {
				out = append(out, &core.ToolResultMessage{
					ToolCallID: call.ID,
					ToolName:   call.Name,
					Content:    []core.Content{core.TextBlock(noResultText)},
					IsError:    true,
				})
			}
		}
		pending = nil
		clear(answered)
	}

	for _, msg := range msgs {
		switch msg := msg.(type) {
		case *core.AssistantMessage:
			flush()
			if msg.StopReason == core.StopError || msg.StopReason == core.StopAborted {
				continue
			}
			am := replayable(msg, m, c, renamed)
			pending = am.ToolCalls()
			out = append(out, am)
		case *core.ToolResultMessage:
			tr := msg
			if id := renameID(tr.ToolCallID, renamed, c); id != tr.ToolCallID {
				cp := *tr
				cp.ToolCallID = id
				tr = &cp
			}
			if !hasCall(pending, tr.ToolCallID) || answered[tr.ToolCallID] {
				continue
			}
			answered[tr.ToolCallID] = true
			out = append(out, tr)
		case *core.UserMessage:
			flush()
			out = append(out, msg)
		}
	}
	return out
}

func hasCall(calls []core.Content, id string) bool {
	for _, c := range calls {
		if c.ID == id {
			return true
		}
	}
	return false
}

// replayable returns msg as this model may see it, copying only when
// something changes.
func replayable(msg *core.AssistantMessage, m *core.Model, c *compat, renamed map[string]string) *core.AssistantMessage {
	sameModel := msg.Provider == m.Provider && msg.API == m.API && msg.Model == m.ID
	if sameModel && !c.mistralToolIDs {
		return msg
	}
	cp := *msg
	cp.Content = make([]core.Content, 0, len(msg.Content))
	for _, b := range msg.Content {
		switch b.Type {
		case core.ContentThinking:
			if sameModel {
				cp.Content = append(cp.Content, b)
				continue
			}
			if b.Redacted || strings.TrimSpace(b.Thinking) == "" {
				continue
			}
			cp.Content = append(cp.Content, core.TextBlock(b.Thinking))
		case core.ContentText:
			if !sameModel {
				b = core.TextBlock(b.Text)
			}
			cp.Content = append(cp.Content, b)
		case core.ContentToolCall:
			if !sameModel {
				b.ThoughtSignature = ""
			}
			id := normalizeToolCallID(b.ID, m, c, sameModel)
			if id != b.ID {
				renamed[b.ID] = id
				b.ID = id
			}
			cp.Content = append(cp.Content, b)
		default:
			cp.Content = append(cp.Content, b)
		}
	}
	return &cp
}

func renameID(id string, renamed map[string]string, c *compat) string {
	if n, ok := renamed[id]; ok {
		return n
	}
	if c.mistralToolIDs {
		return mistralToolID(id)
	}
	return id
}

var unsafeIDChars = regexp.MustCompile(`[^a-zA-Z0-9_-]`)

// normalizeToolCallID rewrites ids this server would reject. The Responses
// API's ids are "call_id|item_id" with the item id hundreds of characters
// long; OpenAI's Chat Completions caps ids at 40 characters.
func normalizeToolCallID(id string, m *core.Model, c *compat, sameModel bool) string {
	if c.mistralToolIDs {
		return mistralToolID(id)
	}
	if sameModel {
		return id
	}
	if callID, _, ok := strings.Cut(id, "|"); ok {
		return truncate(unsafeIDChars.ReplaceAllString(callID, "_"), 40)
	}
	if m.Provider == "openai" {
		return truncate(id, 40)
	}
	return id
}

// mistralToolID maps any id to exactly nine letters and digits, which is
// all Mistral accepts. The mapping is deterministic so a call and its result
// still match.
func mistralToolID(id string) string {
	var b strings.Builder
	for _, r := range id {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
			if b.Len() == 9 {
				return b.String()
			}
		}
	}
	const padding = "ABCDEFGHI"
	return b.String() + padding[:9-b.Len()]
}
