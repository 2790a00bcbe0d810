package extension

import (
	"context"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// TestCustomEditor: an editor component (pi's setEditorComponent) lives
// past the call it was set in and holds no handler's time limit; its
// actions reach the front end, an unknown action or one for a component
// that is no editor is refused; the extension's close ends it.
func TestCustomEditor(t *testing.T) {
	e, h := customExtension(t, append(slices.Clone(core.UIMethods), core.UICustom))
	// The session_start call it is set in has ended.
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	e.ops[&opCtx{ended}] = struct{}{}

	done := make(chan *jsonrpc2.Error, 1)
	go func() {
		_, err := customCall(e, MethodCustomShow, `{"id":"ed","editor":true}`)
		done <- err
	}()
	shown, ok := nextShown(t, h).(core.ComponentShown)
	if !ok || !shown.Editor || shown.Overlay || shown.ID != "pi/ed" {
		t.Fatalf("shown %#v", shown)
	}
	e.mu.Lock()
	dialogs := e.dialogs
	e.mu.Unlock()
	if dialogs != 0 {
		t.Errorf("an editor counts as %d dialogs, holding handlers' time limits", dialogs)
	}

	if _, err := customCall(e, MethodCustomAction, `{"id":"ed","action":"submit","text":"hi"}`); err != nil {
		t.Fatal(err)
	}
	if ev := nextShown(t, h); ev != (core.ComponentAction{ID: "pi/ed", Action: core.EditorSubmit, Text: "hi"}) {
		t.Errorf("action shown as %#v", ev)
	}
	// The action was taken, so the editor was still shown: its custom_show
	// must still be waiting, not ended with the call it was set in.
	select {
	case err := <-done:
		t.Fatalf("the editor ended with the call it was set in: %v", err)
	default:
	}
	if _, err := customCall(e, MethodCustomAction, `{"id":"ed","action":"delete-all"}`); err == nil || err.Code != jsonrpc2.InvalidParams {
		t.Errorf("an unknown action: %v", err)
	}
	if _, err := customCall(e, MethodCustomAction, `{"id":"other","action":"exit"}`); err == nil || err.Code != CodeRefused {
		t.Errorf("an action of no editor: %v", err)
	}

	if _, err := customCall(e, MethodCustomClose, `{"id":"ed"}`); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Errorf("closed: %v", err)
	}
	if ev := nextShown(t, h); ev != (core.ComponentClosed{ID: "pi/ed"}) {
		t.Errorf("then %#v", ev)
	}
}

// FuzzCustomAction: any params of custom_action are refused or shown as
// one of the three actions of an editor shown, never anything else.
func FuzzCustomAction(f *testing.F) {
	for _, s := range []string{`{"id":"ed","action":"submit","text":"hi"}`, `{"id":"ed","action":"exit"}`, `{"id":"x","action":"interrupt"}`,
		`{"id":"ed","action":"Submit"}`, `{"id":"ed"}`, `[]`, `{"id":"ed","action":"submit","extra":1}`, `{"id":"ed","action":"submit","text":"\u0000\u001b["}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, params string) {
		e, h := customExtension(t, append(slices.Clone(core.UIMethods), core.UICustom))
		c, _ := e.customs.get(e, "ed")
		c.editor.Store(true)
		_, err := customCall(e, MethodCustomAction, params)
		select {
		case ev := <-h.showCh:
			a, ok := ev.(core.ComponentAction)
			if err != nil || !ok || a.ID != "pi/ed" || (a.Action != core.EditorSubmit && a.Action != core.EditorInterrupt && a.Action != core.EditorExit) {
				t.Errorf("%s: shown %#v (err %v)", params, ev, err)
			}
		default:
			if err == nil {
				t.Errorf("%s: accepted but nothing shown", params)
			}
		}
	})
}
