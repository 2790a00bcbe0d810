package openai

import (
	"encoding/json"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// compat is core.Compat with every question answered: explicit settings from
// models.json win, the rest is detected from the provider name and base URL
// the way pi does, so a models.json written for pi behaves the same here.
type compat struct {
	store                    bool
	developerRole            bool
	reasoningEffort          bool
	effortMap                map[string]string
	usageInStreaming         bool
	maxTokensField           string
	toolResultName           bool
	assistantAfterToolResult bool
	thinkingAsText           bool
	thinkingFormat           string
	strictMode               bool
	// mistralToolIDs rewrites replayed tool call ids to the nine
	// alphanumerics Mistral insists on. It has no models.json switch.
	mistralToolIDs bool
	// reasoningApart: reasoning tokens are counted outside
	// completion_tokens (xAI), so output adds them.
	reasoningApart       bool
	openRouterRouting    json.RawMessage
	vercelGatewayRouting json.RawMessage
}

// The thinking formats of core.Compat.ThinkingFormat.
const (
	formatOpenAI            = "openai"
	formatZai               = "zai"
	formatQwen              = "qwen"
	formatQwenChatTemplate  = "qwen-chat-template"
	formatOpenRouter        = "openrouter"
	maxCompletionTokensName = "max_completion_tokens"
	maxTokensName           = "max_tokens"
)

// detectCompat guesses a server's dialect from the provider name and URL.
// Servers that reject OpenAI's newer fields (store, the developer role) are
// listed by name; everything else is assumed to speak OpenAI's dialect,
// which is what Ollama, llama.cpp, vLLM and LM Studio accept.
func detectCompat(m *core.Model) compat {
	provider, url := m.Provider, m.BaseURL
	has := func(s string) bool { return strings.Contains(url, s) }

	isZai := provider == "zai" || has("api.z.ai")
	isGrok := provider == "xai" || has("api.x.ai")
	isMistral := provider == "mistral" || has("mistral.ai")
	isGroq := provider == "groq" || has("groq.com")
	nonStandard := provider == "cerebras" || has("cerebras.ai") || isGrok || isMistral ||
		has("chutes.ai") || has("deepseek.com") || isZai || provider == "opencode" || has("opencode.ai")

	isOpenRouter := provider == "openrouter" || has("openrouter.ai")
	// pi sends every reasoning model's system prompt as "developer" unless
	// the server is on its list, but Ollama and many chat templates drop
	// that role without a word, losing the system prompt (pi issues #1389,
	// #3367). Only OpenAI's own models are sent it unless compat says so.
	openAIEndpoint := has("api.openai.com") || has("openai.azure.com") ||
		(isOpenRouter && strings.HasPrefix(m.ID, "openai/"))

	c := compat{
		store:            !nonStandard,
		developerRole:    !nonStandard && openAIEndpoint,
		reasoningEffort:  !isGrok && !isZai,
		usageInStreaming: true,
		maxTokensField:   maxCompletionTokensName,
		toolResultName:   isMistral,
		thinkingAsText:   isMistral,
		mistralToolIDs:   isMistral,
		reasoningApart:   isGrok,
		thinkingFormat:   formatOpenAI,
		strictMode:       true,
	}
	if isMistral || has("chutes.ai") {
		c.maxTokensField = maxTokensName
	}
	switch {
	case isZai:
		c.thinkingFormat = formatZai
	case isOpenRouter:
		c.thinkingFormat = formatOpenRouter
	}
	// Groq's Qwen3 takes only "none" or "default" as an effort.
	if isGroq && m.ID == "qwen/qwen3-32b" {
		c.effortMap = map[string]string{"minimal": "default", "low": "default", "medium": "default", "high": "default", "xhigh": "default"}
	}
	return c
}

// resolveCompat applies the model's explicit settings over the detected ones.
func resolveCompat(m *core.Model) compat {
	c := detectCompat(m)
	x := m.Compat
	if x == nil {
		return c
	}
	override := func(dst *bool, src *bool) {
		if src != nil {
			*dst = *src
		}
	}
	override(&c.store, x.SupportsStore)
	override(&c.developerRole, x.SupportsDeveloperRole)
	override(&c.reasoningEffort, x.SupportsReasoningEffort)
	override(&c.usageInStreaming, x.SupportsUsageInStreaming)
	override(&c.toolResultName, x.RequiresToolResultName)
	override(&c.assistantAfterToolResult, x.RequiresAssistantAfterTool)
	override(&c.thinkingAsText, x.RequiresThinkingAsText)
	override(&c.strictMode, x.SupportsStrictMode)
	if x.ReasoningEffortMap != nil {
		c.effortMap = x.ReasoningEffortMap
	}
	if x.MaxTokensField == maxTokensName || x.MaxTokensField == maxCompletionTokensName {
		c.maxTokensField = x.MaxTokensField
	}
	if x.ThinkingFormat != "" {
		c.thinkingFormat = x.ThinkingFormat
	}
	if isSet(x.OpenRouterRouting) && strings.Contains(m.BaseURL, "openrouter.ai") {
		c.openRouterRouting = x.OpenRouterRouting
	}
	if isSet(x.VercelGatewayRouting) && strings.Contains(m.BaseURL, "ai-gateway.vercel.sh") {
		c.vercelGatewayRouting = x.VercelGatewayRouting
	}
	return c
}

func isSet(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null"
}

// reasoningEffort returns the effort to request for a thinking level, or ""
// for none. xhigh exists only on a few OpenAI models (and Opus 4.6 through
// compatible gateways); elsewhere it is clamped to high, as pi does. The
// compat map then renames levels for servers with their own vocabulary.
func (c *compat) reasoningEffortFor(m *core.Model, level core.ThinkingLevel) string {
	if !m.Reasoning || level == "" || level == core.ThinkingOff {
		return ""
	}
	effort := string(level)
	if level == core.ThinkingXHigh && !core.SupportsXHigh(m.ID) {
		effort = string(core.ThinkingHigh)
	}
	if mapped, ok := c.effortMap[effort]; ok && mapped != "" {
		return mapped
	}
	return effort
}

// vercelProviderOptions turns the gateway routing setting into the
// providerOptions the gateway reads, keeping only the keys it knows.
func vercelProviderOptions(raw json.RawMessage) json.RawMessage {
	var routing struct {
		Only  []string `json:"only,omitempty"`
		Order []string `json:"order,omitempty"`
	}
	if json.Unmarshal(raw, &routing) != nil || (routing.Only == nil && routing.Order == nil) {
		return nil
	}
	out, err := json.Marshal(map[string]any{"gateway": routing})
	if err != nil {
		return nil
	}
	return out
}
