package extension

import (
	"context"
	"slices"
	"testing"
	"time"

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
	select {
	case err := <-done:
		t.Fatalf("the editor ended with the call it was set in: %v", err)
	case <-time.After(100 * time.Millisecond):
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
