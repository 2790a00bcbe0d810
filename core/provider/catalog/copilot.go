package catalog

import (
	"context"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider"
)

// copilotProvider is pi's id of GitHub Copilot.
const copilotProvider = "github-copilot"

// copilot sends requests to GitHub Copilot as pi 0.87.1 does, through the
// wire format's own provider (Copilot serves the Anthropic Messages API,
// OpenAI's Chat Completions and its Responses API): to the API the Copilot
// token names (its proxy-ep), with Copilot's editor headers and the
// per-request ones (X-Initiator, Openai-Intent, Copilot-Vision-Request),
// the token always a Bearer token.
type copilot struct {
	inner      provider.Provider
	api        string
	enterprise string
}

func newCopilot(inner provider.Provider, api string, login pihome.Credential) *copilot {
	c := &copilot{inner: inner, api: api}
	if login.Type == "oauth" {
		c.enterprise = oauth.NormalizeDomain(login.EnterpriseURL)
	}
	return c
}

// Stream implements provider.Provider.
func (c *copilot) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	r := *req
	if r.Model.BaseURL == "" || strings.TrimRight(r.Model.BaseURL, "/") == oauth.CopilotBaseURL("", "") {
		// The built-in base URL: the token says which API serves it. A
		// models.json baseUrl is kept as written.
		r.Model.BaseURL = oauth.CopilotBaseURL(req.APIKey, c.enterprise)
	}
	h := oauth.CopilotHeaders()
	h["X-Initiator"] = copilotInitiator(req.Messages)
	h["Openai-Intent"] = "conversation-edits"
	if copilotVision(req.Messages) {
		h["Copilot-Vision-Request"] = "true"
	}
	if c.api == APIAnthropic && req.APIKey != "" {
		// Copilot takes its token as a Bearer token on the Messages API too.
		h["Authorization"] = "Bearer " + req.APIKey
		r.APIKey = ""
	}
	for k, v := range req.Headers {
		h[k] = v // models.json's headers win
	}
	r.Headers = h
	return c.inner.Stream(ctx, &r, emit)
}

// copilotInitiator is "user" when the person spoke last, else "agent" (a
// follow-up after a tool result), as Copilot expects.
func copilotInitiator(msgs []core.Message) string {
	if n := len(msgs); n > 0 && msgs[n-1].MessageRole() != core.RoleUser {
		return "agent"
	}
	return "user"
}

// copilotVision reports whether any user message or tool result carries an
// image, which Copilot must be told of.
func copilotVision(msgs []core.Message) bool {
	for _, m := range msgs {
		var content []core.Content
		switch m := m.(type) {
		case *core.UserMessage:
			content = m.Content
		case *core.ToolResultMessage:
			content = m.Content
		}
		for _, c := range content {
			if c.Type == core.ContentImage {
				return true
			}
		}
	}
	return false
}

// copilotAllowed is the set of models a GitHub Copilot login may use (the
// availableModelIds its entry lists, from Copilot's /models), or nil when
// the provider's credential is no login or lists none: as pi's
// filterModels, which leaves the others out of the models offered.
func (c *Catalog) copilotAllowed() map[string]bool {
	a, ok := c.authEntry(copilotProvider)
	if !ok || a.Type != "oauth" || a.AvailableModelIDs == nil {
		return nil
	}
	allowed := make(map[string]bool, len(a.AvailableModelIDs))
	for _, id := range a.AvailableModelIDs {
		allowed[id] = true
	}
	return allowed
}
