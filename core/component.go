package core

// UICustom is pi's ctx.ui.custom: an extension's interactive component,
// drawn by the extension as lines and given the keyboard while it is
// shown. It is not in UIMethods: only a front end that can give a
// component the keyboard (cairn's TUI) lists it.
const UICustom UIMethod = "custom"

// Component is an extension's interactive component as a front end
// drives it: the component stays in the extension, which draws it; the
// front end shows its lines and sends it keys and the size it has.
// Its methods never block and are safe for concurrent use.
type Component interface {
	// Input sends one key or paste as the raw bytes a terminal writes
	// for it (pi-tui's matchesKey reads them): "\r", "\x1b[A", "q".
	Input(data string)
	// Resize tells the component the terminal's size in cells; it
	// answers with its lines drawn at that width.
	Resize(width, height int)
	// Dismiss closes the component without its answer, as a person who
	// gives up on an extension that no longer answers.
	Dismiss()
}

// ComponentShown opens a component: inline in place of the editor, or
// as an overlay over the screen. Lines follow in ComponentRendered once
// the front end has told it its size. An Editor component (pi's
// ctx.ui.setEditorComponent) replaces the editor until it is closed:
// the front end's own keys and prompts keep theirs, the rest go to it,
// and it answers with ComponentAction.
type ComponentShown struct {
	ID        string
	Extension string
	Overlay   bool
	Editor    bool
	Handle    Component
}

// What an editor component asks of the front end (ComponentAction).
const (
	// EditorSubmit sends Text as the front end's editor would.
	EditorSubmit = "submit"
	// EditorInterrupt is the editor's Escape: stop the run.
	EditorInterrupt = "interrupt"
	// EditorExit is ctrl+d in an empty editor: quit.
	EditorExit = "exit"
)

// ComponentAction is an editor component's request: EditorSubmit,
// EditorInterrupt or EditorExit.
type ComponentAction struct {
	ID     string
	Action string
	Text   string
}

// ComponentRendered is a component's lines, drawn anew. For an overlay,
// Row and Col place its top left cell on the screen (0-based).
type ComponentRendered struct {
	ID       string
	Lines    []string
	Row, Col int
}

// ComponentClosed ends a component: its extension is done with it, the
// person dismissed it, or its extension stopped.
type ComponentClosed struct{ ID string }

// EventType implementations.
func (ComponentShown) EventType() string    { return "component_shown" }
func (ComponentRendered) EventType() string { return "component_rendered" }
func (ComponentClosed) EventType() string   { return "component_closed" }
func (ComponentAction) EventType() string   { return "component_action" }
