package tui

import (
	"context"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
)

// UI is the TUI's side of core.UI: the session's questions (tool approvals
// among them) become inline prompts, its notices the status line. Create it
// before the session (the approval gate needs it) and hand it to Run, which
// attaches it to the program. Until then, and after the program ends,
// questions wait or are dismissed: nothing is ever answered on the person's
// behalf.
type UI struct {
	mu     sync.Mutex
	send   func(tea.Msg)
	ready  chan struct{}
	closed bool
}

// NewUI returns a UI not yet attached to a program.
func NewUI() *UI { return &UI{ready: make(chan struct{})} }

// attach starts delivering to send.
func (u *UI) attach(send func(tea.Msg)) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.send = send
	if !u.closed {
		close(u.ready)
		u.closed = true
	}
}

// detach stops delivering: later questions are dismissed at once.
func (u *UI) detach() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.send = nil
	if !u.closed {
		close(u.ready)
		u.closed = true
	}
}

// post delivers msg if a program is attached.
func (u *UI) post(msg tea.Msg) bool {
	u.mu.Lock()
	send := u.send
	u.mu.Unlock()
	if send == nil {
		return false
	}
	send(msg)
	return true
}

// dialogKind is the kind of a question.
type dialogKind int

const (
	dialogSelect dialogKind = iota
	dialogConfirm
	dialogInput
	dialogEditor
)

// dialogMsg brings a question to the model. The model answers on reply
// (buffered), exactly once, or not at all if cancelled first.
type dialogMsg struct {
	id          uint64
	kind        dialogKind
	title       string
	message     string
	options     []string
	placeholder string
	prefill     string
	toolCallID  string
	reply       chan dialogAnswer
}

// dialogAnswer is the person's answer; ok is false when dismissed.
type dialogAnswer struct {
	value string
	ok    bool
}

// dialogGoneMsg withdraws a question whose asker stopped waiting.
type dialogGoneMsg struct{ id uint64 }

var dialogIDs struct {
	sync.Mutex
	n uint64
}

func nextDialogID() uint64 {
	dialogIDs.Lock()
	defer dialogIDs.Unlock()
	dialogIDs.n++
	return dialogIDs.n
}

// ask posts d and waits for its answer, the timeout or ctx.
func (u *UI) ask(ctx context.Context, d dialogMsg, timeout time.Duration) dialogAnswer {
	select {
	case <-u.ready:
	case <-ctx.Done():
		return dialogAnswer{}
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	d.id = nextDialogID()
	d.reply = make(chan dialogAnswer, 1)
	if !u.post(d) {
		return dialogAnswer{}
	}
	select {
	case a := <-d.reply:
		return a
	case <-ctx.Done():
		u.post(dialogGoneMsg{id: d.id})
		return dialogAnswer{}
	}
}

// Select implements core.UI.
func (u *UI) Select(ctx context.Context, req core.SelectRequest) (string, bool) {
	a := u.ask(ctx, dialogMsg{kind: dialogSelect, title: req.Title, options: req.Options, toolCallID: req.ToolCallID}, req.Timeout)
	return a.value, a.ok
}

// Confirm implements core.UI.
func (u *UI) Confirm(ctx context.Context, req core.ConfirmRequest) (bool, bool) {
	a := u.ask(ctx, dialogMsg{kind: dialogConfirm, title: req.Title, message: req.Message}, req.Timeout)
	return a.value == "yes", a.ok
}

// Input implements core.UI.
func (u *UI) Input(ctx context.Context, req core.InputRequest) (string, bool) {
	a := u.ask(ctx, dialogMsg{kind: dialogInput, title: req.Title, placeholder: req.Placeholder}, req.Timeout)
	return a.value, a.ok
}

// Editor implements core.UI.
func (u *UI) Editor(ctx context.Context, req core.EditorRequest) (string, bool) {
	a := u.ask(ctx, dialogMsg{kind: dialogEditor, title: req.Title, prefill: req.Prefill}, 0)
	return a.value, a.ok
}

// notifyMsg shows a notice.
type notifyMsg struct {
	text  string
	level core.NotifyLevel
}

// statusMsg sets or clears a keyed status text.
type statusMsg struct{ key, text string }

// widgetMsg sets or clears a keyed widget near the editor.
type widgetMsg struct {
	key       string
	lines     []string
	placement core.WidgetPlacement
}

// titleMsg sets the window title.
type titleMsg struct{ title string }

// editorTextMsg replaces the editor's text.
type editorTextMsg struct{ text string }

// Notify implements core.UI.
func (u *UI) Notify(message string, level core.NotifyLevel) {
	u.post(notifyMsg{text: message, level: level})
}

// SetStatus implements core.UI.
func (u *UI) SetStatus(key, text string) { u.post(statusMsg{key: key, text: text}) }

// SetWidget implements core.UI.
func (u *UI) SetWidget(key string, lines []string, placement core.WidgetPlacement) {
	u.post(widgetMsg{key: key, lines: lines, placement: placement})
}

// SetTitle implements core.UI.
func (u *UI) SetTitle(title string) { u.post(titleMsg{title: title}) }

// SetEditorText implements core.UI.
func (u *UI) SetEditorText(text string) { u.post(editorTextMsg{text: text}) }
