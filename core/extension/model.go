package extension

// ---- protocol version 2: the session's model (pi's ctx.model,
// modelRegistry, setModel, setThinkingLevel, and pi-ai's complete) ----

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Methods an extension calls on cairn about the session's model
// (version 2).
const (
	// MethodGetModel reads the session's model and thinking level.
	MethodGetModel = "get_model"
	// MethodGetModels lists the models cairn knows.
	MethodGetModels = "get_models"
	// MethodSetModel switches the session's model, as pi.setModel.
	MethodSetModel = "set_model"
	// MethodSetThinkingLevel changes the thinking level, as
	// pi.setThinkingLevel.
	MethodSetThinkingLevel = "set_thinking_level"
	// MethodComplete runs one completion through cairn's providers, as
	// pi-ai's complete; the extension never sees a credential.
	MethodComplete = "complete"
)

// CompleteTimeout bounds one complete call.
const CompleteTimeout = 5 * time.Minute

// ModelChoice is a model cairn knows, and whether it has what it needs to
// be used (credentials).
type ModelChoice struct {
	core.Model
	Available bool `json:"available"`
}

// CompleteRequest is one completion an extension asks for.
type CompleteRequest struct {
	Model    core.Model
	System   string
	Messages []core.Message
	// Thinking is the level asked for; empty is off.
	Thinking  core.ThinkingLevel
	MaxTokens int
}

// ModelKeeper is a Host whose model extensions may read and switch, and
// through whose providers they may run a completion (version 2's
// get_model, get_models, set_model, set_thinking_level and complete).
type ModelKeeper interface {
	// ModelState is the session's model and thinking level.
	ModelState() (core.Model, core.ThinkingLevel)
	// Models are the models cairn knows.
	Models() []ModelChoice
	SetModel(m core.Model) error
	SetThinkingLevel(level core.ThinkingLevel) error
	// Complete runs req with the session's credentials for its model.
	Complete(ctx context.Context, req CompleteRequest) (*core.AssistantMessage, error)
}

// GetModelResult is the session's model (absent when it has none) and
// thinking level. Header values and credentials in the base URL are
// masked.
type GetModelResult struct {
	Model         *core.Model        `json:"model,omitempty"`
	ThinkingLevel core.ThinkingLevel `json:"thinkingLevel"`
}

// GetModelsResult lists the models cairn knows, masked as in
// GetModelResult.
type GetModelsResult struct {
	Models []ModelChoice `json:"models"`
}

// ModelRef names a model by its provider and id.
type ModelRef struct {
	Provider string `json:"provider"`
	ID       string `json:"id"`
}

// SetThinkingLevelParams is a thinking level: off, minimal, low, medium,
// high, xhigh or max.
type SetThinkingLevelParams struct {
	Level core.ThinkingLevel `json:"level"`
}

// CompleteParams asks for one completion of the model named, in pi-ai's
// Context shape: a system prompt and user, assistant and tool result
// messages as pi writes them.
type CompleteParams struct {
	Provider     string            `json:"provider"`
	ID           string            `json:"id"`
	SystemPrompt string            `json:"systemPrompt,omitempty"`
	Messages     []json.RawMessage `json:"messages"`
	// Reasoning is the thinking level asked for; absent is off.
	Reasoning core.ThinkingLevel `json:"reasoning,omitempty"`
	MaxTokens int                `json:"maxTokens,omitempty"`
}

