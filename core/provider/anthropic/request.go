package anthropic

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// wireRequest is the body of POST /v1/messages.
type wireRequest struct {
	Model        string        `json:"model"`
	MaxTokens    int           `json:"max_tokens"`
	Stream       bool          `json:"stream"`
	System       []block       `json:"system,omitempty"`
	Messages     []wireMessage `json:"messages"`
	Tools        []wireTool    `json:"tools,omitempty"`
	Thinking     *wireThinking `json:"thinking,omitempty"`
	OutputConfig *outputConfig `json:"output_config,omitempty"`
	Temperature  *float64      `json:"temperature,omitempty"`
}

type wireMessage struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type wireThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

type outputConfig struct {
	Effort string `json:"effort"`
}

// block is one content block of a request, of any type. Only the fields of
// its Type are set; Thinking is a pointer because a signed thinking block
// must carry the field even when the model showed no text.
type block struct {
	Type         string          `json:"type"`
	Text         provider.Text   `json:"text,omitzero"`
	Thinking     *string         `json:"thinking,omitempty"`
	Signature    string          `json:"signature,omitempty"`
	Data         string          `json:"data,omitempty"`
	Source       *imageSource    `json:"source,omitempty"`
	ID           string          `json:"id,omitempty"`
	Name         string          `json:"name,omitempty"`
	Input        json.RawMessage `json:"input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	Content      []block         `json:"content,omitempty"`
	IsError      bool            `json:"is_error,omitempty"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral marks a prompt-cache breakpoint: everything up to and including
// the marked block is cached for the next request.
var ephemeral = &cacheControl{Type: "ephemeral"}

// defaultMaxTokens caps the answer when neither the request nor the model
// says; the API requires a cap and every Claude model allows this much.
const defaultMaxTokens = 4096

// Extended thinking limits. The API rejects budgets under 1024 tokens, and a
// budget must leave room for an answer inside max_tokens.
const (
	minThinkingBudget = 1024
	minAnswerTokens   = 1024
)

// thinkingBudgets are pi's default budgets per level. Budget-based models
// have no tier above high, so xhigh thinks as much as high.
var thinkingBudgets = map[core.ThinkingLevel]int{
	core.ThinkingMinimal: 1024,
	core.ThinkingLow:     2048,
	core.ThinkingMedium:  8192,
	core.ThinkingHigh:    16384,
	core.ThinkingXHigh:   16384,
}

// adaptiveEfforts maps levels to output_config.effort for models that
// decide their own thinking budget.
var adaptiveEfforts = map[core.ThinkingLevel]string{
	core.ThinkingMinimal: "low",
	core.ThinkingLow:     "low",
	core.ThinkingMedium:  "medium",
	core.ThinkingHigh:    "high",
	core.ThinkingXHigh:   "max",
}

// buildRequest converts req into the wire request.
func buildRequest(req *provider.Request) *wireRequest {
	m := &req.Model
	w := &wireRequest{
		Model:     m.ID,
		MaxTokens: req.OutputLimit(),
		Stream:    true,
		Messages:  convertMessages(req.Messages, m),
	}
	if w.MaxTokens == 0 {
		w.MaxTokens = defaultMaxTokens
	}
	if req.System != "" {
		w.System = []block{{Type: "text", Text: provider.TextOf(req.System), CacheControl: ephemeral}}
	}
	for _, t := range req.Tools {
		w.Tools = append(w.Tools, wireTool{Name: t.Name, Description: t.Description, InputSchema: provider.ToolParameters(t)})
	}
	thinking := configureThinking(w, m, req.Thinking)
	// The API refuses any temperature but 1 while the model thinks.
	if req.Temperature != nil && !thinking {
		t := *req.Temperature
		w.Temperature = &t
	}
	return w
}

// configureThinking sets the thinking parameters for level, adjusting
// max_tokens so the budget fits, and reports whether thinking is on.
func configureThinking(w *wireRequest, m *core.Model, level core.ThinkingLevel) bool {
	if !m.Reasoning || level == "" || level == core.ThinkingOff {
		return false
	}
	if adaptiveThinking(m.ID) {
		effort, ok := adaptiveEfforts[level]
		if !ok {
			return false
		}
		w.Thinking = &wireThinking{Type: "adaptive"}
		w.OutputConfig = &outputConfig{Effort: effort}
		return true
	}
	budget, ok := thinkingBudgets[level]
	if !ok {
		return false
	}
	// Thinking counts against max_tokens, so the budget comes on top of the
	// answer's own allowance, up to what the model can produce.
	maxTokens := w.MaxTokens + budget
	if m.MaxTokens > 0 && maxTokens > m.MaxTokens {
		maxTokens = m.MaxTokens
	}
	if maxTokens <= budget {
		budget = maxTokens - minAnswerTokens
	}
	if budget < minThinkingBudget {
		return false
	}
	w.MaxTokens = maxTokens
	w.Thinking = &wireThinking{Type: "enabled", BudgetTokens: budget}
	return true
}

// adaptiveThinking reports whether a model decides its own thinking budget
// (thinking type "adaptive" with an effort) instead of taking budget_tokens:
// Opus and Sonnet from 4.6 on, where budgets are deprecated.
func adaptiveThinking(id string) bool {
	id = strings.ToLower(id)
	for _, family := range []string{"opus-", "sonnet-"} {
		i := strings.Index(id, family)
		if i < 0 {
			continue
		}
		major, minor, ok := modelVersion(id[i+len(family):])
		if ok && (major > 4 || major == 4 && minor >= 6) {
			return true
		}
	}
	return false
}

// modelVersion reads "4-6", "4.6" or "5" at the start of s. A long number
// is a date suffix ("sonnet-20250219"), not a version.
func modelVersion(s string) (major, minor int, ok bool) {
	major, n := leadingNumber(s)
	if n == 0 || n > 2 {
		return 0, 0, false
	}
	s = s[n:]
	if len(s) > 1 && (s[0] == '-' || s[0] == '.') {
		if v, m := leadingNumber(s[1:]); m > 0 && m <= 2 {
			minor = v
		}
	}
	return major, minor, true
}

func leadingNumber(s string) (value, digits int) {
	for digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		value = value*10 + int(s[digits]-'0')
		digits++
	}
	return value, digits
}

