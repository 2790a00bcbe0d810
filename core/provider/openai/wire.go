package openai

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the Chat Completions wire shapes. Field names are the
// wire's own; they stay inside this package.

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model               string          `json:"model"`
	Messages            []wireMessage   `json:"messages"`
	Stream              bool            `json:"stream"`
	StreamOptions       *streamOptions  `json:"stream_options,omitempty"`
	Store               *bool           `json:"store,omitempty"`
	MaxCompletionTokens int             `json:"max_completion_tokens,omitempty"`
	MaxTokens           int             `json:"max_tokens,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	Tools               *[]wireTool     `json:"tools,omitempty"`
	ReasoningEffort     string          `json:"reasoning_effort,omitempty"`
	Reasoning           *effortParam    `json:"reasoning,omitempty"`
	EnableThinking      *bool           `json:"enable_thinking,omitempty"`
	ChatTemplateKwargs  *templateKwargs `json:"chat_template_kwargs,omitempty"`
	PromptCacheKey      string          `json:"prompt_cache_key,omitempty"`
	Provider            json.RawMessage `json:"provider,omitempty"`
	ProviderOptions     json.RawMessage `json:"providerOptions,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// effortParam is OpenRouter's normalized reasoning switch.
type effortParam struct {
	Effort string `json:"effort"`
}

type templateKwargs struct {
	EnableThinking bool `json:"enable_thinking"`
}

// wireMessage is one entry of "messages". Content is a string, a []wirePart
// or nil (sent as null, which assistant messages with only tool calls need).
type wireMessage struct {
	Role             string            `json:"role"`
	Content          any               `json:"content"`
	Name             string            `json:"name,omitempty"`
	ToolCallID       string            `json:"tool_call_id,omitempty"`
	ToolCalls        []wireToolCall    `json:"tool_calls,omitempty"`
	ReasoningContent *string           `json:"reasoning_content,omitempty"`
	Reasoning        *string           `json:"reasoning,omitempty"`
	ReasoningText    *string           `json:"reasoning_text,omitempty"`
	ReasoningDetails []json.RawMessage `json:"reasoning_details,omitempty"`
}

// wirePart is one element of an array content: text or an image URL.
type wirePart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string       `json:"type"`
	Function toolFunction `json:"function"`
}

type toolFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict,omitempty"`
}

// chunk is one streamed "data:" payload. Choices is an array of one so that
// decoding a text delta allocates no slice; servers only ever stream one
// choice unless asked for more, and further choices are ignored.
type chunk struct {
	// ID is the completion's id (chatcmpl-...), the same in every chunk;
	// Model the model that answered.
	ID      string     `json:"id"`
	Model   string     `json:"model"`
	Choices [1]choice  `json:"choices"`
	Usage   *wireUsage `json:"usage"`
	XGroq   *struct {
		Usage *wireUsage `json:"usage"`
	} `json:"x_groq"`
	Error *wireError `json:"error"`
}

type choice struct {
	Delta        delta  `json:"delta"`
	FinishReason string `json:"finish_reason"`
	// Usage is where Moonshot puts the counts instead of the chunk.
	Usage *wireUsage `json:"usage"`
	// Message is the whole answer when a server ignores stream:true and
	// replies with one chat.completion object.
	Message *delta `json:"message"`
}

// delta is the incremental part of a choice. The three reasoning fields are
// different servers' names for the same thing.
type delta struct {
	Content flexText `json:"content"`
	// Refusal is OpenAI's refusal text, streamed in place of content.
	Refusal          string            `json:"refusal"`
	ReasoningContent string            `json:"reasoning_content"`
	Reasoning        string            `json:"reasoning"`
	ReasoningText    string            `json:"reasoning_text"`
	ReasoningDetails []json.RawMessage `json:"reasoning_details"`
	ToolCalls        []toolCallDelta   `json:"tool_calls"`
}

type toolCallDelta struct {
	Index    optionalInt `json:"index"`
	ID       string      `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// reasoningDetail is one entry of OpenRouter's reasoning_details array.
type reasoningDetail struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Summary string `json:"summary"`
	ID      string `json:"id"`
	Data    string `json:"data"`
}

type wireUsage struct {
	PromptTokens         int `json:"prompt_tokens"`
	CompletionTokens     int `json:"completion_tokens"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
	PromptTokensDetails  *struct {
		CachedTokens     *int `json:"cached_tokens"`
		CacheWriteTokens int  `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// optionalInt is an integer that remembers whether it was present, without
// the allocation a *int would cost on every tool call delta.
type optionalInt struct {
	value int
	set   bool
}

// UnmarshalJSON accepts a number or null; anything else is ignored rather
// than failing the whole chunk, since the index is only a routing hint.
func (o *optionalInt) UnmarshalJSON(data []byte) error {
	if v, err := strconv.Atoi(string(data)); err == nil {
		o.value, o.set = v, true
	}
	return nil
}

// wireError is the error object of an error envelope or of an error event
// inside a stream. Servers disagree on its shape: OpenAI sends
// {message,type,param,code} (param is not kept: the message names it), Ollama a bare string, OpenRouter a numeric code
// and metadata.raw with the upstream's own words.
type wireError struct {
	Message  string
	Type     string
	Code     string
	Metadata struct {
		Raw json.RawMessage `json:"raw"`
	}
}

// UnmarshalJSON accepts both the object and the bare string form.
func (e *wireError) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	if len(data) > 0 && data[0] == '"' {
		return json.Unmarshal(data, &e.Message)
	}
	var w struct {
		Message  string          `json:"message"`
		Type     string          `json:"type"`
		Code     json.RawMessage `json:"code"`
		Metadata struct {
			Raw json.RawMessage `json:"raw"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	e.Message, e.Type, e.Metadata = w.Message, w.Type, w.Metadata
	e.Code = scalarString(w.Code)
	return nil
}

// scalarString renders a JSON string or number as text; null and other
// values become "".
func scalarString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return string(raw)
	}
	return ""
}

// flexText is a delta's content: normally a string, but some servers
// (Mistral's reasoning models) stream an array of typed parts instead: the
// text parts become Text, Mistral's thinking parts Thinking, and an
// unfamiliar shape costs text, not the stream.
type flexText struct {
	Text     string
	Thinking string
}

// UnmarshalJSON decodes a plain string without escapes directly, which is
// the common case and the hot path of every text delta.
func (t *flexText) UnmarshalJSON(data []byte) error {
	if len(data) == 0 {
		return nil
	}
	switch data[0] {
	case '"':
		inner := data[1 : len(data)-1]
		if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
			t.Text = string(inner)
			return nil
		}
		return json.Unmarshal(data, &t.Text)
	case '[':
		t.Text, t.Thinking = contentParts(data)
	}
	return nil
}

// contentParts reads a content array's text parts and thinking parts
// (Mistral's magistral models: {"type":"thinking","thinking":[{"type":
// "text","text":...}]}), each joined.
func contentParts(data []byte) (text, thinking string) {
	var parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		Thinking []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"thinking"`
	}
	if json.Unmarshal(data, &parts) != nil {
		return "", ""
	}
	var tb, kb strings.Builder
	for _, p := range parts {
		switch p.Type {
		case "text":
			tb.WriteString(p.Text)
		case "thinking":
			for _, k := range p.Thinking {
				if k.Type == "text" {
					kb.WriteString(k.Text)
				}
			}
		}
	}
	return tb.String(), kb.String()
}
