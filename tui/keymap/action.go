package keymap

// Action names something the user can bind a key to. The names are pi's, so
// a pi keybindings.json works unchanged (see Load for pi actions cairn does
// not have).
type Action string

// Editor actions.
const (
	CursorUp           Action = "cursorUp"
	CursorDown         Action = "cursorDown"
	CursorLeft         Action = "cursorLeft"
	CursorRight        Action = "cursorRight"
	CursorWordLeft     Action = "cursorWordLeft"
	CursorWordRight    Action = "cursorWordRight"
	CursorLineStart    Action = "cursorLineStart"
	CursorLineEnd      Action = "cursorLineEnd"
	PageUp             Action = "pageUp"
	PageDown           Action = "pageDown"
	DeleteCharBackward Action = "deleteCharBackward"
	DeleteCharForward  Action = "deleteCharForward"
	DeleteWordBackward Action = "deleteWordBackward"
	DeleteWordForward  Action = "deleteWordForward"
	DeleteToLineStart  Action = "deleteToLineStart"
	DeleteToLineEnd    Action = "deleteToLineEnd"
	NewLine            Action = "newLine"
	Submit             Action = "submit"
	Tab                Action = "tab"
	PasteImage         Action = "pasteImage"
)

// Application actions.
const (
	Interrupt          Action = "interrupt"
	Clear              Action = "clear"
	Exit               Action = "exit"
	Suspend            Action = "suspend"
	ExternalEditor     Action = "externalEditor"
	SelectModel        Action = "selectModel"
	CycleModelForward  Action = "cycleModelForward"
	CycleModelBackward Action = "cycleModelBackward"
	CycleThinkingLevel Action = "cycleThinkingLevel"
	CycleApprovalMode  Action = "cycleApprovalMode"
	ExpandTools        Action = "expandTools"
	ToggleThinking     Action = "toggleThinking"
	FollowUp           Action = "followUp"
	Dequeue            Action = "dequeue"
)

// Transcript scrolling (cairn's own; pi has no full-screen transcript).
const (
	ScrollUp     Action = "scrollUp"
	ScrollDown   Action = "scrollDown"
	ScrollTop    Action = "scrollTop"
	ScrollBottom Action = "scrollBottom"
)

// List and picker actions.
const (
	SelectUp       Action = "selectUp"
	SelectDown     Action = "selectDown"
	SelectPageUp   Action = "selectPageUp"
	SelectPageDown Action = "selectPageDown"
	SelectConfirm  Action = "selectConfirm"
	SelectCancel   Action = "selectCancel"
)

// Group names the section of /hotkeys an action is listed under.
type Group string

// The groups, in the order Help lists them.
const (
	GroupApp        Group = "Application"
	GroupEditor     Group = "Editor"
	GroupTranscript Group = "Transcript"
	GroupLists      Group = "Lists"
)

// actionInfo is everything known about one action.
type actionInfo struct {
	action      Action
	group       Group
	keys        []string // canonical defaults
	description string
}