// convertMessages turns the conversation, cleaned for replay, into
// alternating user and assistant messages, with a cache breakpoint on the
// last user block.
func convertMessages(msgs []core.Message, m *core.Model) []wireMessage {
	c := converter{model: m}
	for _, msg := range provider.CleanHistory(msgs, m, provider.ReplayOptions{ToolCallID: replayToolCallID}) {
		switch msg := msg.(type) {
		case *core.UserMessage:
			c.add("user", c.userBlocks(msg.Content))
		case *core.AssistantMessage:
			c.assistant(msg)
		case *core.ToolResultMessage:
			c.toolResult(msg)
		}
	}
	markCacheBreakpoint(c.out)
	return c.out
}

// replayToolCallID makes every id acceptable to the API (at most 64 of
// [A-Za-z0-9_-]); ids from other providers can be long and contain "|".
func replayToolCallID(id string, _ bool) string { return provider.SafeToolCallID(id) }

// converter accumulates wire messages.
type converter struct {
	model *core.Model
	out   []wireMessage
}

// add appends blocks as a message of role, merging with the previous
// message when it has the same role: the API wants strict alternation, and
// tool results followed by a steering message form one user turn.
func (c *converter) add(role string, blocks []block) {
	if len(blocks) == 0 {
		return
	}
	if n := len(c.out); n > 0 && c.out[n-1].Role == role {
		c.out[n-1].Content = append(c.out[n-1].Content, blocks...)
		return
	}
	c.out = append(c.out, wireMessage{Role: role, Content: blocks})
}

// userBlocks converts the text and images of a user message. Blank text is
// dropped because the API rejects empty text blocks.
func (c *converter) userBlocks(content []core.Content) []block {
	var out []block
	for _, part := range content {
		switch part.Type {
		case core.ContentText:
			if strings.TrimSpace(part.Text) != "" {
				out = append(out, block{Type: "text", Text: provider.TextOf(part.Text)})
			}
		case core.ContentImage:
			out = append(out, c.image(part))
		}
	}
	return out
}

// image converts an image block, or says it was left out when the model
// cannot see images, so the model knows something was there.
func (c *converter) image(part core.Content) block {
	if !c.model.SupportsImages() {
		return block{Type: "text", Text: provider.TextOf(provider.ImageOmittedText)}
	}
	return block{Type: "image", Source: &imageSource{Type: "base64", MediaType: part.MimeType, Data: part.Data}}
}

// assistant replays an earlier answer.
func (c *converter) assistant(msg *core.AssistantMessage) {
	var blocks []block
	for _, part := range msg.Content {
		switch part.Type {
		case core.ContentText:
			if strings.TrimSpace(part.Text) != "" {
				blocks = append(blocks, block{Type: "text", Text: provider.TextOf(part.Text)})
			}
		case core.ContentThinking:
			if b, ok := thinkingBlock(part); ok {
				blocks = append(blocks, b)
			}
		case core.ContentToolCall:
			blocks = append(blocks, block{Type: "tool_use", ID: part.ID, Name: part.Name, Input: toolInput(part.Arguments)})
		}
	}
	c.add("assistant", blocks)
}

// thinkingBlock replays a thinking block, which only reaches it from the
// model that thought it (CleanHistory turns other models' thinking into
// text). Thinking that never got its signature (an interrupted stream)
// goes back as plain text, and redacted thinking without one is dropped.
func thinkingBlock(part core.Content) (block, bool) {
	signed := part.ThinkingSignature != ""
	switch {
	case part.Redacted:
		if signed {
			return block{Type: "redacted_thinking", Data: part.ThinkingSignature}, true
		}
		return block{}, false
	case signed:
		text := part.Thinking
		return block{Type: "thinking", Thinking: &text, Signature: part.ThinkingSignature}, true
	case strings.TrimSpace(part.Thinking) != "":
		return block{Type: "text", Text: provider.TextOf(part.Thinking)}, true
	}
	return block{}, false
}

// toolResult adds a result to the user turn that answers the last
// assistant turn's tool calls.
func (c *converter) toolResult(msg *core.ToolResultMessage) {
	r := block{Type: "tool_result", ToolUseID: msg.ToolCallID, IsError: msg.IsError}
	for i := range msg.Content {
		switch part := &msg.Content[i]; part.Type {
		case core.ContentText:
			if text := provider.BlockText(part); !text.IsZero() {
				r.Content = append(r.Content, block{Type: "text", Text: text})
			}
		case core.ContentImage:
			r.Content = append(r.Content, c.image(*part))
		}
	}
	c.add("user", []block{r})
}

// markCacheBreakpoint puts a cache breakpoint on the last block of the last
// user message, so the next request reads the whole conversation so far
// from the prompt cache.
func markCacheBreakpoint(msgs []wireMessage) {
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Role != "user" {
			continue
		}
		content := msgs[i].Content
		content[len(content)-1].CacheControl = ephemeral
		return
	}
}

// toolInput returns a tool call's arguments as the JSON object the API
// expects.
func toolInput(args json.RawMessage) json.RawMessage {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return json.RawMessage(`{}`)
	}
	return trimmed
}
