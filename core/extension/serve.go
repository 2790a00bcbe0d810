package extension

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// serve answers a request or notification of the extension.
func (e *extension) serve(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	switch m.Method {
	case MethodToolUpdate:
		var p ToolUpdateParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if checkContent(p.Content) != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "an update holds text and image blocks only")
		}
		e.mu.Lock()
		update := e.updates[p.ToolCallID]
		e.mu.Unlock()
		if update == nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no call %q is running", jsonrpc2.Echo(p.ToolCallID))
		}
		update(core.ToolUpdate{Content: p.Content, Details: p.Details})
		return nil, nil
	case MethodUI:
		var p UIParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		return e.ui(p)
	case MethodRegisterTool:
		var d ToolDef
		if err := decodeParams(m.Params, &d); err != nil {
			return nil, err
		}
		return nil, e.registerTool(d)
	case MethodRegisterCommand:
		var d CommandDef
		if err := decodeParams(m.Params, &d); err != nil {
			return nil, err
		}
		return nil, e.registerCommand(d)
	case MethodSetActiveTools:
		var p SetActiveToolsParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		e.mu.Lock()
		for _, t := range e.tools {
			t.active = slices.Contains(p.Names, t.def.Name)
		}
		e.mu.Unlock()
		e.m.changed()
		return nil, nil
	case MethodSendUserMessage:
		var p SendUserMessageParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if p.DeliverAs != "" && p.DeliverAs != "steer" && p.DeliverAs != "followUp" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `deliverAs must be "steer" or "followUp"`)
		}
		h := e.m.host(context.Background())
		if h == nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
		}
		if err := h.SendUserMessage(p.Content, p.DeliverAs); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	case MethodAppendEntry, MethodGetEntries, MethodSetSessionName:
		return e.entries(m)
	case MethodMemberChanged:
		return e.memberChanged(m)
	// ---- version 2: the session's model (model.go) ----
	case MethodGetModel, MethodGetModels, MethodSetModel, MethodSetThinkingLevel, MethodComplete:
		return e.model(m)
	case MethodGetSystemPrompt:
		return e.systemPrompt(m)
	case MethodCompact, MethodRequestShutdown:
		return e.lifecycle(m)
	case MethodRegisterProvider, MethodUnregisterProvider, MethodStreamEvent:
		return e.provider(m)
	case MethodStreamAPI, MethodCancelStream:
		return e.streamAPI(m)
	case MethodReload:
		return e.reload(m)
	case MethodSetLabel, MethodGetCommands, MethodSendMessage, MethodNewSession, MethodGetSession:
		return e.session(m)
	case MethodCustomShow, MethodCustomRender, MethodCustomClose, MethodCustomAction:
		return e.custom(m)
	case MethodGetTools, MethodSetTools:
		return e.sessionTools(m)
	}
	return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "cairn has no method %q", jsonrpc2.Echo(m.Method))
}

// entries serves version 2's append_entry, get_entries and
// set_session_name from the session, when it keeps entries.
func (e *extension) entries(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	k, ok := h.(EntryKeeper)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session keeps no entries")
	}
	if m.Method == MethodSetSessionName {
		var p SetSessionNameParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if err := k.SetName(p.Name); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	}
	if m.Method == MethodAppendEntry {
		var p AppendEntryParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		id, err := k.AppendCustom(p.CustomType, p.Data)
		if err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		// A front end shows it where an extension draws its type.
		e.m.show(core.CustomEntryAdded{ID: id, CustomType: p.CustomType, Data: p.Data})
		return AppendEntryResult{ID: id}, nil
	}
	if err := decodeParams(m.Params, &struct{}{}); err != nil {
		return nil, err
	}
	entries, leaf, err := k.Entries()
	if err != nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
	}
	out := GetEntriesResult{Entries: make([]json.RawMessage, 0, len(entries)), LeafID: leaf}
	for _, en := range entries {
		raw, err := json.Marshal(en)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "entry %s: %v", en.ID, err)
		}
		out.Entries = append(out.Entries, raw)
	}
	return out, nil
}

// needV2 refuses method, one of protocol version 2's, to an extension that
// speaks version 1.
func (e *extension) needV2(method string) *jsonrpc2.Error {
	e.mu.Lock()
	v := e.version
	e.mu.Unlock()
	if v < 2 {
		return jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "%s is protocol version 2's; this extension speaks version %d", jsonrpc2.Echo(method), v)
	}
	return nil
}

// decodeParams reads params strictly: a member cairn does not know is an
// error, so a misspelt field is never silently dropped.
func decodeParams(params []byte, v any) *jsonrpc2.Error {
	if len(params) == 0 || params[0] != '{' {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "params must be an object")
	}
	if err := strictJSON(params, v); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	return nil
}

func (e *extension) registerTool(d ToolDef) *jsonrpc2.Error {
	t, err := e.newTool(d)
	if err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	e.mu.Lock()
	i := slices.IndexFunc(e.tools, func(o *Tool) bool { return o.def.Name == d.Name })
	if i >= 0 {
		e.tools[i] = t
	} else {
		e.tools = append(e.tools, t)
	}
	e.mu.Unlock()
	e.m.changed()
	return nil
}

func (e *extension) registerCommand(d CommandDef) *jsonrpc2.Error {
	if err := checkCommand(d); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	e.mu.Lock()
	i := slices.IndexFunc(e.commands, func(o CommandDef) bool { return o.Name == d.Name })
	if i >= 0 {
		e.commands[i] = d
	} else {
		e.commands = append(e.commands, d)
	}
	e.mu.Unlock()
	e.m.changed()
	return nil
}

