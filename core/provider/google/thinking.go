package google

import (
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core"
)

// thinkingConfig is generationConfig.thinkingConfig. Budget is a pointer
// because 0 (thinking off) and -1 (the model decides) are both meaningful.
type thinkingConfig struct {
	IncludeThoughts bool   `json:"includeThoughts,omitempty"`
	ThinkingBudget  *int   `json:"thinkingBudget,omitempty"`
	ThinkingLevel   string `json:"thinkingLevel,omitempty"`
}

// The model-id patterns, compiled when first used (not at every start).
var (
	gemini3Pro   = lazyRegexp(`gemini-3(\.\d+)?-pro`)
	gemini3Flash = lazyRegexp(`gemini-3(\.\d+)?-flash`)
	gemma4       = lazyRegexp(`gemma-?4`)
	geminiGen    = lazyRegexp(`^gemini(-live)?-(\d+)`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// geminiMajor returns the Gemini generation of a model id (2 for
// gemini-2.5-flash). Ids that are not Gemini's own naming count as the
// newest generation, since custom deployments are usually recent models.
func geminiMajor(id string) int {
	m := geminiGen().FindStringSubmatch(strings.ToLower(id))
	if m == nil {
		return 1 << 30
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return 1 << 30
	}
	return n
}

// thinkingFor maps a thinking level to Gemini's thinkingConfig, as pi does.
// Gemini 3 and Gemma 4 take named levels and Gemini 2.5 a token budget.
// Models that think by default are told to stop when the level is off,
// since otherwise "off" would still spend (and bill) hidden reasoning.
func thinkingFor(m *core.Model, level core.ThinkingLevel) *thinkingConfig {
	if !m.Reasoning {
		return nil
	}
	id := strings.ToLower(m.ID)
	if level == "" || level == core.ThinkingOff {
		return thinkingOff(id)
	}
	if level == core.ThinkingXHigh {
		level = core.ThinkingHigh
	}
	cfg := &thinkingConfig{IncludeThoughts: true}
	switch {
	case gemini3Pro().MatchString(id):
		cfg.ThinkingLevel = pick(level, "LOW", "LOW", "HIGH", "HIGH")
	case gemma4().MatchString(id):
		cfg.ThinkingLevel = pick(level, "MINIMAL", "MINIMAL", "HIGH", "HIGH")
	case gemini3Flash().MatchString(id):
		cfg.ThinkingLevel = pick(level, "MINIMAL", "LOW", "MEDIUM", "HIGH")
	default:
		budget := thinkingBudget(id, level)
		cfg.ThinkingBudget = &budget
	}
	return cfg
}

// thinkingOff is the lowest reasoning a model allows. Gemini 3 cannot turn
// thinking off, and Gemini 2.5 Pro refuses a zero budget, so those get their
// minimum, without includeThoughts so nothing shows.
func thinkingOff(id string) *thinkingConfig {
	switch {
	case gemini3Pro().MatchString(id):
		return &thinkingConfig{ThinkingLevel: "LOW"}
	case gemini3Flash().MatchString(id), gemma4().MatchString(id):
		return &thinkingConfig{ThinkingLevel: "MINIMAL"}
	case strings.Contains(id, "2.5-pro"):
		budget := 128
		return &thinkingConfig{ThinkingBudget: &budget}
	}
	budget := 0
	return &thinkingConfig{ThinkingBudget: &budget}
}

// thinkingBudget is pi's token budget per level for Gemini 2.5; other models
// get -1, which lets the model size its own reasoning.
func thinkingBudget(id string, level core.ThinkingLevel) int {
	var budgets [4]int
	switch {
	case strings.Contains(id, "2.5-pro"):
		budgets = [4]int{128, 2048, 8192, 32768}
	case strings.Contains(id, "2.5-flash-lite"):
		budgets = [4]int{512, 2048, 8192, 24576}
	case strings.Contains(id, "2.5-flash"):
		budgets = [4]int{128, 2048, 8192, 24576}
	default:
		return -1
	}
	return budgets[levelIndex(level)]
}

// pick chooses among values for minimal, low, medium and high.
func pick(level core.ThinkingLevel, minimal, low, medium, high string) string {
	return [4]string{minimal, low, medium, high}[levelIndex(level)]
}

func levelIndex(level core.ThinkingLevel) int {
	switch level {
	case core.ThinkingMinimal:
		return 0
	case core.ThinkingLow:
		return 1
	case core.ThinkingMedium:
		return 2
	}
	return 3
}
