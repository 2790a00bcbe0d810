package core

// UIMethod names one thing an extension may ask of the person in front of
// a session, with pi's names: the dialogs (select, confirm, input, editor)
// and the fire-and-forget calls (notify, setStatus, setWidget, setTitle,
// set_editor_text). A front end says which it renders; the others are
// refused at once.
type UIMethod string

// The UI methods, as pi's extension_ui_request names them.
const (
	UISelect        UIMethod = "select"
	UIConfirm       UIMethod = "confirm"
	UIInput         UIMethod = "input"
	UIEditor        UIMethod = "editor"
	UINotify        UIMethod = "notify"
	UISetStatus     UIMethod = "setStatus"
	UISetWidget     UIMethod = "setWidget"
	UISetTitle      UIMethod = "setTitle"
	UISetEditorText UIMethod = "set_editor_text"
)

// UIMethods lists every UI method, dialogs first.
var UIMethods = []UIMethod{UISelect, UIConfirm, UIInput, UIEditor, UINotify, UISetStatus, UISetWidget, UISetTitle, UISetEditorText}

// Dialog reports whether m waits for an answer.
func (m UIMethod) Dialog() bool {
	switch m {
	case UISelect, UIConfirm, UIInput, UIEditor:
		return true
	}
	return false
}

// WidgetPlacement says where a widget goes: above the editor (the
// default) or below it.
type WidgetPlacement string

// The widget placements, as pi names them.
const (
	WidgetAboveEditor WidgetPlacement = "aboveEditor"
	WidgetBelowEditor WidgetPlacement = "belowEditor"
)

// StatusChanged sets (Text not empty) or clears the status entry Key, a
// short line a front end shows in its footer.
type StatusChanged struct {
	Key  string
	Text string
}

// WidgetChanged sets (Lines not nil) or clears the widget Key: lines of
// text shown above or below the editor (above when Placement is empty).
type WidgetChanged struct {
	Key       string
	Lines     []string
	Placement WidgetPlacement
}

// TitleChanged asks a front end to set its window's title.
type TitleChanged struct{ Title string }

// EditorTextSet asks a front end to put Text in its input editor.
type EditorTextSet struct{ Text string }

// EventType implementations.
func (StatusChanged) EventType() string { return "status_changed" }
func (WidgetChanged) EventType() string { return "widget_changed" }
func (TitleChanged) EventType() string  { return "title_changed" }
func (EditorTextSet) EventType() string { return "editor_text_set" }
