package openai

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// Placeholder texts the model sees where the wire cannot carry what we have.
const (
	bridgeToolResults = "I have processed the tool results."
)

// buildRequest turns a provider request into the Chat Completions body.
func buildRequest(req *provider.Request, c *compat) *chatRequest {
	m := &req.Model
	body := &chatRequest{
		Model:    m.ID,
		Messages: convertMessages(req, c),
		Stream:   true,
	}
	if c.usageInStreaming {
		body.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	if c.store {
		f := false
		body.Store = &f
	}
	if maxTokens := req.OutputLimit(); maxTokens > 0 {
		if c.maxTokensField == maxTokensName {
			body.MaxTokens = maxTokens
		} else {
			body.MaxCompletionTokens = maxTokens
		}
	}
	body.Temperature = req.Temperature
	if len(req.Tools) > 0 {
		tools := convertTools(req.Tools, c)
		body.Tools = &tools
	} else if hasToolHistory(req.Messages) {
		// Proxies in front of Anthropic reject tool calls in the history
		// unless a tools field is present, even an empty one.
		empty := []wireTool{}
		body.Tools = &empty
	}
	applyReasoning(body, m, c, req.Thinking)
	if req.SessionID != "" && strings.Contains(m.BaseURL, "api.openai.com") {
		body.PromptCacheKey = truncate(req.SessionID, 64)
	}
	if c.openRouterRouting != nil {
		body.Provider = c.openRouterRouting
	}
	if c.vercelGatewayRouting != nil {
		body.ProviderOptions = vercelProviderOptions(c.vercelGatewayRouting)
	}
	return body
}

// applyReasoning sets whichever reasoning switch the server's dialect has.
// Z.ai and Qwen think by default, and OpenRouter routes to models that do,
// so for those an "off" level is sent explicitly rather than left out.
func applyReasoning(body *chatRequest, m *core.Model, c *compat, level core.ThinkingLevel) {
	if !m.Reasoning {
		return
	}
	effort := c.reasoningEffortFor(m, level)
	on := effort != ""
	switch c.thinkingFormat {
	case formatZai, formatQwen:
		body.EnableThinking = &on
	case formatQwenChatTemplate:
		body.ChatTemplateKwargs = &templateKwargs{EnableThinking: on}
	case formatOpenRouter:
		if !on {
			effort = "none"
		}
		body.Reasoning = &effortParam{Effort: effort}
	default:
		if on && c.reasoningEffort {
			body.ReasoningEffort = effort
		}
	}
}

func convertTools(tools []core.ToolSpec, c *compat) []wireTool {
	out := make([]wireTool, len(tools))
	var strict *bool
	if c.strictMode {
		f := false
		strict = &f
	}
	for i, t := range tools {
		out[i] = wireTool{Type: "function", Function: toolFunction{
			Name: t.Name, Description: t.Description, Parameters: provider.ToolParameters(t), Strict: strict,
		}}
	}
	return out
}

func hasToolHistory(msgs []core.Message) bool {
	for _, msg := range msgs {
		switch m := msg.(type) {
		case *core.ToolResultMessage:
			return true
		case *core.AssistantMessage:
			for _, c := range m.Content {
				if c.Type == core.ContentToolCall {
					return true
				}
			}
		}
	}
	return false
}

// convertMessages renders the conversation, cleaned for replay, in the
// wire's roles. The system prompt goes first, as "developer" for reasoning
// models on servers that know that role.
func convertMessages(req *provider.Request, c *compat) []wireMessage {
	m := &req.Model
	msgs := provider.CleanHistory(req.Messages, m, provider.ReplayOptions{
		ToolCallID: func(id string, sameModel bool) string { return replayToolCallID(id, m, c, sameModel) },
	})
	out := make([]wireMessage, 0, len(msgs)+1)
	if req.System != "" {
		role := "system"
		if m.Reasoning && c.developerRole {
			role = "developer"
		}
		out = append(out, wireMessage{Role: role, Content: req.System})
	}
	images := m.SupportsImages()
	lastWasToolResult := false
	for i := 0; i < len(msgs); i++ {
		switch msg := msgs[i].(type) {
		case *core.UserMessage:
			if c.assistantAfterToolResult && lastWasToolResult {
				out = append(out, wireMessage{Role: "assistant", Content: bridgeToolResults})
			}
			lastWasToolResult = false
			if content := userContent(msg.Content, images); content != nil {
				out = append(out, wireMessage{Role: "user", Content: content})
			}
		case *core.AssistantMessage:
			lastWasToolResult = false
			if wm, ok := assistantMessage(msg, c); ok {
				out = append(out, wm)
			}
		case *core.ToolResultMessage:
			// A run of tool results is sent as tool messages, then one user
			// message with all their images: tool messages carry text only.
			var parts []wirePart
			for ; i < len(msgs); i++ {
				tr, ok := msgs[i].(*core.ToolResultMessage)
				if !ok {
					break
				}
				out = append(out, toolMessage(tr, c))
				if images {
					parts = appendImages(parts, tr.Content)
				}
			}
			i--
			lastWasToolResult = true
			if len(parts) > 0 {
				if c.assistantAfterToolResult {
					out = append(out, wireMessage{Role: "assistant", Content: bridgeToolResults})
				}
				parts = append([]wirePart{{Type: "text", Text: provider.ResultImagesText}}, parts...)
				out = append(out, wireMessage{Role: "user", Content: parts})
				lastWasToolResult = false
			}
		}
	}
	return out
}

// userContent returns a plain string for a single text block, which every
// server accepts, and an array of parts otherwise. Images are dropped for
// models that cannot see them. It returns nil when nothing is left.
func userContent(blocks []core.Content, images bool) any {
	if len(blocks) == 1 && blocks[0].Type == core.ContentText {
		return blocks[0].Text
	}
	parts := make([]wirePart, 0, len(blocks))
	for _, b := range blocks {
		switch b.Type {
		case core.ContentText:
			parts = append(parts, wirePart{Type: "text", Text: b.Text})
		case core.ContentImage:
			if images {
				parts = append(parts, imagePart(b))
			} else {
				parts = append(parts, wirePart{Type: "text", Text: provider.ImageOmittedText})
			}
		}
	}
	if len(parts) == 0 {
		return nil
	}
	return parts
}

func imagePart(b core.Content) wirePart {
	return wirePart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + b.MimeType + ";base64," + b.Data}}
}