// ui does a UI call: a dialog becomes a question to whoever is in front
// of the session, the rest a session event; a method the front end does
// not render is refused at once with CodeNoUI.
func (e *extension) ui(p UIParams) (any, *jsonrpc2.Error) {
	if !slices.Contains(core.UIMethods, p.Method) && !slices.Contains(core.ChromeUIMethods, p.Method) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "no UI method is named %q", jsonrpc2.Echo(string(p.Method)))
	}
	if !slices.Contains(e.m.ui(), p.Method) {
		return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: fmt.Sprintf("no UI in this mode: %s cannot %s", e.m.opts.Mode, p.Method),
			Data: map[string]string{"method": string(p.Method), "mode": e.m.opts.Mode}}
	}
	if slices.Contains(core.ChromeUIMethods, p.Method) {
		ev, err := e.chromeEvent(p)
		if err != nil {
			return nil, err
		}
		e.m.showInOrder(ev)
		return nil, nil
	}
	if !p.Method.Dialog() {
		ev, err := uiEvent(p)
		if err != nil {
			return nil, err
		}
		if !e.m.showInOrder(ev) {
			return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: "no UI: the session has ended"}
		}
		return nil, nil
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: "no UI: the session has ended"}
	}
	q, err := question(p, e.m.opts.DialogTimeout)
	if err != nil {
		return nil, err
	}
	// The name it was configured under, not the one it gave itself: an
	// extension cannot call itself "cairn".
	q.Extension = e.cfg.Name
	ctx, cancel := e.dialogContext()
	defer cancel()
	ans, out := h.Ask(ctx, q)
	switch out {
	case core.Answered:
	case core.NoOneToAsk:
		return nil, &jsonrpc2.Error{Code: CodeNoUI, Message: fmt.Sprintf("no UI in this mode: %s cannot %s", e.m.opts.Mode, p.Method)}
	default:
		return UIResult{Cancelled: true}, nil
	}
	if q.Kind == core.QuestionConfirm {
		return UIResult{Confirmed: &ans.Yes}, nil
	}
	return UIResult{Value: &ans.Value}, nil
}

// lifeContext ends when the extension stops, or when its cancel is called.
func (e *extension) lifeContext() (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	e.mu.Lock()
	exited := e.exited
	e.mu.Unlock()
	go func() {
		select {
		case <-exited:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// dialogContext is the life of a dialog: it ends when the extension
// stops or any operation in flight when it opened is aborted. While it is
// open, event handlers' time limits wait.
func (e *extension) dialogContext() (context.Context, func()) {
	ctx, cancel := e.lifeContext()
	e.mu.Lock()
	e.dialogs++
	var stops []func() bool
	for op := range e.ops {
		stops = append(stops, context.AfterFunc(op.ctx, cancel))
	}
	e.mu.Unlock()
	return ctx, func() {
		for _, s := range stops {
			s()
		}
		cancel()
		e.mu.Lock()
		e.dialogs--
		e.mu.Unlock()
	}
}

// question is the core.Question a dialog asks.
func question(p UIParams, defaultTimeout time.Duration) (core.Question, *jsonrpc2.Error) {
	q := core.Question{Title: p.Title, Message: p.Message, Timeout: time.Duration(p.Timeout) * time.Millisecond}
	if p.Timeout < 0 {
		return q, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "timeout must not be negative")
	}
	if q.Timeout == 0 {
		q.Timeout = defaultTimeout
	}
	switch p.Method {
	case core.UISelect:
		if len(p.Options) == 0 {
			return q, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "a select needs options")
		}
		q.Kind = core.QuestionSelect
		for _, o := range p.Options {
			q.Options = append(q.Options, core.Option{Value: o, Label: o})
		}
	case core.UIConfirm:
		q.Kind = core.QuestionConfirm
	case core.UIInput:
		q.Kind, q.Hint = core.QuestionInput, p.Placeholder
	case core.UIEditor:
		q.Kind, q.Prefill = core.QuestionEditor, p.Prefill
	}
	return q, nil
}

// uiEvent is the session event a fire-and-forget call shows.
func uiEvent(p UIParams) (core.Event, *jsonrpc2.Error) {
	switch p.Method {
	case core.UINotify:
		level := p.NotifyType
		switch level {
		case "":
			level = core.NotifyInfo
		case core.NotifyInfo, core.NotifyWarning, core.NotifyError:
		default:
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `notifyType must be "info", "warning" or "error"`)
		}
		return core.Notice{Level: level, Message: p.Message}, nil
	case core.UISetStatus:
		if p.StatusKey == "" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "setStatus needs a statusKey")
		}
		text := ""
		if p.StatusText != nil {
			text = *p.StatusText
		}
		return core.StatusChanged{Key: p.StatusKey, Text: text}, nil
	case core.UISetWidget:
		if p.WidgetKey == "" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "setWidget needs a widgetKey")
		}
		// An absent placement stays absent (pi's rpc leaves it out); front
		// ends put such a widget above the editor.
		place := p.WidgetPlacement
		switch place {
		case "", core.WidgetAboveEditor, core.WidgetBelowEditor:
		default:
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, `widgetPlacement must be "aboveEditor" or "belowEditor"`)
		}
		return core.WidgetChanged{Key: p.WidgetKey, Lines: p.WidgetLines, Placement: place}, nil
	case core.UISetTitle:
		return core.TitleChanged{Title: p.Title}, nil
	}
	if p.Text == nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "set_editor_text needs text")
	}
	return core.EditorTextSet{Text: *p.Text}, nil
}
