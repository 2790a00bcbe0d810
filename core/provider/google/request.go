package google

import (
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// The request body of generateContent, restricted to what cairn sends.
type generateRequest struct {
	Contents          []content         `json:"contents"`
	SystemInstruction *content          `json:"systemInstruction,omitempty"`
	Tools             []toolDecl        `json:"tools,omitempty"`
	GenerationConfig  *generationConfig `json:"generationConfig,omitempty"`
}

type content struct {
	Role  string    `json:"role,omitempty"`
	Parts []outPart `json:"parts"`
}

// outPart is one part of a request turn. Text is a pointer because a signed
// empty text part must still say "text":"".
type outPart struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	ThoughtSignature string            `json:"thoughtSignature,omitempty"`
	InlineData       *blob             `json:"inlineData,omitempty"`
	FunctionCall     *outFunctionCall  `json:"functionCall,omitempty"`
	FunctionResponse *functionResponse `json:"functionResponse,omitempty"`
}

type blob struct {
	MimeType string `json:"mimeType"`
	Data     string `json:"data"`
}

type outFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type functionResponse struct {
	ID       string             `json:"id,omitempty"`
	Name     string             `json:"name"`
	Response functionResult     `json:"response"`
	Parts    []functionRespPart `json:"parts,omitempty"`
}

// functionResult follows the SDK's convention: "output" for a result,
// "error" for a failure, so the model can tell them apart.
type functionResult struct {
	Output *provider.Text `json:"output,omitempty"`
	Error  *provider.Text `json:"error,omitempty"`
}

type functionRespPart struct {
	InlineData *blob `json:"inlineData"`
}

type toolDecl struct {
	FunctionDeclarations []functionDecl `json:"functionDeclarations"`
}

// functionDecl sends the tool's schema as parametersJsonSchema, which takes
// plain JSON Schema (anyOf, const, $ref, ...), rather than parameters, which
// takes Gemini's OpenAPI subset and would reject many real tool schemas.
type functionDecl struct {
	Name                 string          `json:"name"`
	Description          string          `json:"description,omitempty"`
	ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema,omitempty"`
}

type generationConfig struct {
	MaxOutputTokens int             `json:"maxOutputTokens,omitempty"`
	Temperature     *float64        `json:"temperature,omitempty"`
	ThinkingConfig  *thinkingConfig `json:"thinkingConfig,omitempty"`
}

// signatureSentinel is the value Google documents for function calls whose
// real signature is unknown (history from another model); Gemini 3 rejects a
// turn whose first function call has no signature at all.
const signatureSentinel = "skip_thought_signature_validator"

// buildRequest builds the request body for req.
func buildRequest(req *provider.Request) *generateRequest {
	m := &req.Model
	out := &generateRequest{Contents: convertMessages(m, req.Messages)}
	if out.Contents == nil {
		out.Contents = []content{}
	}
	if req.System != "" {
		out.SystemInstruction = &content{Parts: []outPart{{Text: &req.System}}}
	}
	if len(req.Tools) > 0 {
		decls := make([]functionDecl, len(req.Tools))
		for i, t := range req.Tools {
			decls[i] = functionDecl{Name: t.Name, Description: t.Description, ParametersJSONSchema: schemaOrNil(t.Parameters)}
		}
		out.Tools = []toolDecl{{FunctionDeclarations: decls}}
	}
	cfg := generationConfig{MaxOutputTokens: req.OutputLimit(), Temperature: req.Temperature, ThinkingConfig: thinkingFor(m, req.Thinking)}
	if cfg != (generationConfig{}) {
		out.GenerationConfig = &cfg
	}
	return out
}

// schemaOrNil drops an absent or null schema: a function without parameters
// is declared without the field.
func schemaOrNil(s json.RawMessage) json.RawMessage {
	t := strings.TrimSpace(string(s))
	if t == "" || t == "null" {
		return nil
	}
	return s
}

// convertMessages turns the conversation, cleaned for replay, into Gemini
// turns. Assistant messages become "model" turns; tool results become
// functionResponse parts in one user turn per batch, since Gemini wants
// every response to a turn's calls together.
func convertMessages(m *core.Model, msgs []core.Message) []content {
	c := converter{model: m, gen: geminiMajor(m.ID)}
	for _, msg := range provider.CleanHistory(msgs, m, provider.ReplayOptions{ToolCallID: replayToolCallID}) {
		switch msg := msg.(type) {
		case *core.UserMessage:
			c.user(msg)
		case *core.AssistantMessage:
			c.assistant(msg)
		case *core.ToolResultMessage:
			c.toolResult(msg)
		}
	}
	c.flushImages()
	return c.out
}

// replayToolCallID gives every call Gemini's id syntax, which other
// providers' ids need and Gemini's own already have.
func replayToolCallID(id string, _ bool) string { return provider.SafeToolCallID(id) }

// converter carries the state of one conversion: the turns so far and images
// from tool results that older models need in a separate turn.
type converter struct {
	model  *core.Model
	gen    int
	out    []content
	images []outPart
}

func (c *converter) user(msg *core.UserMessage) {
	c.flushImages()
	parts := c.userParts(msg.Content)
	if len(parts) > 0 {
		c.out = append(c.out, content{Role: "user", Parts: parts})
	}
}

