package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/escape"
)

type promptParams struct {
	SessionID *string           `json:"sessionId"`
	Prompt    []json.RawMessage `json:"prompt"`
}

// prompt starts a turn; the writer answers it when the session settles.
func (s *server) prompt(m message) (any, *rpcError) {
	var p promptParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	t, rerr := s.lookup(p.SessionID)
	if rerr != nil {
		return nil, rerr
	}
	b := t.b
	text, images, skipped, err := promptContent(p.Prompt)
	if err != nil {
		return nil, err
	}
	if model := b.sess.State().Model; len(images) > 0 && !model.SupportsImages() {
		// Dropped silently, the person would think the model saw them.
		return nil, errorf(CodeInvalidParams, "Invalid params: the model %s does not take images; choose a model that does (the model option) or send the prompt without them", model.ID)
	}
	typed := text
	expanded, isTemplate := b.host.Prompts.Expand(text)
	s.mu.Lock()
	if t.prompting {
		s.mu.Unlock()
		return nil, errorf(CodeInvalidRequest, "Invalid Request: a prompt is already running in this session; cancel it first")
	}
	t.prompting, t.cancelled, t.promptID = true, false, m.ID
	first := !t.noticed
	t.noticed = true
	s.mu.Unlock()
	b.sub.Mark(markPrompt{id: m.ID, text: typed})
	for _, what := range skipped {
		b.sub.Mark(markNotice{core.Notice{Level: core.NotifyWarning, Message: "left out " + what + ": cairn reads text, text files and images only"}})
	}
	if notice := b.host.StartNotice; notice != "" && first {
		b.sub.Mark(markNotice{core.Notice{Level: core.NotifyWarning, Message: notice}})
		s.offerTrust(t)
	}
	if servers := b.host.MCPPrompts; !isTemplate && servers.NamesPrompt(text) {
		// Asking the server may wait for it to start: not on the reader,
		// so that session/cancel is read meanwhile.
		ctx, cancel := context.WithCancel(s.ctx)
		s.mu.Lock()
		t.expanding = cancel
		s.mu.Unlock()
		started := s.goBackground(func() {
			defer cancel()
			exp, ok, err := servers.ExpandPrompt(ctx, text)
			s.mu.Lock()
			t.expanding = nil
			cancelled := t.cancelled
			s.mu.Unlock()
			switch {
			case cancelled || s.ctx.Err() != nil:
				// Cancelled, or cairn is stopping: no turn starts.
				b.sub.Mark(markRefused{id: m.ID})
			case ok && err != nil:
				b.sub.Mark(markRefused{id: m.ID, err: errorf(CodeInvalidParams, "Invalid params: %v", err)})
			case ok:
				s.start(b, m.ID, typed, exp.Text, append(exp.Images, images...))
			default:
				s.start(b, m.ID, text, "", images)
			}
		})
		if !started {
			cancel()
			b.sub.Mark(markRefused{id: m.ID})
		}
		return nil, nil
	}
	if isTemplate {
		s.start(b, m.ID, typed, expanded, images)
		return nil, nil
	}
	s.start(b, m.ID, text, "", images)
	return nil, nil
}

// start runs the prompt's turn in b's session.
// A command typed as the prompt (a template, an MCP prompt) is kept as
// typed, its expansion beside it for the model (agent.PromptExpanded), so
// the conversation, and a later session/load, show what the person wrote.
func (s *server) start(b *bound, id json.RawMessage, text, expanded string, images []core.Content) {
	var err error
	behavior := agent.BehaviorNone
	if s.live != nil {
		// A live session may be busy with its owner's turn: the prompt
		// steers it (reaching the model after the running tool calls), as
		// Enter does in the TUI; it is answered when the run ends.
		behavior = agent.BehaviorSteer
	}
	if expanded != "" {
		err = b.sess.PromptExpanded(text, expanded, images)
	} else {
		err = b.sess.Prompt(text, images, behavior)
	}
	if err != nil {
		b.sub.Mark(markRefused{id: id, err: busyError(err)})
	}
}

// endPrompt closes t's prompt and reports whether it was cancelled.
func (s *server) endPrompt(t *thread) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := t.cancelled
	t.prompting, t.cancelled, t.promptID = false, false, nil
	return c
}

