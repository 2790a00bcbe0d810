package openairesp

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// requestBody is the JSON body of POST /responses.
type requestBody struct {
	Model           string          `json:"model"`
	Input           []any           `json:"input"`
	Stream          bool            `json:"stream"`
	Store           bool            `json:"store"`
	MaxOutputTokens int             `json:"max_output_tokens,omitempty"`
	Temperature     *float64        `json:"temperature,omitempty"`
	Tools           []functionTool  `json:"tools,omitempty"`
	Reasoning       *reasoningParam `json:"reasoning,omitempty"`
	Include         []string        `json:"include,omitempty"`
	PromptCacheKey  string          `json:"prompt_cache_key,omitempty"`
}

type reasoningParam struct {
	Effort  string `json:"effort"`
	Summary string `json:"summary,omitempty"`
}

type functionTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// roleMessage is an input message addressed by role. Content is a string
// (system prompt, assistant text without an item id) or a list of parts.
type roleMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type inputText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type inputImage struct {
	Type     string `json:"type"`
	Detail   string `json:"detail"`
	ImageURL string `json:"image_url"`
}

// outputMessage replays an earlier answer's message item under its own id,
// so the server can pair it with the reasoning item that produced it.
type outputMessage struct {
	Type    string       `json:"type"`
	Role    string       `json:"role"`
	Content []outputText `json:"content"`
	Status  string       `json:"status"`
	ID      string       `json:"id"`
	Phase   string       `json:"phase,omitempty"`
}

type outputText struct {
	Type        string     `json:"type"`
	Text        string     `json:"text"`
	Annotations []struct{} `json:"annotations"`
}

