package agent

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// Complete runs one request outside the conversation (an extension's own
// call, pi-ai's complete): it connects to req.Model's provider with the
// credentials the session would use, and nothing is added to the
// conversation. req's APIKey and Headers are set from the connection. The
// message is never nil when the provider answered; a failure before that
// returns nil and the error.
func (s *Session) Complete(ctx context.Context, req provider.Request) (*core.AssistantMessage, error) {
	conn, err := s.cfg.Open(req.Model)
	if err != nil {
		return nil, fmt.Errorf("cannot use %s/%s: %w", req.Model.Provider, req.Model.ID, err)
	}
	req.APIKey, req.Headers = conn.APIKey, conn.Headers
	return conn.Provider.Stream(ctx, &req, func(provider.Event) {})
}

// SystemPrompt is the system prompt the next request sends with the
// tools available now, with the sections interceptors added for the
// current run (pi's getSystemPrompt).
func (s *Session) SystemPrompt() string {
	return joinSections(s.systemSections(s.cfg.Toolset.Tools()))
}
