package tui

import (
	"context"
	"io"
	"os"
	"time"

	"github.com/charmbracelet/colorprofile"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/mcp"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// Options is everything the TUI works with. Session is required; the rest
// may be left empty, which turns the matching features off.
type Options struct {
	// Session is the conversation the TUI shows and drives.
	Session *agent.Session
	// Shutdown, when closed, quits the interface as /quit does (an
	// extension's ctx.shutdown); nil never does.
	Shutdown <-chan struct{}
	// Approvals switches the approval mode (/mode, the footer shows it).
	Approvals *approval.Gate
	// Models lists the models /model offers.
	Models func() []core.Model
	// Theme is the theme to start with; nil picks dark or light from the
	// terminal's background.
	Theme *themes.Theme
	// Themes are the custom themes /theme offers besides the built-ins.
	Themes map[string]*themes.Theme
	// SaveTheme, when set, records the person's /theme choice.
	SaveTheme func(name string) error
	// Keys are the keybindings; a zero value means the defaults.
	Keys keymap.Map
	// Cwd is the working directory shown in the footer and used by `!cmd`
	// and @ completion.
	Cwd string
	// ProjectTrusted says the person trusts the project in Cwd, or that it
	// has nothing to trust. Until then nothing of the project runs, git
	// included (its configuration can name programs git starts): @
	// completion walks the tree instead and the footer reads .git/HEAD as
	// a file.
	ProjectTrusted bool
	// Dir is cairn's own directory (~/.cairn): prompt history lives there.
	Dir string
	// Shell runs `!cmd` ("" picks bash).
	Shell string
	// Sandbox, when set, runs `!cmd` in the OS sandbox.
	Sandbox *sandbox.Policy
	// ShellEnv is the environment `!cmd` starts from (the
	// "shellEnvironment" setting applied); nil means shell.DefaultEnv.
	ShellEnv []string
	// Templates are the prompt templates offered as slash commands.
	Templates prompts.Templates
	// MCP reports the MCP servers for /mcp; nil means none are configured.
	MCP func() []mcp.Status
	// MCPServers offers the servers' prompts as /mcp__<server>__<prompt>
	// commands, attaches the resources a prompt names as @server:uri, and
	// restarts a server for /mcp reconnect; nil means no MCP.
	MCPServers *mcp.Manager
	// ExtensionCommands lists the extensions' `/` commands (completion,
	// /help); typing one sends it to the session, whose extension runs it.
	ExtensionCommands func() []extension.Command
	// RenderExtension asks an extension for the lines of what it draws
	// (extension.Manager.Render); ExtensionDraws says whether one draws a
	// message, entry or tool. nil: cairn draws everything itself.
	RenderExtension func(ctx context.Context, extension string, p extension.RenderParams) ([]string, error)
	ExtensionDraws  func(p extension.RenderParams) bool
	// ExtensionShortcuts lists the keys extensions registered, and
	// RunExtensionShortcut runs one's handler (pi's registerShortcut); a
	// key cairn's keymap uses is refused (see ExtensionShortcuts).
	ExtensionShortcuts   func() []extension.Shortcut
	RunExtensionShortcut func(ctx context.Context, key string) error
	// ExtensionsStarting reports whether extensions are still starting:
	// a /name no one knows yet goes to the session then, whose
	// extensions, once started, may run it.
	ExtensionsStarting func() bool
	// FirstRun, when set, is shown instead of the transcript until a model
	// is available: no credentials were found.
	FirstRun *FirstRun
	// Notices are shown at the top of the transcript (warnings from
	// loading settings, a resumed session's damaged lines).
	Notices []string
	// Version is cairn's version, shown in the header.
	Version string
	// Loaded, when set, lists what cairn loaded (context files, skills,
	// MCP servers, extensions, hooks, agents) for the welcome screen. It is
	// called once, off the UI loop, after the first frame.
	Loaded func() []LoadedGroup
	// OpenResume opens the session picker at start (--resume).
	OpenResume bool
	// Login runs a subscription login for /login (provider as pi names
	// it; device asks for a device code rather than the browser), showing
	// its notices through notify, and returns what to tell the person
	// once the tokens are kept. nil turns /login off.
	Login func(ctx context.Context, provider string, device bool, notify func(text string)) (string, error)
	// Scrollback receives the last exchange, drawn as on screen, after the
	// TUI leaves the alternate screen, so it stays in the terminal's
	// scrollback; nil prints nothing.
	Scrollback io.Writer
	// ScrollbackAll writes the whole conversation to Scrollback on quit,
	// not just the last exchange (the scrollbackOnQuit setting "all").
	ScrollbackAll bool
	// NoMouse leaves the mouse to the terminal: its own selection and
	// copying work without shift, and the wheel no longer scrolls the
	// transcript (pgup/pgdown still do).
	NoMouse bool
	// ColorProfile is how many colours the terminal shows (see
	// DetectColorProfile); the theme is drawn in its rendering for it.
	// Unknown (the zero value) draws the theme as it is and leaves
	// conversion to Bubble Tea.
	ColorProfile colorprofile.Profile
	// Terminal is the terminal the TUI runs on, when it is one: cairn
	// then draws its frames there itself, writing only the lines that
	// changed (see lineScreen), and Bubble Tea writes everything else
	// there. nil leaves the drawing to Bubble Tea and its output.
	Terminal *os.File
	// Preview, with Terminal, is the screen ShowPreview drew while the
	// session was read: Run draws its frames over it.
	Preview *Preview
	// Share starts the web page on the session (once) and returns its
	// address, the secret token in it; nil: /share is unavailable.
	Share func() (string, error)
	// Attached says this TUI is a second client of a session another
	// front end owns (`cairn attach`): quitting leaves the session and
	// its running turn alone, and no signal of the process is taken.
	Attached bool
	// Resize delivers the terminal's new sizes (columns, rows) where
	// Bubble Tea cannot watch the terminal itself (an attached one).
	Resize <-chan [2]int
	// Alert is how to tell the person that cairn needs them (a run ended,
	// a question waits) while their terminal is not focused; the zero
	// value sends nothing. See ChooseAlert.
	Alert Alert
	// ApprovalGuard is how long after an approval prompt takes the
	// keyboard keys are ignored, so a key typed for something else cannot
	// answer it; zero means 300 ms. (A prompt that appears while the
	// person types does not take the keyboard at all until they press
	// tab.)
	ApprovalGuard time.Duration
	// Now is the clock (tests); nil means time.Now.
	Now func() time.Time
}

// FirstRun explains what cairn needs before it can talk to a model.
type FirstRun struct {
	// Lines say where cairn looked for credentials and how to point it at
	// a local server.
	Lines []string
}
