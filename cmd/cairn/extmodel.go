package main

import (
	"context"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider"
)

// ModelState is the session's model and thinking level, for extensions
// (extension.ModelKeeper).
func (h extensionHost) ModelState() (core.Model, core.ThinkingLevel) {
	st := h.State()
	return st.Model, st.Thinking
}

// Models are the catalog's models, each available when its provider has
// credentials, and the session's own model (which may be one given by
// name only, such as the faux model) first.
func (h extensionHost) Models() []extension.ModelChoice {
	cur := h.State().Model
	out := []extension.ModelChoice{{Model: cur, Available: true}}
	if h.cat == nil {
		return out
	}
	for _, m := range h.cat.Models() {
		if m.Provider == cur.Provider && m.ID == cur.ID {
			continue
		}
		out = append(out, extension.ModelChoice{Model: m, Available: h.cat.HasKey(m)})
	}
	return out
}

// Complete runs an extension's completion with the session's credentials.
func (h extensionHost) Complete(ctx context.Context, req extension.CompleteRequest) (*core.AssistantMessage, error) {
	return h.Session.Complete(ctx, provider.Request{Model: req.Model, System: req.System, Messages: req.Messages, Thinking: req.Thinking, MaxTokens: req.MaxTokens})
}

var (
	_ extension.ModelKeeper  = extensionHost{}
	_ extension.PromptKeeper = extensionHost{}
)
