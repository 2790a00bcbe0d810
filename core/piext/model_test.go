package piext

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// fakeModels is a session's model, thinking level and catalog, with the
// faux provider answering completions. The zero value has no model and
// only the catalog below.
type fakeModels struct {
	model    core.Model
	thinking core.ThinkingLevel
	faux     *faux.Provider
	// requests are the completions asked for.
	requests []provider.Request
	// extra are models the catalog has beside catalog's.
	extra []extension.ModelChoice
}

// catalog is what the fake session knows: two faux models it can use and
// one without credentials.
var catalog = []extension.ModelChoice{
	{Model: core.Model{ID: "faux-1", Name: "Faux One", Provider: "faux", API: "faux", Reasoning: true, Headers: map[string]string{"x-key": "secret"}}, Available: true},
	{Model: core.Model{ID: "faux-2", Name: "Faux Two", Provider: "faux", API: "faux", Reasoning: true}, Available: true},
	{Model: core.Model{ID: "locked", Provider: "other", API: "openai-completions"}, Available: false},
}

func (h *fakeHost) ModelState() (core.Model, core.ThinkingLevel) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.models.model, h.models.thinking
}

func (h *fakeHost) Models() []extension.ModelChoice {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append(slices.Clone(catalog), h.models.extra...)
}

func (h *fakeHost) SetModel(m core.Model) error {
	h.mu.Lock()
	h.models.model = m
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *fakeHost) SetThinkingLevel(level core.ThinkingLevel) error {
	h.mu.Lock()
	h.models.thinking = level
	h.mu.Unlock()
	h.changed()
	return nil
}

func (h *fakeHost) Complete(ctx context.Context, req extension.CompleteRequest) (*core.AssistantMessage, error) {
	h.mu.Lock()
	p := h.models.faux
	pr := provider.Request{Model: req.Model, System: req.System, Messages: req.Messages, Thinking: req.Thinking, MaxTokens: req.MaxTokens}
	h.models.requests = append(h.models.requests, pr)
	h.mu.Unlock()
	if p == nil {
		return nil, errors.New("no provider")
	}
	return p.Stream(ctx, &pr, func(provider.Event) {})
}

// preset: /preset NAME switches to the preset's model and thinking level;
// a preset whose model has no credentials says so.
func drivePreset(t *testing.T) {
	cwd, agentDir := t.TempDir(), t.TempDir()
	presets := `{"fast": {"provider": "faux", "model": "faux-2", "thinkingLevel": "high"},
		"locked": {"provider": "other", "model": "locked"}}`
	if err := os.MkdirAll(filepath.Join(cwd, ".pi"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, ".pi", "presets.json"), []byte(presets), 0o600); err != nil {
		t.Fatal(err)
	}
	h := startHostIn(t, cwd, map[string]string{"PI_CODING_AGENT_DIR": agentDir}, "tui", "preset.ts")
	h.host.mu.Lock()
	h.host.models.model, h.host.models.thinking = catalog[0].Model, core.ThinkingOff
	h.host.mu.Unlock()
	h.input(t, "/preset fast")
	h.host.waitFor(t, "the preset applied", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), `Preset "fast" activated`) &&
			h.host.models.model.ID == "faux-2" && h.host.models.thinking == core.ThinkingHigh
	})
	h.input(t, "/preset locked")
	h.host.waitFor(t, "the preset refused", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return strings.Contains(notices(shown), `Preset "locked": No API key for other/locked`)
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if h.host.models.model.ID != "faux-2" {
		t.Errorf("model %+v after the locked preset", h.host.models.model)
	}
}

// qna: /qna asks the session's model, through cairn, for the questions of
// the last answer, showing a loader meanwhile, and puts them in the
// editor.
func driveQnA(t *testing.T) {
	last := &core.AssistantMessage{Content: []core.Content{{Type: core.ContentText, Text: "Which database? Tabs or spaces?"}}, StopReason: core.StopEnd, Provider: "faux", Model: "faux-1", API: "faux"}
	prefill := []session.Payload{
		&session.MessageEntry{Message: &core.UserMessage{Content: []core.Content{{Type: core.ContentText, Text: "plan it"}}}},
		&session.MessageEntry{Message: last},
	}
	h := startHostWith(t, t.TempDir(), nil, prefill, "tui", "qna.ts")
	questions := "Q: Which database?\nA: \n\nQ: Tabs or spaces?\nA: "
	h.host.mu.Lock()
	h.host.models.model = catalog[0].Model
	h.host.models.faux = faux.New(faux.Options{}, faux.Response{Text: questions})
	h.host.mu.Unlock()
	h.input(t, "/qna")
	h.host.waitFor(t, "the questions in the editor", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(core.EditorTextSet{Text: questions})) &&
			strings.Contains(notices(shown), "Questions loaded")
	})
	h.host.mu.Lock()
	defer h.host.mu.Unlock()
	if !slices.Contains(h.host.shown, core.Event(core.StatusChanged{Key: "loader", Text: "Extracting questions using faux-1..."})) {
		t.Errorf("no loader shown: %#v", h.host.shown)
	}
	reqs := h.host.models.requests
	if len(reqs) != 1 || !strings.HasPrefix(reqs[0].System, "You are a question extractor") || reqs[0].Model.Headers["x-key"] != "secret" ||
		len(reqs[0].Messages) != 1 || reqs[0].Messages[0].(*core.UserMessage).Content[0].Text != "Which database? Tabs or spaces?" {
		t.Errorf("requests %+v", reqs)
	}
}

// systemPrompt is the fake session's system prompt.
const systemPrompt = "You are cairn."

func (h *fakeHost) SystemPrompt() string { return systemPrompt }

// system-prompt-header: when the agent starts, the status line shows the
// length of the session's system prompt.
func driveSystemPromptHeader(t *testing.T) {
	h := startHost(t, "tui", "system-prompt-header.ts")
	h.host.events <- core.AgentStart{}
	want := core.StatusChanged{Key: "system-prompt", Text: "System: 14 chars"}
	h.host.waitFor(t, "the prompt's length", func(shown []core.Event, _ []string, _ []core.Question) bool {
		return slices.Contains(shown, core.Event(want))
	})
}