type functionCall struct {
	Type      string `json:"type"`
	ID        string `json:"id,omitempty"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type functionCallOutput struct {
	Type   string        `json:"type"`
	CallID string        `json:"call_id"`
	Output provider.Text `json:"output"`
}

// noThinkingHint is the developer message pi appends when a gpt-5 model is
// asked not to reason: the API has no documented off switch for those
// models, and this is the prompt that reliably stops them.
const noThinkingHint = "# Juice: 0 !important"

// buildBody builds the request body for req.
func buildBody(req *provider.Request) *requestBody {
	model := &req.Model
	body := &requestBody{
		Model:           model.ID,
		Input:           buildInput(req),
		Stream:          true,
		Store:           false,
		MaxOutputTokens: req.OutputLimit(),
		Temperature:     req.Temperature,
		PromptCacheKey:  req.SessionID,
	}
	for _, t := range req.Tools {
		body.Tools = append(body.Tools, functionTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: provider.ToolParameters(t)})
	}
	if effort := reasoningEffort(model, req.Thinking); effort != "" {
		body.Reasoning = &reasoningParam{Effort: effort, Summary: "auto"}
		// With store:false the server keeps nothing, so the encrypted
		// reasoning must come back to us to be replayed next turn.
		body.Include = []string{"reasoning.encrypted_content"}
	} else if model.Reasoning && isGPT5(model) {
		body.Input = append(body.Input, roleMessage{Role: "developer", Content: []any{inputText{Type: "input_text", Text: noThinkingHint}}})
	}
	return body
}

// reasoningEffort maps a thinking level to the API's reasoning effort, or ""
// when no reasoning parameters should be sent.
func reasoningEffort(model *core.Model, level core.ThinkingLevel) string {
	if !model.Reasoning {
		return ""
	}
	switch level {
	case core.ThinkingMinimal, core.ThinkingLow, core.ThinkingMedium, core.ThinkingHigh:
		return string(level)
	case core.ThinkingXHigh:
		if core.SupportsXHigh(model.ID) {
			return "xhigh"
		}
		return "high"
	}
	return ""
}

func isGPT5(model *core.Model) bool {
	return strings.HasPrefix(strings.ToLower(model.ID), "gpt-5") || strings.HasPrefix(strings.ToLower(model.Name), "gpt-5")
}

// buildInput converts the system prompt and the conversation, cleaned for
// replay, into input items.
func buildInput(req *provider.Request) []any {
	model := &req.Model
	msgs := provider.CleanHistory(req.Messages, model, provider.ReplayOptions{ToolCallID: replayToolCallID})
	items := make([]any, 0, len(msgs)+2)
	if req.System != "" {
		// Reasoning models treat "system" as "developer" anyway; pi sends
		// developer to them and system to the rest, and so do we.
		role := "system"
		if model.Reasoning {
			role = "developer"
		}
		items = append(items, roleMessage{Role: role, Content: req.System})
	}
	for _, m := range msgs {
		switch m := m.(type) {
		case *core.UserMessage:
			if parts := userParts(model, m.Content); len(parts) > 0 {
				items = append(items, roleMessage{Role: "user", Content: parts})
			}
		case *core.AssistantMessage:
			items = appendAssistant(items, m)
		case *core.ToolResultMessage:
			items = appendToolResult(items, model, m)
		}
	}
	return items
}

// userParts converts user content to input parts. For a model that cannot
// see images each image is replaced by a line saying so, rather than
// failing the request or dropping it silently.
func userParts(model *core.Model, content []core.Content) []any {
	parts := make([]any, 0, len(content))
	images := model.SupportsImages()
	for _, c := range content {
		switch c.Type {
		case core.ContentText:
			parts = append(parts, inputText{Type: "input_text", Text: c.Text})
		case core.ContentImage:
			if images {
				parts = append(parts, imagePart(c))
			} else {
				parts = append(parts, inputText{Type: "input_text", Text: provider.ImageOmittedText})
			}
		}
	}
	return parts
}

func imagePart(c core.Content) inputImage {
	return inputImage{Type: "input_image", Detail: "auto", ImageURL: "data:" + c.MimeType + ";base64," + c.Data}
}

// replayToolCallID keeps only the call_id of another model's tool call:
// its item id pairs it with a reasoning item that model made, which is not
// replayed here.
func replayToolCallID(id string, sameModel bool) string {
	if sameModel {
		return id
	}
	callID, _, _ := strings.Cut(id, "|")
	return callID
}

// appendAssistant replays an earlier answer. Reasoning items and message
// ids only reach it from the model that produced them (CleanHistory strips
// them from other models' answers), and are sent back as items of their own.
func appendAssistant(items []any, m *core.AssistantMessage) []any {
	// skipped is set once a reasoning item could not be replayed: the API
	// refuses a function_call item id whose reasoning item is missing, so
	// the calls after it go without their item ids.
	skipped := false
	for _, c := range m.Content {
		switch c.Type {
		case core.ContentThinking:
			if item, ok := replayableReasoning(c.ThinkingSignature); ok {
				items = append(items, item)
			} else {
				skipped = true
			}
		case core.ContentText:
			id, phase := parseTextSignature(c.TextSignature)
			if id == "" {
				if c.Text != "" {
					items = append(items, roleMessage{Role: "assistant", Content: c.Text})
				}
				continue
			}
			items = append(items, outputMessage{
				Type:    "message",
				Role:    "assistant",
				Content: []outputText{{Type: "output_text", Text: c.Text, Annotations: []struct{}{}}},
				Status:  "completed",
				ID:      id,
				Phase:   phase,
			})
		case core.ContentToolCall:
			callID, itemID, _ := strings.Cut(c.ID, "|")
			if skipped {
				itemID = ""
			}
			args := string(c.Arguments)
			if args == "" {
				args = "{}"
			}
			items = append(items, functionCall{Type: "function_call", ID: itemID, CallID: callID, Name: c.Name, Arguments: args})
		}
	}
	return items
}

// replayableReasoning returns the stored reasoning item if it can be sent
// back. Without encrypted content it cannot: with store:false the server
// has no copy to look the id up in.
func replayableReasoning(sig string) (json.RawMessage, bool) {
	if sig == "" || sig[0] != '{' {
		return nil, false
	}
	var head struct {
		Type             string `json:"type"`
		EncryptedContent string `json:"encrypted_content"`
	}
	if err := json.Unmarshal([]byte(sig), &head); err != nil || head.Type != "reasoning" || head.EncryptedContent == "" {
		return nil, false
	}
	return json.RawMessage(sig), true
}

// textSignature is pi's versioned form of a message item's replay state,
// used when the item carries a phase.
type textSignature struct {
	V     int    `json:"v"`
	ID    string `json:"id"`
	Phase string `json:"phase,omitempty"`
}

// makeTextSignature stores a message item's id: bare when it is all there
// is, in pi's versioned JSON when a phase must travel with it.
func makeTextSignature(id, phase string) string {
	if id == "" {
		return ""
	}
	if phase == "" {
		return id
	}
	b, err := json.Marshal(textSignature{V: 1, ID: id, Phase: phase})
	if err != nil {
		return id
	}
	return string(b)
}

// parseTextSignature reads both forms of a text signature. Ids the API
// would reject (over 64 characters) are dropped.
func parseTextSignature(sig string) (id, phase string) {
	id = sig
	if strings.HasPrefix(sig, "{") {
		var ts textSignature
		if err := json.Unmarshal([]byte(sig), &ts); err == nil && ts.V == 1 {
			id = ts.ID
			if ts.Phase == "commentary" || ts.Phase == "final_answer" {
				phase = ts.Phase
			}
		}
	}
	if len(id) > 64 {
		return "", ""
	}
	return id, phase
}

// appendToolResult sends a tool's result as function_call_output. The
// output is text only, so images follow in a user message when the model
// can see them.
func appendToolResult(items []any, model *core.Model, m *core.ToolResultMessage) []any {
	callID, _, _ := strings.Cut(m.ToolCallID, "|")
	hasImages := slices.ContainsFunc(m.Content, func(c core.Content) bool { return c.Type == core.ContentImage })
	output := provider.ResultTextOf(m.Content)
	if output.IsZero() && hasImages {
		output = provider.TextOf(provider.ImageOnlyResultText)
	}
	items = append(items, functionCallOutput{Type: "function_call_output", CallID: callID, Output: output})
	if hasImages && model.SupportsImages() {
		parts := []any{inputText{Type: "input_text", Text: provider.ResultImagesText}}
		for _, c := range m.Content {
			if c.Type == core.ContentImage {
				parts = append(parts, imagePart(c))
			}
		}
		items = append(items, roleMessage{Role: "user", Content: parts})
	}
	return items
}