// model serves the version 2 methods about the session's model.
func (e *extension) model(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	k, ok := h.(ModelKeeper)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session does not share its model with extensions")
	}
	switch m.Method {
	case MethodGetModel:
		if err := decodeParams(m.Params, &struct{}{}); err != nil {
			return nil, err
		}
		model, level := k.ModelState()
		if level == "" {
			level = core.ThinkingOff
		}
		r := GetModelResult{ThinkingLevel: level}
		if model.ID != "" {
			shown := model.Shown()
			r.Model = &shown
		}
		return r, nil
	case MethodGetModels:
		if err := decodeParams(m.Params, &struct{}{}); err != nil {
			return nil, err
		}
		out := GetModelsResult{Models: []ModelChoice{}}
		for _, c := range k.Models() {
			c.Model = c.Model.Shown()
			out.Models = append(out.Models, c)
		}
		return out, nil
	case MethodSetModel:
		var p ModelRef
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		c, err := findModel(k, p.Provider, p.ID)
		if err != nil {
			return nil, err
		}
		if err := k.SetModel(c.Model); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	case MethodSetThinkingLevel:
		var p SetThinkingLevelParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if _, err := core.ParseThinkingLevel(string(p.Level)); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
		}
		if err := k.SetThinkingLevel(p.Level); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	}
	return e.complete(k, m)
}

// findModel is the known model provider/id, or an error saying it is not
// known or has no credentials.
func findModel(k ModelKeeper, provider, id string) (ModelChoice, *jsonrpc2.Error) {
	for _, c := range k.Models() {
		if c.Provider == provider && c.ID == id {
			if !c.Available {
				return c, jsonrpc2.Errorf(CodeRefused, "%s/%s has no credentials configured in cairn", jsonrpc2.Echo(provider), jsonrpc2.Echo(id))
			}
			return c, nil
		}
	}
	return ModelChoice{}, jsonrpc2.Errorf(CodeRefused, "cairn knows no model %s/%s", jsonrpc2.Echo(provider), jsonrpc2.Echo(id))
}

// complete runs one completion, bounded by CompleteTimeout and by the
// extension's life, and answers the assistant message as pi writes it.
func (e *extension) complete(k ModelKeeper, m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	var p CompleteParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if err := checkOptions(p.Reasoning, p.MaxTokens); err != nil {
		return nil, err
	}
	req := CompleteRequest{System: p.SystemPrompt, Thinking: p.Reasoning, MaxTokens: p.MaxTokens}
	msgs, rerr := decodeMessages(p.Messages)
	if rerr != nil {
		return nil, rerr
	}
	req.Messages = msgs
	c, rerr := findModel(k, p.Provider, p.ID)
	if rerr != nil {
		return nil, rerr
	}
	req.Model = c.Model
	ctx, cancel := e.lifeBound(CompleteTimeout)
	defer cancel()
	msg, err := k.Complete(ctx, req)
	if msg == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "complete with %s/%s: %v", c.Provider, c.ID, err)
	}
	// A failed completion is still a message (stopReason "error" or
	// "aborted", with its errorMessage), as pi-ai's complete resolves.
	raw, jerr := json.Marshal(msg)
	if jerr != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "%v", fmt.Errorf("encode the answer: %w", jerr))
	}
	return json.RawMessage(raw), nil
}

// checkOptions checks a request's thinking level (empty is off) and
// output cap (zero is the model's own).
func checkOptions(level core.ThinkingLevel, maxTokens int) *jsonrpc2.Error {
	if level != "" {
		if _, err := core.ParseThinkingLevel(string(level)); err != nil {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "reasoning: %v", err)
		}
	}
	if maxTokens < 0 {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "maxTokens must not be negative")
	}
	return nil
}

// decodeMessages reads the messages of a request an extension asks cairn
// to send, in pi's form: user, assistant and toolResult messages only.
func decodeMessages(raws []json.RawMessage) ([]core.Message, *jsonrpc2.Error) {
	var out []core.Message
	for i, raw := range raws {
		msg, err := core.DecodeMessage(raw)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "messages[%d]: %v", i, err)
		}
		switch msg.(type) {
		case *core.UserMessage, *core.AssistantMessage, *core.ToolResultMessage:
		default:
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "messages[%d]: only user, assistant and toolResult messages can be sent", i)
		}
		out = append(out, msg)
	}
	return out, nil
}

// lifeBound is a context that ends after limit or when the extension
// does, whichever comes first: a request cairn runs for it never outlives
// it.
func (e *extension) lifeBound(limit time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeoutCause(context.Background(), limit, fmt.Errorf("no answer within %v", limit))
	go func() {
		select {
		case <-e.exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}
