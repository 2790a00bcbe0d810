package sdk

import (
	"context"
	"encoding/json"
	"time"
)

// UI is pi's ctx.ui: dialogs wait for the person (or their timeout, or
// the abort of the work that opened them); the other calls return at once.
// In a mode with no UI each call fails at once with an error IsNoUI
// reports.
type UI struct{ x *Extension }

// DialogOptions are a dialog's optional fields.
type DialogOptions struct {
	// Timeout ends the dialog unanswered.
	Timeout time.Duration
}

type uiResult struct {
	Value     *string `json:"value"`
	Confirmed *bool   `json:"confirmed"`
	Cancelled bool    `json:"cancelled"`
}

func (u *UI) dialog(ctx context.Context, p map[string]any, o DialogOptions) (uiResult, error) {
	if o.Timeout > 0 {
		p["timeout"] = o.Timeout.Milliseconds()
	}
	raw, err := u.x.call(ctx, "ui", p)
	if err != nil {
		return uiResult{}, err
	}
	var r uiResult
	err = json.Unmarshal(raw, &r)
	return r, err
}

// Select asks the person to pick one of options; ok is false when the
// dialog was cancelled (dismissed, timed out, aborted).
func (u *UI) Select(ctx context.Context, title string, options []string, o DialogOptions) (choice string, ok bool, err error) {
	r, err := u.dialog(ctx, map[string]any{"method": "select", "title": title, "options": options}, o)
	if err != nil || r.Cancelled || r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, nil
}

// Confirm asks yes or no; a cancelled dialog is no.
func (u *UI) Confirm(ctx context.Context, title, message string, o DialogOptions) (bool, error) {
	r, err := u.dialog(ctx, map[string]any{"method": "confirm", "title": title, "message": message}, o)
	if err != nil || r.Confirmed == nil {
		return false, err
	}
	return *r.Confirmed, nil
}

// Input asks for a line of text.
func (u *UI) Input(ctx context.Context, title, placeholder string, o DialogOptions) (string, bool, error) {
	r, err := u.dialog(ctx, map[string]any{"method": "input", "title": title, "placeholder": placeholder}, o)
	if err != nil || r.Cancelled || r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, nil
}

// Editor asks for text in an editor, starting from prefill.
func (u *UI) Editor(ctx context.Context, title, prefill string, o DialogOptions) (string, bool, error) {
	r, err := u.dialog(ctx, map[string]any{"method": "editor", "title": title, "prefill": prefill}, o)
	if err != nil || r.Cancelled || r.Value == nil {
		return "", false, err
	}
	return *r.Value, true, nil
}

func (u *UI) show(ctx context.Context, p map[string]any) error {
	_, err := u.x.call(ctx, "ui", p)
	return err
}

// Notify shows a notice; level is "info", "warning" or "error".
func (u *UI) Notify(ctx context.Context, message, level string) error {
	return u.show(ctx, map[string]any{"method": "notify", "message": message, "notifyType": level})
}

// SetStatus sets the footer status of key; empty text clears it.
func (u *UI) SetStatus(ctx context.Context, key, text string) error {
	p := map[string]any{"method": "setStatus", "statusKey": key}
	if text != "" {
		p["statusText"] = text
	}
	return u.show(ctx, p)
}

// SetWidget sets lines shown above the editor under key; nil clears it.
func (u *UI) SetWidget(ctx context.Context, key string, lines []string) error {
	p := map[string]any{"method": "setWidget", "widgetKey": key}
	if lines != nil {
		p["widgetLines"] = lines
	}
	return u.show(ctx, p)
}

// SetTitle sets the window title.
func (u *UI) SetTitle(ctx context.Context, title string) error {
	return u.show(ctx, map[string]any{"method": "setTitle", "title": title})
}

// SetEditorText puts text in the input editor.
func (u *UI) SetEditorText(ctx context.Context, text string) error {
	return u.show(ctx, map[string]any{"method": "set_editor_text", "text": text})
}
