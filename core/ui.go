package core

import (
	"context"
	"time"
)

// UI is everything the core may ask of whoever is in front of it: a person
// in the TUI, or a host through `extension_ui_request` frames in rpc mode.
// Tool approvals arrive through Select. Dialogs return ok=false when the
// other side cancelled, the timeout passed, or ctx ended; implementations
// must honour all three.
type UI interface {
	// Select asks to pick one of options.
	Select(ctx context.Context, req SelectRequest) (choice string, ok bool)
	// Confirm asks a yes-or-no question.
	Confirm(ctx context.Context, req ConfirmRequest) (yes bool, ok bool)
	// Input asks for one line of text.
	Input(ctx context.Context, req InputRequest) (value string, ok bool)
	// Editor asks for multi-line text, starting from Prefill.
	Editor(ctx context.Context, req EditorRequest) (value string, ok bool)

	// Notify shows a message that needs no answer.
	Notify(message string, level NotifyLevel)
	// SetStatus shows text under key in a status area; empty text clears it.
	SetStatus(key, text string)
	// SetWidget shows lines under key near the editor; nil lines clear it.
	SetWidget(key string, lines []string, placement WidgetPlacement)
	// SetTitle sets the terminal or window title.
	SetTitle(title string)
	// SetEditorText replaces the text in the prompt editor.
	SetEditorText(text string)
}

// SelectRequest is a choice among options.
type SelectRequest struct {
	Title   string
	Options []string
	// Timeout, when positive, makes the dialog give up (ok=false) after it.
	Timeout time.Duration
	// ToolCallID names the tool call an approval question is about, so a
	// front end can show the question next to the call's preview; "" for
	// other questions.
	ToolCallID string
}

// ConfirmRequest is a yes-or-no question.
type ConfirmRequest struct {
	Title   string
	Message string
	Timeout time.Duration
}

// InputRequest asks for a line of text.
type InputRequest struct {
	Title       string
	Placeholder string
	Timeout     time.Duration
}

// EditorRequest asks for multi-line text.
type EditorRequest struct {
	Title   string
	Prefill string
}

// NotifyLevel is how loud a notification is.
type NotifyLevel string

// The notification levels, as pi names them.
const (
	NotifyInfo    NotifyLevel = "info"
	NotifyWarning NotifyLevel = "warning"
	NotifyError   NotifyLevel = "error"
)

// WidgetPlacement says where a widget goes relative to the editor.
type WidgetPlacement string

// The widget placements.
const (
	WidgetAboveEditor WidgetPlacement = "aboveEditor"
	WidgetBelowEditor WidgetPlacement = "belowEditor"
)
