package core

import "encoding/json"

// The UI methods of an extension's chrome (protocol version 2): what it
// draws in a full-screen front end's own places, which only cairn's TUI
// renders. pi's rpc mode ignores them all, so headless front ends do not
// offer them and an extension never sends them there.
const (
	// UISetFooter and UISetHeader put the extension's component in place
	// of the footer or the header (Component true), or give the place
	// back to the front end.
	UISetFooter UIMethod = "setFooter"
	UISetHeader UIMethod = "setHeader"
	// UISetWorkingMessage, UISetWorkingIndicator and UISetWorkingVisible
	// change the line shown while the agent works.
	UISetWorkingMessage   UIMethod = "setWorkingMessage"
	UISetWorkingIndicator UIMethod = "setWorkingIndicator"
	UISetWorkingVisible   UIMethod = "setWorkingVisible"
	// UISetHiddenThinkingLabel names the thinking a front end folds away.
	UISetHiddenThinkingLabel UIMethod = "setHiddenThinkingLabel"
	// UIRequestRender says what the extension draws has changed: the
	// front end asks for its lines again.
	UIRequestRender UIMethod = "requestRender"
)

// ChromeUIMethods lists the chrome's UI methods, offered by the TUI only.
var ChromeUIMethods = []UIMethod{UISetFooter, UISetHeader, UISetWorkingMessage, UISetWorkingIndicator,
	UISetWorkingVisible, UISetHiddenThinkingLabel, UIRequestRender}

// ChromePlace is a place of a front end's chrome an extension may draw.
type ChromePlace string

// The places an extension's component may take.
const (
	ChromeFooter ChromePlace = "footer"
	ChromeHeader ChromePlace = "header"
)

// ChromeSet gives Place to the component of Extension (Set true), or
// back to the front end (Set false). The front end asks the extension
// for the component's lines at its width.
type ChromeSet struct {
	Extension string
	Place     ChromePlace
	Set       bool
}

// WorkingChanged changes what a front end shows while the agent works.
// Each field left nil keeps what was set before.
type WorkingChanged struct {
	// Message replaces the working message; "" restores the front end's.
	Message *string
	// Frames, when Indicator is set, are the indicator's frames shown in
	// turn every Interval; none hides it. Indicator false restores the
	// front end's own.
	Indicator *bool
	Frames    []string
	Interval  int
	// Visible shows or hides the working line.
	Visible *bool
	// ThinkingLabel names folded thinking; "" restores the front end's.
	ThinkingLabel *string
}

// CustomEntryAdded says an extension kept a custom entry in the session
// (pi's appendEntry): a front end shows it where an extension draws its
// type (pi's registerEntryRenderer), and nothing otherwise.
type CustomEntryAdded struct {
	ID         string
	CustomType string
	Data       json.RawMessage
}

// RenderRequested says Extension's drawings changed: a front end drops
// the lines it keeps of them and asks again.
type RenderRequested struct{ Extension string }

// EventType implementations.
func (ChromeSet) EventType() string        { return "chrome_set" }
func (WorkingChanged) EventType() string   { return "working_changed" }
func (RenderRequested) EventType() string  { return "render_requested" }
func (CustomEntryAdded) EventType() string { return "custom_entry_added" }
