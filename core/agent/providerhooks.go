package agent

import (
	"context"
	"encoding/json"

	"github.com/cairn-dev/cairn/core/provider"
)

// ProviderRequestEvent is a model request about to be sent (pi's
// before_provider_request): Payload makes its wire payload as the provider
// would send it, secrets taken out, encoding it only when first called (a
// large request is costly to encode; a handler that does not look at it
// should not call it).
type ProviderRequestEvent struct {
	Conversation ConversationInfo
	Payload      func() (json.RawMessage, error)
}

// ProviderResponseEvent is how the server answered a model request: its
// HTTP status and headers (secrets taken out; pi's
// after_provider_response). Headers is nil when only the status is known
// (a failed request).
type ProviderResponseEvent struct {
	Conversation ConversationInfo
	Status       int
	Headers      map[string]string
}

// payloadHooks are the provider hooks of the session's ProviderRequest and
// ProviderResponse interceptors, or nil when there are none. The request's
// payload passes through them in order, each seeing the one before's
// replacement; a failing one changes nothing, and the person is told.
func (s *Session) payloadHooks() *provider.PayloadHooks {
	var reqs, resps []*Interceptor
	for i := range s.cfg.Interceptors {
		ic := &s.cfg.Interceptors[i]
		if ic.ProviderRequest != nil {
			reqs = append(reqs, ic)
		}
		if ic.ProviderResponse != nil {
			resps = append(resps, ic)
		}
	}
	if len(reqs) == 0 && len(resps) == 0 {
		return nil
	}
	h := &provider.PayloadHooks{}
	if len(reqs) > 0 {
		h.BeforeSend = func(ctx context.Context, payload func() (json.RawMessage, error)) (json.RawMessage, error) {
			var out json.RawMessage
			for _, ic := range reqs {
				current := payload
				if out != nil {
					replaced := out
					current = func() (json.RawMessage, error) { return replaced, nil }
				}
				e := ProviderRequestEvent{Conversation: s.Conversation(), Payload: current}
				r, err := intercept(ctx, ic, func(c context.Context) (json.RawMessage, error) { return ic.ProviderRequest(c, e) })
				if err != nil {
					s.interceptFailed(ctx, ic, "before provider request", err)
					continue
				}
				if r != nil {
					out = r
				}
			}
			return out, nil
		}
	}
	if len(resps) > 0 {
		h.AfterResponse = func(ctx context.Context, status int, headers map[string]string) {
			for _, ic := range resps {
				e := ProviderResponseEvent{Conversation: s.Conversation(), Status: status, Headers: headers}
				if _, err := intercept(ctx, ic, func(c context.Context) (struct{}, error) { return struct{}{}, ic.ProviderResponse(c, e) }); err != nil {
					s.interceptFailed(ctx, ic, "after provider response", err)
				}
			}
		}
	}
	return h
}
