package core

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core/redact"
)

// Model describes one model a provider serves: how to reach it, what it can
// take and what it costs. Its JSON shape is pi's, as get_state reports it.
type Model struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	API           string            `json:"api"`
	Provider      string            `json:"provider"`
	BaseURL       string            `json:"baseUrl"`
	Reasoning     bool              `json:"reasoning"`
	Input         []string          `json:"input"`
	Cost          Price             `json:"cost"`
	ContextWindow int               `json:"contextWindow"`
	MaxTokens     int               `json:"maxTokens"`
	Headers       map[string]string `json:"headers,omitempty"`
	Compat        *Compat           `json:"compat,omitempty"`
}

// Shown is m as a host or a person may see it: its base URL without
// user:password@ or credential-like query values, and its headers' values
// masked (models.json may put a credential in any of them). The model
// itself, used for requests, keeps them.
func (m Model) Shown() Model {
	m.BaseURL = redact.URL(m.BaseURL)
	if m.Headers != nil {
		masked := make(map[string]string, len(m.Headers))
		for k := range m.Headers {
			masked[k] = redact.Mask
		}
		m.Headers = masked
	}
	return m
}

// SupportsImages reports whether the model accepts image input.
func (m *Model) SupportsImages() bool {
	for _, in := range m.Input {
		if in == "image" {
			return true
		}
	}
	return false
}

// Compat adjusts the openai-completions wire format for servers that differ
// from OpenAI's own. Nil fields mean "detect from the base URL". The field
// names are those of pi's models.json.
type Compat struct {
	SupportsStore              *bool             `json:"supportsStore,omitempty"`
	SupportsDeveloperRole      *bool             `json:"supportsDeveloperRole,omitempty"`
	SupportsReasoningEffort    *bool             `json:"supportsReasoningEffort,omitempty"`
	ReasoningEffortMap         map[string]string `json:"reasoningEffortMap,omitempty"`
	SupportsUsageInStreaming   *bool             `json:"supportsUsageInStreaming,omitempty"`
	MaxTokensField             string            `json:"maxTokensField,omitempty"`
	RequiresToolResultName     *bool             `json:"requiresToolResultName,omitempty"`
	RequiresAssistantAfterTool *bool             `json:"requiresAssistantAfterToolResult,omitempty"`
	RequiresThinkingAsText     *bool             `json:"requiresThinkingAsText,omitempty"`
	ThinkingFormat             string            `json:"thinkingFormat,omitempty"`
	OpenRouterRouting          json.RawMessage   `json:"openRouterRouting,omitempty"`
	VercelGatewayRouting       json.RawMessage   `json:"vercelGatewayRouting,omitempty"`
	SupportsStrictMode         *bool             `json:"supportsStrictMode,omitempty"`
}

// ThinkingLevel is how much reasoning a request asks of the model.
type ThinkingLevel string

// The thinking levels, from none to the most a model offers.
const (
	ThinkingOff     ThinkingLevel = "off"
	ThinkingMinimal ThinkingLevel = "minimal"
	ThinkingLow     ThinkingLevel = "low"
	ThinkingMedium  ThinkingLevel = "medium"
	ThinkingHigh    ThinkingLevel = "high"
	ThinkingXHigh   ThinkingLevel = "xhigh"
	// ThinkingMax is pi 0.80's opt-in level above xhigh. No model cairn
	// knows offers it yet, so it is asked for and taken as the model's
	// highest level; cycling never reaches it.
	ThinkingMax ThinkingLevel = "max"
)

// DefaultThinking is the level a model that can reason starts at when
// nobody chose one: at start-up, and in the TUI on switching to a model
// not used before in the session.
const DefaultThinking = ThinkingMedium

// ThinkingLevels lists every level in increasing order.
var ThinkingLevels = []ThinkingLevel{ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXHigh}

// ParseThinkingLevel checks a level name and says which names are valid.
func ParseThinkingLevel(s string) (ThinkingLevel, error) {
	for _, l := range ThinkingLevels {
		if string(l) == s {
			return l, nil
		}
	}
	if s == string(ThinkingMax) {
		return ThinkingMax, nil
	}
	names := make([]string, 0, len(ThinkingLevels)+1)
	for _, l := range ThinkingLevels {
		names = append(names, string(l))
	}
	names = append(names, string(ThinkingMax))
	return "", fmt.Errorf("unknown thinking level %q: use one of %s", s, strings.Join(names, ", "))
}

// SupportsXHigh reports whether a model offers the xhigh reasoning level:
// OpenAI's gpt-5 releases from 5.2 on, codex-max, and Claude Opus 4.6
// (which gateways expose with an xhigh effort). Other models take xhigh as
// high, as pi does.
func SupportsXHigh(modelID string) bool {
	id := strings.ToLower(modelID)
	if strings.Contains(id, "codex-max") || strings.Contains(id, "opus-4-6") || strings.Contains(id, "opus-4.6") {
		return true
	}
	i := strings.Index(id, "gpt-5.")
	if i < 0 {
		return false
	}
	rest := id[i+len("gpt-5."):]
	if rest == "" || rest[0] < '0' || rest[0] > '9' {
		return false
	}
	if len(rest) > 1 && rest[1] >= '0' && rest[1] <= '9' {
		return true
	}
	return rest[0] >= '2'
}

// ToolSpec is what a model is told about a tool: its name, what it does and
// the JSON Schema of its parameters.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}