func appendImages(parts []wirePart, blocks []core.Content) []wirePart {
	for _, b := range blocks {
		if b.Type == core.ContentImage {
			parts = append(parts, imagePart(b))
		}
	}
	return parts
}

// assistantMessage replays an earlier answer. Text is sent as one string
// (array content makes some models echo the array). Thinking goes back in
// the field it arrived in, which llama.cpp's gpt-oss needs to continue its
// reasoning, or as leading text for servers that only take text. It reports
// false for a message with nothing to send, which servers reject.
func assistantMessage(msg *core.AssistantMessage, c *compat) (wireMessage, bool) {
	wm := wireMessage{Role: "assistant"}
	if c.assistantAfterToolResult {
		// Servers that need the bridge message also reject null content.
		wm.Content = ""
	}
	// The pieces are joined once at the end: a single piece (the usual
	// answer) is sent as it is, not copied for every request.
	var texts, thoughts []string
	var textParts []wirePart
	thinkingField := ""
	for _, b := range msg.Content {
		switch b.Type {
		case core.ContentText:
			if strings.TrimSpace(b.Text) == "" {
				continue
			}
			texts = append(texts, b.Text)
			textParts = append(textParts, wirePart{Type: "text", Text: b.Text})
		case core.ContentThinking:
			if strings.TrimSpace(b.Thinking) == "" {
				continue
			}
			if len(thoughts) == 0 {
				thinkingField = b.ThinkingSignature
			}
			thoughts = append(thoughts, b.Thinking)
		case core.ContentToolCall:
			args := string(b.Arguments)
			if args == "" {
				args = "{}"
			}
			wm.ToolCalls = append(wm.ToolCalls, wireToolCall{
				ID: b.ID, Type: "function", Function: wireFunction{Name: b.Name, Arguments: args},
			})
			if detail := reasoningDetailOf(b.ThoughtSignature); detail != nil {
				wm.ReasoningDetails = append(wm.ReasoningDetails, detail)
			}
		}
	}
	sep := "\n"
	if c.thinkingAsText {
		sep = "\n\n"
	}
	text, thinking := strings.Join(texts, ""), strings.Join(thoughts, sep)
	switch {
	case thinking != "" && c.thinkingAsText:
		wm.Content = append([]wirePart{{Type: "text", Text: thinking}}, textParts...)
	case text != "":
		wm.Content = text
	}
	if thinking != "" && !c.thinkingAsText {
		s := thinking
		switch thinkingField {
		case "reasoning_content":
			wm.ReasoningContent = &s
		case "reasoning":
			wm.Reasoning = &s
		case "reasoning_text":
			wm.ReasoningText = &s
		}
	}
	hasContent := false
	switch v := wm.Content.(type) {
	case string:
		hasContent = v != ""
	case []wirePart:
		hasContent = len(v) > 0
	}
	return wm, hasContent || len(wm.ToolCalls) > 0
}

// reasoningDetailOf returns a tool call's stored OpenRouter reasoning detail
// (an encrypted reasoning item, kept as JSON in ThoughtSignature), or nil if
// the signature is something else.
func reasoningDetailOf(sig string) json.RawMessage {
	s := strings.TrimSpace(sig)
	if s == "" || s[0] != '{' || !json.Valid([]byte(s)) {
		return nil
	}
	return json.RawMessage(s)
}

// toolMessage renders one tool result. The wire's tool message holds text
// only, so a result that is all images says where to look.
func toolMessage(tr *core.ToolResultMessage, c *compat) wireMessage {
	content := provider.ResultTextOf(tr.Content)
	if content.IsZero() {
		content = provider.TextOf(provider.ImageOnlyResultText)
	}
	wm := wireMessage{Role: "tool", Content: content, ToolCallID: tr.ToolCallID}
	if c.toolResultName && tr.ToolName != "" {
		wm.Name = tr.ToolName
	}
	return wm
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

var unsafeIDChars = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9_-]`) })

// replayToolCallID rewrites ids this server would reject. The Responses
// API's ids are "call_id|item_id" with the item id hundreds of characters
// long; OpenAI's Chat Completions caps ids at 40 characters; Mistral takes
// nothing but its own nine-character form, even for its own calls.
func replayToolCallID(id string, m *core.Model, c *compat, sameModel bool) string {
	if c.mistralToolIDs {
		return mistralToolID(id)
	}
	if sameModel {
		return id
	}
	if callID, _, ok := strings.Cut(id, "|"); ok {
		return truncate(unsafeIDChars().ReplaceAllString(callID, "_"), 40)
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