// cancelPrompt handles session/cancel: the session's running turn is
// aborted (a pending permission request is dismissed with it) and its
// prompt is answered "cancelled". Other sessions go on.
func (s *server) cancelPrompt(raw json.RawMessage) {
	var p sessionParams
	if decodeParams(raw, &p) != nil {
		return
	}
	if t, rerr := s.lookup(p.SessionID); rerr == nil {
		s.abortPrompt(t, nil)
	}
}

// cancelling reports whether the client cancelled t's running prompt.
func (s *server) cancelling(t *thread) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return t.cancelled
}

// cancelRequest handles $/cancel_request: cancelling a running
// session/prompt request cancels its turn as session/cancel does; other
// requests are answered at once, so there is nothing to cancel.
func (s *server) cancelRequest(raw json.RawMessage) {
	var p cancelRequest
	if decodeParams(raw, &p) != nil || len(p.RequestID) == 0 {
		return
	}
	s.mu.Lock()
	var target *thread
	for _, t := range s.threads {
		if t.prompting && bytes.Equal(bytes.TrimSpace(p.RequestID), t.promptID) {
			target = t
		}
	}
	s.mu.Unlock()
	if target != nil {
		s.abortPrompt(target, p.RequestID)
	}
}

// abortPrompt cancels t's running prompt, if there is one and (when id is
// set) its request id is id.
func (s *server) abortPrompt(t *thread, id json.RawMessage) {
	s.mu.Lock()
	running := t.prompting && (id == nil || bytes.Equal(bytes.TrimSpace(id), t.promptID))
	if running {
		t.cancelled = true
		if t.expanding != nil {
			t.expanding()
		}
	}
	s.mu.Unlock()
	if running {
		t.b.sess.Abort()
	}
}

// promptContent reads a prompt's content blocks: text, resource links
// (named in the text), embedded text resources (inlined) and images.
// Binary resources and audio are left out, each named in skipped and in
// the text (so the model knows the person attached them).
func promptContent(blocks []json.RawMessage) (text string, images []core.Content, skipped []string, rerr *rpcError) {
	if len(blocks) == 0 {
		return "", nil, nil, errorf(CodeInvalidParams, `Invalid params: "prompt" needs at least one content block`)
	}
	var parts []string
	skip := func(what string) {
		skipped = append(skipped, what)
		parts = append(parts, "["+what+" was attached but left out: cairn cannot read it]")
	}
	for i, raw := range blocks {
		var b struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
			URI      string `json:"uri"`
			Name     string `json:"name"`
			Resource *struct {
				URI      string  `json:"uri"`
				Text     *string `json:"text"`
				Blob     *string `json:"blob"`
				MimeType string  `json:"mimeType"`
			} `json:"resource"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return "", nil, nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: %v", i, err)
		}
		switch b.Type {
		case "text":
			parts = append(parts, b.Text)
		case "image":
			if b.Data == "" || b.MimeType == "" {
				return "", nil, nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: an image needs data and mimeType", i)
			}
			images = append(images, core.ImageBlock(b.Data, b.MimeType))
		case "resource_link":
			name := b.Name
			if name == "" {
				name = b.URI
			}
			parts = append(parts, "["+name+"]("+b.URI+")")
		case "resource":
			if b.Resource == nil {
				return "", nil, nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: a resource block needs a resource", i)
			}
			if b.Resource.Text == nil {
				skip(attachmentName(escape.Visible(b.Resource.URI), b.Resource.MimeType))
				continue
			}
			parts = append(parts, "<context uri=\""+b.Resource.URI+"\">\n"+*b.Resource.Text+"\n</context>")
		case "audio":
			skip(attachmentName("an audio clip", b.MimeType))
		default:
			return "", nil, nil, errorf(CodeInvalidParams, "Invalid params: prompt[%d]: cairn does not take %q content", i, b.Type)
		}
	}
	return strings.Join(parts, "\n"), images, skipped, nil
}

// attachmentName names a left-out attachment: "report.pdf (application/pdf)".
func attachmentName(name, mime string) string {
	if mime == "" {
		return name
	}
	return name + " (" + escape.Visible(mime) + ")"
}