// userParts converts text and images. Empty text is dropped (Gemini rejects
// it) and images are replaced by a note when the model cannot see them.
func (c *converter) userParts(blocks []core.Content) []outPart {
	parts := make([]outPart, 0, len(blocks))
	for i := range blocks {
		bl := &blocks[i]
		switch bl.Type {
		case core.ContentText:
			if strings.TrimSpace(bl.Text) != "" {
				parts = append(parts, outPart{Text: &bl.Text})
			}
		case core.ContentImage:
			if c.model.SupportsImages() {
				parts = append(parts, outPart{InlineData: &blob{MimeType: bl.MimeType, Data: bl.Data}})
			} else {
				parts = append(parts, textPart(provider.ImageOmittedText))
			}
		}
	}
	return parts
}

// assistant replays an earlier answer. Signatures only reach it from the
// model that made them (CleanHistory strips other models'), so every
// signature kept is Gemini's own.
func (c *converter) assistant(msg *core.AssistantMessage) {
	c.flushImages()
	parts := make([]outPart, 0, len(msg.Content))
	signedCall := false
	for i := range msg.Content {
		bl := &msg.Content[i]
		switch bl.Type {
		case core.ContentText:
			sig := keptSignature(bl.TextSignature)
			if strings.TrimSpace(bl.Text) == "" && sig == "" {
				continue
			}
			parts = append(parts, outPart{Text: &bl.Text, ThoughtSignature: sig})
		case core.ContentThinking:
			if strings.TrimSpace(bl.Thinking) == "" {
				continue
			}
			parts = append(parts, outPart{Text: &bl.Thinking, Thought: true, ThoughtSignature: keptSignature(bl.ThinkingSignature)})
		case core.ContentToolCall:
			sig := keptSignature(bl.ThoughtSignature)
			if sig == "" && !signedCall && c.gen >= 3 {
				sig = signatureSentinel
			}
			signedCall = true
			args := bl.Arguments
			if len(args) == 0 {
				args = json.RawMessage(`{}`)
			}
			parts = append(parts, outPart{
				FunctionCall:     &outFunctionCall{ID: bl.ID, Name: bl.Name, Args: args},
				ThoughtSignature: sig,
			})
		}
	}
	if len(parts) > 0 {
		c.out = append(c.out, content{Role: "model", Parts: parts})
	}
}

// keptSignature returns sig when it can be replayed: Gemini only accepts
// base64 signatures.
func keptSignature(sig string) string {
	if !isBase64(sig) {
		return ""
	}
	return sig
}

func isBase64(s string) bool {
	if s == "" || len(s)%4 != 0 {
		return false
	}
	pad := 0
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '=':
			pad++
			if pad > 2 {
				return false
			}
		case pad > 0:
			return false
		case ch >= 'A' && ch <= 'Z', ch >= 'a' && ch <= 'z', ch >= '0' && ch <= '9', ch == '+', ch == '/':
		default:
			return false
		}
	}
	return pad < len(s)
}

func (c *converter) toolResult(msg *core.ToolResultMessage) {
	var images []outPart
	if c.model.SupportsImages() {
		for i := range msg.Content {
			if bl := &msg.Content[i]; bl.Type == core.ContentImage {
				images = append(images, outPart{InlineData: &blob{MimeType: bl.MimeType, Data: bl.Data}})
			}
		}
	}
	value := provider.ResultTextOf(msg.Content)
	if value.IsZero() && len(images) > 0 {
		value = provider.TextOf(provider.ImageOnlyResultText)
	}
	fr := &functionResponse{ID: msg.ToolCallID, Name: msg.ToolName}
	if msg.IsError {
		fr.Response.Error = &value
	} else {
		fr.Response.Output = &value
	}
	if len(images) > 0 {
		if c.gen >= 3 {
			// Gemini 3 takes images inside the function response itself.
			for _, im := range images {
				fr.Parts = append(fr.Parts, functionRespPart{InlineData: im.InlineData})
			}
		} else {
			c.images = append(c.images, images...)
		}
	}
	c.appendResponse(outPart{FunctionResponse: fr})
}

// appendResponse adds a functionResponse part to the open batch of results,
// or starts one.
func (c *converter) appendResponse(p outPart) {
	if n := len(c.out); n > 0 && c.out[n-1].Role == "user" && hasFunctionResponse(c.out[n-1].Parts) {
		c.out[n-1].Parts = append(c.out[n-1].Parts, p)
		return
	}
	c.out = append(c.out, content{Role: "user", Parts: []outPart{p}})
}

func hasFunctionResponse(parts []outPart) bool {
	for i := range parts {
		if parts[i].FunctionResponse != nil {
			return true
		}
	}
	return false
}

// flushImages sends tool result images to models before Gemini 3 as a user
// turn of their own after the batch of responses, since those models cannot
// take images inside a function response.
func (c *converter) flushImages() {
	if len(c.images) == 0 {
		return
	}
	parts := append([]outPart{textPart("Tool result image:")}, c.images...)
	c.out = append(c.out, content{Role: "user", Parts: parts})
	c.images = nil
}

func textPart(s string) outPart { return outPart{Text: &s} }
