package extension

import (
	"context"
	"encoding/json"

	"github.com/cairn-dev/cairn/core/agent"
)

// providerRequest asks the extension about a model request's payload
// (version 2; pi's before_provider_request): {"payload": {...}} sends that
// instead, null sends it as it is. cairn takes the request's secrets out
// of the payload before the extension sees it.
func (e *extension) providerRequest(ctx context.Context, ev agent.ProviderRequestEvent) (json.RawMessage, error) {
	const name = "before_provider_request"
	if e.ready(ctx) != nil || !e.handles(name) {
		// Not handled: the payload is never encoded for it.
		return nil, nil
	}
	payload, err := ev.Payload()
	if err != nil {
		return nil, err
	}
	var r struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := e.call(ctx, name, map[string]any{"payload": payload}, &r); err != nil {
		return nil, err
	}
	if string(r.Payload) == "null" {
		return nil, nil
	}
	return r.Payload, nil
}

// providerResponse tells the extension how the server answered (version
// 2; pi's after_provider_response): the status and the headers, secrets
// taken out.
func (e *extension) providerResponse(ctx context.Context, ev agent.ProviderResponseEvent) error {
	headers := ev.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	return e.call(ctx, "after_provider_response", map[string]any{"status": ev.Status, "headers": headers}, nil)
}
