package pi

import "github.com/cairn-dev/cairn/core"

// extensionUIFrame is the fire-and-forget extension_ui_request pi 0.87
// writes for an extension's setStatus, setWidget, setTitle or
// set_editor_text, member for member (absent values left out, as
// pi's JSON.stringify leaves out undefined); nil for other events.
func extensionUIFrame(e core.Event) any {
	switch e := e.(type) {
	case core.StatusChanged:
		var text *string
		if e.Text != "" {
			text = &e.Text
		}
		return struct {
			uiRequest
			StatusKey  string  `json:"statusKey"`
			StatusText *string `json:"statusText,omitempty"`
		}{newRequest(core.NewUUID(), string(core.UISetStatus)), e.Key, text}
	case core.WidgetChanged:
		return struct {
			uiRequest
			WidgetKey       string               `json:"widgetKey"`
			WidgetLines     []string             `json:"widgetLines,omitempty"`
			WidgetPlacement core.WidgetPlacement `json:"widgetPlacement,omitempty"`
		}{newRequest(core.NewUUID(), string(core.UISetWidget)), e.Key, e.Lines, e.Placement}
	case core.TitleChanged:
		return struct {
			uiRequest
			Title string `json:"title"`
		}{newRequest(core.NewUUID(), string(core.UISetTitle)), e.Title}
	case core.EditorTextSet:
		return struct {
			uiRequest
			Text string `json:"text"`
		}{newRequest(core.NewUUID(), string(core.UISetEditorText)), e.Text}
	}
	return nil
}
