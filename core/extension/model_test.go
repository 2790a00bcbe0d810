package extension

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// modelHost is a session sharing its model: two models, one without
// credentials; Complete answers with the system prompt it was given, or
// fails when fail is set.
type modelHost struct {
	answeringHost
	model    core.Model
	thinking core.ThinkingLevel
	fail     error
	got      CompleteRequest
}

func (h *modelHost) ModelState() (core.Model, core.ThinkingLevel) { return h.model, h.thinking }
func (h *modelHost) Models() []ModelChoice {
	return []ModelChoice{
		{Model: core.Model{ID: "m1", Provider: "p", BaseURL: "https://user:pw@example.com", Headers: map[string]string{"x-api-key": "sekrit"}}, Available: true},
		{Model: core.Model{ID: "m2", Provider: "q"}},
	}
}
func (h *modelHost) SetModel(m core.Model) error { h.model = m; return nil }
func (h *modelHost) SetThinkingLevel(l core.ThinkingLevel) error {
	if l == core.ThinkingXHigh {
		return errors.New("m1 does not support xhigh")
	}
	h.thinking = l
	return nil
}
func (h *modelHost) Complete(_ context.Context, req CompleteRequest) (*core.AssistantMessage, error) {
	h.got = req
	if h.fail != nil {
		return &core.AssistantMessage{StopReason: core.StopError, ErrorMessage: h.fail.Error()}, h.fail
	}
	return &core.AssistantMessage{Content: []core.Content{core.TextBlock("re: " + req.System)}, StopReason: core.StopEnd}, nil
}

// modelExt is an extension speaking version v to a session h.
func modelExt(h Host, v int) *extension {
	m := New(nil, Options{Mode: "tui", Now: func() time.Time { return time.Unix(0, 0) }})
	m.Attach(h)
	return &extension{m: m, cfg: Config{Name: "x"}, state: Ready, version: v, ops: map[*opCtx]struct{}{}, exited: make(chan struct{})}
}

func call(e *extension, method, params string) (string, *jsonrpc2.Error) {
	res, err := e.serve(jsonrpc2.Message{Kind: jsonrpc2.Request, ID: json.RawMessage("1"), Method: method, Params: json.RawMessage(params)})
	if err != nil {
		return "", err
	}
	out, _ := json.Marshal(res)
	return string(out), nil
}

// TestModelMethods: an extension reads the session's model with its
// secrets masked, switches model and level, and runs a completion with
// the session's own model (credentials and all); what cannot be done is
// refused with a reason.
func TestModelMethods(t *testing.T) {
	h := &modelHost{model: core.Model{ID: "m1", Provider: "p", Headers: map[string]string{"x-api-key": "sekrit"}}}
	e := modelExt(h, 2)
	got, err := call(e, MethodGetModel, `{}`)
	if err != nil || strings.Contains(got, "sekrit") || !strings.Contains(got, `"thinkingLevel":"off"`) || !strings.Contains(got, `"id":"m1"`) {
		t.Errorf("get_model: %s %v", got, err)
	}
	got, err = call(e, MethodGetModels, `{}`)
	if err != nil || strings.Contains(got, "sekrit") || strings.Contains(got, "pw@") || !strings.Contains(got, `"available":false`) {
		t.Errorf("get_models: %s %v", got, err)
	}
	if _, err := call(e, MethodSetModel, `{"provider":"q","id":"m2"}`); err == nil || err.Code != CodeRefused || !strings.Contains(err.Message, "no credentials") {
		t.Errorf("set_model without credentials: %v", err)
	}
	if _, err := call(e, MethodSetModel, `{"provider":"p","id":"nope"}`); err == nil || !strings.Contains(err.Message, "knows no model p/nope") {
		t.Errorf("set_model unknown: %v", err)
	}
	if _, err := call(e, MethodSetThinkingLevel, `{"level":"high"}`); err != nil || h.thinking != core.ThinkingHigh {
		t.Errorf("set_thinking_level: %v %q", err, h.thinking)
	}
	if _, err := call(e, MethodSetThinkingLevel, `{"level":"xhigh"}`); err == nil || err.Code != CodeRefused {
		t.Errorf("refused level: %v", err)
	}
	if _, err := call(e, MethodSetThinkingLevel, `{"level":"huge"}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("unknown level: %v", err)
	}
	got, err = call(e, MethodComplete, `{"provider":"p","id":"m1","systemPrompt":"be brief","reasoning":"low",
		"messages":[{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}]}`)
	if err != nil || !strings.Contains(got, `"text":"re: be brief"`) || !strings.Contains(got, `"role":"assistant"`) {
		t.Errorf("complete: %s %v", got, err)
	}
	if h.got.Model.Headers["x-api-key"] != "sekrit" || h.got.Thinking != core.ThinkingLow || len(h.got.Messages) != 1 {
		t.Errorf("completion asked %+v", h.got)
	}
	h.fail = errors.New("overloaded")
	if got, err = call(e, MethodComplete, `{"provider":"p","id":"m1","messages":[]}`); err != nil || !strings.Contains(got, `"stopReason":"error"`) || !strings.Contains(got, "overloaded") {
		t.Errorf("failed completion: %s %v", got, err)
	}
	for _, bad := range []string{
		`{"provider":"p","id":"m1","messages":[{"role":"system","content":"x"}]}`,
		`{"provider":"p","id":"m1","messages":[],"apiKey":"k"}`,
		`{"provider":"p","id":"m1","messages":[],"maxTokens":-1}`,
		`{"provider":"q","id":"m2","messages":[]}`,
	} {
		if _, err := call(e, MethodComplete, bad); err == nil {
			t.Errorf("complete %s: no error", bad)
		}
	}
	if _, err := call(modelExt(h, 1), MethodGetModel, `{}`); err == nil || err.Code != jsonrpc2.MethodNotFound {
		t.Errorf("version 1: %v", err)
	}
	if _, err := call(modelExt(answeringHost{}, 2), MethodGetModel, `{}`); err == nil || err.Code != CodeRefused {
		t.Errorf("a session keeping its model: %v", err)
	}
}

func (h *modelHost) SystemPrompt() string { return "be " + string(h.thinking) }

// TestGetSystemPrompt: an extension reads the session's prompt as it is
// now; a session that does not share it refuses.
func TestGetSystemPrompt(t *testing.T) {
	h := &modelHost{thinking: core.ThinkingLow}
	if got, err := call(modelExt(h, 2), MethodGetSystemPrompt, `{}`); err != nil || got != `{"systemPrompt":"be low"}` {
		t.Errorf("get_system_prompt: %s %v", got, err)
	}
	if _, err := call(modelExt(h, 2), MethodGetSystemPrompt, `{"x":1}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("with params: %v", err)
	}
	if _, err := call(modelExt(answeringHost{}, 2), MethodGetSystemPrompt, `{}`); err == nil || err.Code != CodeRefused {
		t.Errorf("not shared: %v", err)
	}
}
