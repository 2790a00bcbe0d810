package compaction

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func TestIsContextOverflow(t *testing.T) {
	failed := func(msg string) *core.AssistantMessage {
		return &core.AssistantMessage{StopReason: core.StopError, ErrorMessage: msg}
	}
	tests := []struct {
		name   string
		msg    *core.AssistantMessage
		window int
		want   bool
	}{
		{"anthropic", failed("anthropic: HTTP 400 Bad Request: prompt is too long: 213462 tokens > 200000 maximum (invalid_request_error)"), 0, true},
		{"bedrock", failed("Input is too long for requested model."), 0, true},
		{"openai responses", failed("openai: Your input exceeds the context window of this model. Please adjust your input and try again."), 0, true},
		{"openai code", failed("openai: HTTP 400 Bad Request: This request is too big (context_length_exceeded)"), 0, true},
		{"openai chat", failed("This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens."), 0, true},
		{"gemini", failed("google: HTTP 400 Bad Request: The input token count (1196265) exceeds the maximum number of tokens allowed (1048575). (INVALID_ARGUMENT)"), 0, true},
		{"gemini short", failed("Request exceeds the maximum number of tokens allowed"), 0, true},
		{"xai", failed("This model's maximum prompt length is 131072 but the request contains 537812 tokens."), 0, true},
		{"groq", failed("Please reduce the length of the messages or completion."), 0, true},
		{"openrouter", failed("This endpoint's maximum context length is 200000 tokens. However, you requested about 250000 tokens"), 0, true},
		{"vllm", failed("The decoder prompt (length 9000) is longer than the maximum model length of 8192."), 0, true},
		{"copilot", failed("prompt token count of 140000 exceeds the limit of 128000"), 0, true},
		{"llama.cpp", failed("the request exceeds the available context size, try increasing it"), 0, true},
		{"lm studio", failed("The number of tokens to keep from the initial prompt is greater than the context length"), 0, true},
		{"ollama", failed("prompt too long; exceeded max context length by 1200 tokens"), 0, true},
		{"minimax", failed("invalid params, context window exceeds limit"), 0, true},
		{"kimi", failed("Your request exceeded model token limit: 262144 (requested: 300000)"), 0, true},
		{"mistral", failed("Prompt contains 140000 tokens and 0 draft tokens, too large for model with 131072 maximum context length"), 0, true},
		{"generic", failed("Too many tokens in request"), 0, true},
		{"cerebras sdk wording", failed("413 status code (no body)"), 0, true},
		{"cerebras 400 in our wording", failed("cerebras: HTTP 400 Bad Request: Bad Request"), 0, true},
		{"cerebras 413 in our wording", failed("cerebras: HTTP 413 Request Entity Too Large: Request Entity Too Large. The request is too large; compact the conversation or send smaller files"), 0, true},

		{"rate limit", failed("anthropic: HTTP 429 Too Many Requests: Rate limited (rate_limit_error)"), 0, false},
		{"429 without body", failed("429 status code (no body)"), 0, false},
		{"overloaded", failed("anthropic: HTTP 529: Overloaded (overloaded_error)"), 0, false},
		{"400 with a body", failed("openai: HTTP 400 Bad Request: Invalid schema for function 'read'"), 0, false},
		{"no error text", failed(""), 0, false},
		{"nil", nil, 0, false},

		{"silent overflow", &core.AssistantMessage{StopReason: core.StopEnd, Usage: core.Usage{Input: 100000, CacheRead: 40000}}, 128000, true},
		{"within the window", &core.AssistantMessage{StopReason: core.StopEnd, Usage: core.Usage{Input: 100000, Output: 40000}}, 128000, false},
		{"window unknown", &core.AssistantMessage{StopReason: core.StopEnd, Usage: core.Usage{Input: 999999}}, 0, false},
		{"tool use is not checked for silent overflow", &core.AssistantMessage{StopReason: core.StopToolUse, Usage: core.Usage{Input: 999999}}, 128000, false},
		{"aborted", &core.AssistantMessage{StopReason: core.StopAborted, ErrorMessage: "prompt is too long"}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsContextOverflow(tt.msg, tt.window); got != tt.want {
				t.Fatalf("IsContextOverflow = %v, want %v", got, tt.want)
			}
		})
	}
}
