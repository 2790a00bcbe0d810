package compaction

import (
	"regexp"
	"sync"

	"github.com/cairn-dev/cairn/core"
)

// overflowPatterns recognise the errors providers give when a request does
// not fit the model's context window. Each names an example message.
var overflowPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?i)prompt is too long`),                                  // Anthropic: "prompt is too long: 213462 tokens > 200000 maximum"
		regexp.MustCompile(`(?i)input is too long for requested model`),               // Amazon Bedrock
		regexp.MustCompile(`(?i)exceeds the context window`),                          // OpenAI Responses: "Your input exceeds the context window of this model"
		regexp.MustCompile(`(?i)context[_ ]length[_ ]exceeded`),                       // OpenAI's error code, and a generic wording
		regexp.MustCompile(`(?i)maximum context length`),                              // OpenAI, vLLM, OpenRouter: "This model's maximum context length is 8192 tokens"
		regexp.MustCompile(`(?i)input token count.*exceeds the maximum`),              // Gemini: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575)"
		regexp.MustCompile(`(?i)exceeds the maximum number of tokens`),                // Gemini, other wordings
		regexp.MustCompile(`(?i)maximum prompt length is \d+`),                        // xAI: "This model's maximum prompt length is 131072 but the request contains 537812 tokens"
		regexp.MustCompile(`(?i)reduce the length of the messages`),                   // Groq, vLLM: "Please reduce the length of the messages or completion"
		regexp.MustCompile(`(?i)longer than the maximum model length`),                // vLLM: "The decoder prompt (length 9000) is longer than the maximum model length of 8192"
		regexp.MustCompile(`(?i)exceeds the limit of \d+`),                            // GitHub Copilot: "prompt token count of 140000 exceeds the limit of 128000"
		regexp.MustCompile(`(?i)exceeds the available context size`),                  // llama.cpp server
		regexp.MustCompile(`(?i)greater than the context length`),                     // LM Studio
		regexp.MustCompile(`(?i)exceeded max context length`),                         // Ollama: "prompt too long; exceeded max context length by 12 tokens"
		regexp.MustCompile(`(?i)context window exceeds limit`),                        // MiniMax
		regexp.MustCompile(`(?i)exceeded model token limit`),                          // Kimi: "Your request exceeded model token limit: 262144"
		regexp.MustCompile(`(?i)too large for model with \d+ maximum context length`), // Mistral
		regexp.MustCompile(`(?i)too many tokens`),                                     // generic
		regexp.MustCompile(`(?i)token limit exceeded`),                                // generic
	}
})

// emptyOverflowPattern matches a 400 or 413 answer without a body, which is
// how Cerebras reports an overflow: in the SDK's words ("413 status code (no
// body)") or in ours, where a missing body leaves the status text as the
// message ("HTTP 413 Request Entity Too Large: Request Entity Too Large").
// A 429 is rate limiting, never an overflow.
var emptyOverflowPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^4(?:00|13)\s*(?:status code)?\s*\(no body\)|HTTP 400 Bad Request: Bad Request$|HTTP 413 Request Entity Too Large: Request Entity Too Large(?:\.|$)`)
})

// IsContextOverflow reports whether an assistant message shows that the
// request did not fit the model's context window: either the provider
// refused it with one of the known overflow errors, or (with contextWindow
// known) it silently accepted more input than the window holds, as z.ai
// does. An overflow calls for compacting and sending the request again, not
// for a plain retry. Ollama truncates silently and cannot be detected.
func IsContextOverflow(msg *core.AssistantMessage, contextWindow int) bool {
	if msg == nil {
		return false
	}
	if msg.StopReason == core.StopError && msg.ErrorMessage != "" {
		for _, p := range overflowPatterns() {
			if p.MatchString(msg.ErrorMessage) {
				return true
			}
		}
		if emptyOverflowPattern().MatchString(msg.ErrorMessage) {
			return true
		}
	}
	if contextWindow > 0 && msg.StopReason == core.StopEnd {
		return msg.Usage.Input+msg.Usage.CacheRead > contextWindow
	}
	return false
}