// actions lists every action in the order /hotkeys shows them.
var actions = []actionInfo{
	{Interrupt, GroupApp, []string{"esc"}, "Stop the running turn or command"},
	{Clear, GroupApp, []string{"ctrl+c"}, "Clear the editor; press twice to quit"},
	{Exit, GroupApp, []string{"ctrl+d"}, "Quit when the editor is empty"},
	{Suspend, GroupApp, []string{"ctrl+z"}, "Suspend cairn to the shell"},
	{ExternalEditor, GroupApp, []string{"ctrl+g"}, "Edit the message in $VISUAL or $EDITOR"},
	{SelectModel, GroupApp, []string{"ctrl+l"}, "Pick a model"},
	{CycleModelForward, GroupApp, []string{"ctrl+p"}, "Switch to the next model"},
	{CycleModelBackward, GroupApp, []string{"ctrl+shift+p"}, "Switch to the previous model"},
	{CycleApprovalMode, GroupApp, []string{"shift+tab"}, "Cycle the approval mode: default, auto_edit, plan"},
	{CycleThinkingLevel, GroupApp, []string{"alt+t"}, "Cycle the thinking level"},
	{ExpandTools, GroupApp, []string{"ctrl+o"}, "Expand or collapse all tool output"},
	{ToggleThinking, GroupApp, []string{"ctrl+t"}, "Show or hide thinking blocks"},
	{FollowUp, GroupApp, []string{"alt+enter"}, "Queue a follow-up for after the current run"},
	{Dequeue, GroupApp, []string{"alt+up"}, "Take queued messages back into the editor"},

	{Submit, GroupEditor, []string{"enter"}, "Send the message (steers while the agent works)"},
	{NewLine, GroupEditor, []string{"shift+enter", "ctrl+j"}, "Insert a new line"},
	{Tab, GroupEditor, []string{"tab"}, "Complete a path or command"},
	{PasteImage, GroupEditor, []string{"ctrl+v"}, "Attach the image on the clipboard"},
	{CursorUp, GroupEditor, []string{"up"}, "Move up, or to the previous history entry"},
	{CursorDown, GroupEditor, []string{"down"}, "Move down, or to the next history entry"},
	{CursorLeft, GroupEditor, []string{"left", "ctrl+b"}, "Move left"},
	{CursorRight, GroupEditor, []string{"right", "ctrl+f"}, "Move right"},
	{CursorWordLeft, GroupEditor, []string{"alt+left", "ctrl+left", "alt+b"}, "Move one word left"},
	{CursorWordRight, GroupEditor, []string{"alt+right", "ctrl+right", "alt+f"}, "Move one word right"},
	{CursorLineStart, GroupEditor, []string{"home", "ctrl+a"}, "Move to the start of the line"},
	{CursorLineEnd, GroupEditor, []string{"end", "ctrl+e"}, "Move to the end of the line"},
	{PageUp, GroupEditor, []string{"pgup"}, "Move up one page in a long message"},
	{PageDown, GroupEditor, []string{"pgdown"}, "Move down one page in a long message"},
	{DeleteCharBackward, GroupEditor, []string{"backspace"}, "Delete the character before the cursor"},
	{DeleteCharForward, GroupEditor, []string{"delete", "ctrl+d"}, "Delete the character under the cursor"},
	{DeleteWordBackward, GroupEditor, []string{"ctrl+w", "alt+backspace"}, "Delete the word before the cursor"},
	{DeleteWordForward, GroupEditor, []string{"alt+d", "alt+delete"}, "Delete the word after the cursor"},
	{DeleteToLineStart, GroupEditor, []string{"ctrl+u"}, "Delete to the start of the line"},
	{DeleteToLineEnd, GroupEditor, []string{"ctrl+k"}, "Delete to the end of the line"},

	{ScrollUp, GroupTranscript, []string{"pgup"}, "Scroll the transcript up one page"},
	{ScrollDown, GroupTranscript, []string{"pgdown"}, "Scroll the transcript down one page"},
	{ScrollTop, GroupTranscript, []string{"ctrl+home"}, "Jump to the start of the transcript"},
	{ScrollBottom, GroupTranscript, []string{"ctrl+end"}, "Jump to the end and follow the stream"},

	{SelectUp, GroupLists, []string{"up"}, "Move to the previous item"},
	{SelectDown, GroupLists, []string{"down"}, "Move to the next item"},
	{SelectPageUp, GroupLists, []string{"pgup"}, "Move up one page"},
	{SelectPageDown, GroupLists, []string{"pgdown"}, "Move down one page"},
	{SelectConfirm, GroupLists, []string{"enter"}, "Choose the selected item"},
	{SelectCancel, GroupLists, []string{"esc", "ctrl+c"}, "Close the list"},
}

// actionIndex maps an action to its position in actions.
var actionIndex = func() map[Action]int {
	m := make(map[Action]int, len(actions))
	for i, a := range actions {
		m[a.action] = i
	}
	return m
}()

// piOnly lists pi actions cairn does not have yet; binding one is reported
// with ErrUnsupported rather than as a typo.
var piOnly = map[string]bool{
	"jumpForward": true, "jumpBackward": true, "yank": true, "yankPop": true, "undo": true,
	"copy": true, "newSession": true, "tree": true, "fork": true, "resume": true,
	"treeFoldOrUp": true, "treeUnfoldOrDown": true, "toggleSessionPath": true, "toggleSessionSort": true,
	"toggleSessionNamedFilter": true, "renameSession": true, "deleteSession": true,
	"deleteSessionNoninvasive": true,
}

// Actions returns every action in the order Help lists them.
func Actions() []Action {
	out := make([]Action, len(actions))
	for i, a := range actions {
		out[i] = a.action
	}
	return out
}

// Known reports whether a is one of cairn's actions.
func (a Action) Known() bool {
	_, ok := actionIndex[a]
	return ok
}

// Description returns the one-line description /hotkeys shows, or "" for an
// unknown action.
func (a Action) Description() string {
	if i, ok := actionIndex[a]; ok {
		return actions[i].description
	}
	return ""
}

// Group returns the /hotkeys section of the action, or "" for an unknown one.
func (a Action) Group() Group {
	if i, ok := actionIndex[a]; ok {
		return actions[i].group
	}
	return ""
}
