package extension

// ---- protocol version 2: the session's system prompt (pi's
// ctx.getSystemPrompt) ----

import (
	"context"

	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// MethodGetSystemPrompt reads the session's system prompt (version 2).
const MethodGetSystemPrompt = "get_system_prompt"

// PromptKeeper is a Host that shows extensions its system prompt.
type PromptKeeper interface {
	// SystemPrompt is the prompt the next request sends, with what
	// extensions added for the current run.
	SystemPrompt() string
}

// GetSystemPromptResult is the session's system prompt.
type GetSystemPromptResult struct {
	SystemPrompt string `json:"systemPrompt"`
}

// systemPrompt serves get_system_prompt.
func (e *extension) systemPrompt(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	if err := decodeParams(m.Params, &struct{}{}); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	k, ok := h.(PromptKeeper)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session does not show its system prompt to extensions")
	}
	return GetSystemPromptResult{SystemPrompt: k.SystemPrompt()}, nil
}
