package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/export"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/skills"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// command is a slash command.
type command struct {
	name, args, desc string
	run              func(m *Model, args string) tea.Cmd
}

// commands are the built-in slash commands, in the order /help lists
// them. It is filled in init: the commands refer to the list themselves.
var commands []command

func init() { commands = builtinCommands() }

func builtinCommands() []command {
	return []command{
		{"model", "[search]", "pick the model", (*Model).cmdModel},
		{"thinking", "[level]", "set the thinking level", (*Model).cmdThinking},
		{"mode", "[default|auto_edit|yolo]", "set the approval mode", (*Model).cmdMode},
		{"compact", "[instructions]", "summarise the conversation to free context", (*Model).cmdCompact},
		{"new", "", "start a new session", (*Model).cmdNew},
		{"resume", "", "continue an earlier session", (*Model).cmdResume},
		{"tree", "", "go to an earlier point of this session and branch from it", (*Model).cmdTree},
		{"rewind", "", "put the files and/or the conversation back as they were before a prompt (esc esc)", (*Model).cmdRewind},
		{"fork", "", "start a new session from an earlier message", (*Model).cmdFork},
		{"name", "<name>", "name this session", (*Model).cmdName},
		{"export", "[file]", "write the session as an HTML file", (*Model).cmdExport},
		{"login", "[provider] [--device]", "log in to Claude, ChatGPT or Copilot", (*Model).cmdLogin},
		{"share", "", "serve a web page on this session, to follow and approve from a browser", (*Model).cmdShare},
		{"copy", "", "copy the last answer to the clipboard", (*Model).cmdCopy},
		{"theme", "[name]", "pick the colour theme", (*Model).cmdTheme},
		{"mcp", "[reconnect <server>]", "show the MCP servers, their tools and prompts", (*Model).cmdMCP},
		{"ps", "[kill <id>]", "list the background commands and kill one", (*Model).cmdPs},
		{"hotkeys", "", "list the keyboard shortcuts", (*Model).cmdHotkeys},
		{"todos", "", "show the model's latest task list", (*Model).cmdTodos},
		{"help", "", "list the commands", (*Model).cmdHelp},
		{"quit", "", "leave cairn", (*Model).cmdQuit},
	}
}

// commandList is what the editor completes after `/`.
func (m *Model) commandList() []editor.Command {
	var out []editor.Command
	for _, c := range commands {
		out = append(out, editor.Command{Name: c.name, Description: c.desc})
	}
	for _, t := range m.opts.Templates {
		out = append(out, editor.Command{Name: t.Name, Description: t.Description})
	}
	out = append(out, m.mcpCommandList()...)
	return append(out, m.extensionCommandList()...)
}

// isCommand reports whether text names a command or a template; anything
// else starting with / is sent as a prompt (a path, say).
func (m *Model) isCommand(text string) bool {
	name, _, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	if strings.Contains(name, "/") {
		return false
	}
	return true
}

// commandDoneMsg reports a command that ran in the background.
type commandDoneMsg struct {
	text  string
	err   error
	after func(m *Model) tea.Cmd
}

func (m *Model) onCommandDone(msg commandDoneMsg) tea.Cmd {
	m.status.setKeyed("command", "")
	if msg.err != nil {
		m.say(core.NotifyError, msg.err.Error())
		return nil
	}
	if msg.text != "" {
		m.say(core.NotifyInfo, msg.text)
	}
	if msg.after != nil {
		return msg.after(m)
	}
	return nil
}

// runCommand runs a slash command or expands a prompt template.
func (m *Model) runCommand(text string) tea.Cmd {
	name, args, _ := strings.Cut(strings.TrimPrefix(text, "/"), " ")
	args = strings.TrimSpace(args)
	for _, c := range commands {
		if c.name == name || (name == "exit" && c.name == "quit") {
			m.tr.end()
			return c.run(m, args)
		}
	}
	if t, ok := m.opts.Templates.Find(name); ok {
		text, err := t.Apply(args)
		if err != nil {
			m.ed.SetValue("/" + name + " " + args)
			m.status.set(core.NotifyError, err.Error(), m.now())
			return nil
		}
		if !skills.IsCommand(t) {
			m.typed.remember(text, typedPrompt{kind: "template", name: name, args: args})
		}
		return m.onSubmit(editor.SubmitMsg{Text: text})
	}
	if m.opts.MCPServers != nil && strings.HasPrefix(name, "mcp__") {
		return m.runMCPPrompt(text)
	}
	if m.isExtensionCommand(name) {
		// The extension handles the command and no message reaches the
		// conversation: the transcript still shows what was typed.
		m.tr.add(&userItem{text: text})
		return m.sendPrompt(editor.SubmitMsg{Text: text}, nil)
	}
	if m.opts.ExtensionsStarting != nil && m.opts.ExtensionsStarting() {
		return m.sendPrompt(editor.SubmitMsg{Text: text}, nil)
	}
	m.ed.SetValue(text)
	m.status.set(core.NotifyError, fmt.Sprintf("Unknown command /%s. /help lists the commands.", name), m.now())
	return nil
}

func (m *Model) cmdHelp(string) tea.Cmd {
	var b strings.Builder
	b.WriteString(m.st.accent.Render("Commands") + "\n")
	// The first column is as wide as its longest entry, so a long usage
	// (/mode [default|auto_edit|yolo]) does not push its description out.
	width := 0
	for _, c := range commands {
		width = max(width, len("/"+strings.TrimSpace(c.name+" "+c.args)))
	}
	for _, t := range m.opts.Templates {
		width = max(width, len("/"+t.Name))
	}
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s %s\n", width, "/"+strings.TrimSpace(c.name+" "+c.args), m.st.muted.Render(c.desc))
	}
	for _, t := range m.opts.Templates {
		kind := " (template)"
		if skills.IsCommand(t) {
			kind = " (skill)"
		}
		fmt.Fprintf(&b, "  %-*s %s\n", width, "/"+t.Name, m.st.muted.Render(oneLine(t.Description, 100)+kind))
	}
	for _, c := range append(m.mcpCommandList(), m.extensionCommandList()...) {
		fmt.Fprintf(&b, "  %-*s %s\n", width, "/"+c.Name, m.st.muted.Render(c.Description))
	}
	b.WriteString("\n  " + m.st.muted.Render("!cmd runs a shell command (its output joins the conversation; !!cmd keeps it out). @ completes file names."))
	if m.opts.MCPServers != nil {
		b.WriteString("\n  " + m.st.muted.Render("@server:uri attaches a resource of an MCP server; /mcp reconnect <server> restarts one."))
	}
	m.tr.add(&textItem{text: strings.TrimRight(b.String(), "\n")})
	return nil
}

// hotkeysKeyWidth is the widest keys column /hotkeys aligns; longer keys
// take a line of their own above their description.
const hotkeysKeyWidth = 22

// cmdHotkeys lists the keys by group (application, editor, transcript,
// lists), keys and descriptions in two columns.
func (m *Model) cmdHotkeys(string) tea.Cmd {
	var b strings.Builder
	var group keymap.Group
	for _, e := range m.keys.Help() {
		if e.Group != group {
			if group != "" {
				b.WriteString("\n")
			}
			group = e.Group
			b.WriteString(m.st.accent.Render(string(group)) + "\n")
		}
		if ansi.StringWidth(e.Keys) > hotkeysKeyWidth {
			fmt.Fprintf(&b, "  %s\n  %-*s  %s\n", e.Keys, hotkeysKeyWidth, "", m.st.muted.Render(e.Description))
			continue
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", hotkeysKeyWidth, e.Keys, m.st.muted.Render(e.Description))
	}
	m.extShortcutHelp(&b)
	m.tr.add(&textItem{text: strings.TrimRight(b.String(), "\n")})
	return nil
}

// cmdMCP lists the MCP servers: state, where each is configured, its
// tools under the names the model calls them by, its prompts under their
// commands, and why a failed one failed (with the last lines of its stderr
// and its log file). `/mcp reconnect <server>` restarts a server.
func (m *Model) cmdMCP(args string) tea.Cmd {
	if rest, ok := strings.CutPrefix(args, "reconnect"); ok && (rest == "" || rest[0] == ' ') {
		return m.mcpReconnect(rest)
	}
	var servers []mcp.Status
	if m.opts.MCP != nil {
		servers = m.opts.MCP()
	}
	if len(servers) == 0 {
		m.tr.add(&textItem{text: "No MCP servers configured. Add them to ~/.cairn/mcp.json (or, in a trusted project, .mcp.json) as {\"mcpServers\": {\"name\": {\"command\": \"...\", \"args\": [...]}}}; cairn mcp list checks the files."})
		return nil
	}
	var b strings.Builder
	for i, st := range servers {
		if i > 0 {
			b.WriteString("\n")
		}
		state := st.State.String()
		if st.Server.Disabled {
			state = "disabled"
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", m.st.accent.Render(st.Server.Name), state, m.st.muted.Render(st.Server.CommandLine()+"  (from "+st.Server.Source+")"))
		for _, t := range st.Tools {
			hint := ""
			switch {
			case t.ReadOnly:
				hint = " (read-only)"
			case t.Destructive != nil && *t.Destructive:
				hint = " (destructive)"
			}
			fmt.Fprintf(&b, "  %s%s\n", mcp.ToolName(st.Server.Name, t.Name), m.st.muted.Render(hint))
		}
		if st.State != mcp.Ready && len(st.LastTools) > 0 {
			names := make([]string, len(st.LastTools))
			for i, t := range st.LastTools {
				names[i] = mcp.ToolName(st.Server.Name, t.Name)
			}
			fmt.Fprintf(&b, "  %s\n", m.st.muted.Render("its tools last time: "+strings.Join(names, ", ")))
		}
		m.mcpPromptLines(&b, st)
		if st.Err != nil {
			fmt.Fprintf(&b, "  error: %v\n", st.Err)
		}
		for _, l := range strings.Split(strings.TrimSpace(st.Stderr), "\n") {
			if l != "" {
				fmt.Fprintf(&b, "  %s\n", m.st.muted.Render(l))
			}
		}
		if st.Log != "" && (st.Err != nil || st.Stderr != "") {
			fmt.Fprintf(&b, "  %s\n", m.st.muted.Render("log: "+st.Log))
		}
	}
	m.tr.add(&textItem{text: strings.TrimRight(b.String(), "\n")})
	return nil
}

func (m *Model) cmdQuit(string) tea.Cmd { return m.quit() }

func (m *Model) cmdThinking(args string) tea.Cmd {
	if args == "" {
		m.openPicker(newPicker("Thinking level", optionItems(thinkingLevels()), pickThinking, nil).selectValue(string(m.sess.State().Thinking)))
		return nil
	}
	m.setThinking(core.ThinkingLevel(args))
	return nil
}

func thinkingLevels() []string {
	return []string{"off", "minimal", "low", "medium", "high", "xhigh"}
}

func (m *Model) setThinking(l core.ThinkingLevel) {
	if err := m.sess.SetThinkingLevel(l); err != nil {
		m.status.set(core.NotifyError, err.Error(), m.now())
		return
	}
	m.noteThinking()
	m.foot.refresh(m.sess)
	m.status.set(core.NotifyInfo, m.thinkingText(l), m.now())
}

// thinkingText says which level is in force, and why when it is not the
// one asked for (a model without xhigh thinks at high at most).
func (m *Model) thinkingText(asked core.ThinkingLevel) string {
	st := m.sess.State()
	got := st.Thinking
	if asked == core.ThinkingMax {
		asked = core.ThinkingXHigh
	}
	if asked == got || asked == "" {
		return "Thinking: " + string(got)
	}
	return fmt.Sprintf("Thinking: %s (%s has no %s; %s is its most)", got, st.Model.ID, asked, got)
}

// noteThinking remembers the current thinking level as the one used with
// the current model, when that model can think.
func (m *Model) noteThinking() {
	if st := m.sess.State(); st.Model.Reasoning {
		m.thinkingUsed[modelKey(st.Model)] = st.Thinking
	}
}

// modelKey names a model in thinkingUsed.
func modelKey(md core.Model) string { return md.Provider + "/" + md.ID }

// switchThinking gives a model the person switched to the thinking level
// last used with it in this session or, for one not used before, the
// level every session starts a thinking model at, as if cairn had started
// with it. It returns the note for the status line saying which, or "" for
// a model that cannot think.
func (m *Model) switchThinking() string {
	st := m.sess.State()
	if !st.Model.Reasoning {
		return ""
	}
	want, used := m.thinkingUsed[modelKey(st.Model)]
	if !used {
		want = core.DefaultThinking
	}
	if st.Thinking != want {
		if err := m.sess.SetThinkingLevel(want); err != nil {
			return ""
		}
	}
	m.noteThinking()
	m.foot.refresh(m.sess)
	why := "its default"
	if used {
		why = "last used with it"
	}
	return " · Thinking: " + string(m.sess.State().Thinking) + " (" + why + ")"
}

// modeItems are the approval modes with what each lets run unasked.
func modeItems() []pickItem {
	return []pickItem{
		{label: "default", value: "default", detail: "asks before every edit and command"},
		{label: "auto_edit", value: "auto_edit", detail: "edits files unasked; asks before commands"},
		{label: "plan", value: "plan", detail: "only reads; the model presents a plan for you to accept"},
		{label: "yolo", value: "yolo", detail: "runs everything unasked"},
	}
}

func (m *Model) cmdMode(args string) tea.Cmd {
	if m.opts.Approvals == nil {
		m.status.set(core.NotifyError, "Approval modes are not available here.", m.now())
		return nil
	}
	if args == "" {
		p := newPicker("Approval mode", modeItems(), pickMode, nil)
		m.openPicker(p.selectValue(string(m.opts.Approvals.Mode())))
		return nil
	}
	m.setMode(args)
	return nil
}

func (m *Model) setMode(s string) {
	mode, err := approval.ParseMode(s)
	if err != nil {
		m.status.set(core.NotifyError, err.Error(), m.now())
		return
	}
	m.opts.Approvals.SetMode(mode)
	m.foot.refresh(m.sess)
	m.status.set(core.NotifyInfo, "Approval mode: "+string(mode), m.now())
}

func (m *Model) cmdCompact(args string) tea.Cmd {
	if m.busy {
		m.status.set(core.NotifyWarning, "Wait for the agent to finish (or press esc) before compacting.", m.now())
		return nil
	}
	if !hasExchange(m.sess.Messages()) {
		m.status.set(core.NotifyInfo, "Nothing to compact: the conversation has no answers yet.", m.now())
		return nil
	}
	m.status.setKeyed("command", "Compacting the conversation…")
	sess := m.sess
	return func() tea.Msg {
		r, err := sess.Compact(context.Background(), args)
		if err != nil {
			return commandDoneMsg{err: fmt.Errorf("compaction failed: %w", err)}
		}
		return commandDoneMsg{after: func(m *Model) tea.Cmd {
			m.tr.add(&compactionItem{summary: r.Summary, tokensBefore: r.TokensBefore})
			m.foot.refresh(m.sess)
			return nil
		}}
	}
}

// hasExchange reports whether msgs hold an answer from the model: before
// one, compacting would send a request to summarise nothing.
func hasExchange(msgs []core.Message) bool {
	for _, msg := range msgs {
		if _, ok := msg.(*core.AssistantMessage); ok {
			return true
		}
	}
	return false
}

func (m *Model) cmdName(args string) tea.Cmd {

	if args == "" {
		m.status.set(core.NotifyError, "Usage: /name <name>", m.now())
		return nil
	}
	if err := m.sess.SetName(args); err != nil {
		m.say(core.NotifyError, "Could not name the session: "+err.Error())
		return nil
	}
	m.foot.name = args
	m.status.set(core.NotifyInfo, "Session named "+args, m.now())
	return nil
}

// exportPath is where /export writes the session file's export: the path
// given, relative to the project, or by default a file in cairn's own
// directory (not the project, where it would be one more file to keep out
// of version control).
func (m *Model) exportPath(arg, file string) string {
	out := arg
	switch {
	case out == "" && m.opts.Dir != "":
		out = filepath.Join(m.opts.Dir, "exports", export.DefaultFileName(file))
	case out == "":
		out = export.DefaultFileName(file)
	}
	if !filepath.IsAbs(out) {
		out = filepath.Join(m.opts.Cwd, out)
	}
	return out
}

// cmdShare starts the web page on this process's sessions (once; later
// calls say its address again) and shows its address.
func (m *Model) cmdShare(args string) tea.Cmd {
	if strings.TrimSpace(args) != "" {
		m.status.set(core.NotifyError, "/share takes no arguments (cairn serve --addr/--port chooses where a page listens).", m.now())
		return nil
	}
	if m.opts.Share == nil {
		m.status.set(core.NotifyError, "This cairn cannot serve a web page here.", m.now())
		return nil
	}
	share := m.opts.Share
	m.status.setKeyed("command", "Starting the web page…")
	return func() tea.Msg {
		addr, err := share()
		if err != nil {
			return commandDoneMsg{err: fmt.Errorf("no web page: %w", err)}
		}
		return commandDoneMsg{text: "Web page on this session (only this machine can reach it; anyone with the address can drive cairn as you): " + addr}
	}
}

func (m *Model) cmdExport(args string) tea.Cmd {
	if m.sess.InMemory() {
		m.status.set(core.NotifyError, "This session is not saved (--no-session), so there is nothing to export.", m.now())
		return nil
	}
	file := m.sess.Conversation().File
	if file == "" {
		m.status.set(core.NotifyError, "Nothing to export yet: the session file is written with the first answer.", m.now())
		return nil
	}
	out := m.exportPath(args, file)
	opts := exportOptions(m.theme)
	model := m.sess.State().Model
	m.status.setKeyed("command", "Exporting…")
	return func() tea.Msg {
		err := os.MkdirAll(filepath.Dir(out), 0o755)
		if err == nil {
			_, err = export.Session(file, out, model.Provider+"/"+model.ID, opts)
		}
		if err != nil {
			return commandDoneMsg{err: fmt.Errorf("export failed: %w", err)}
		}
		return commandDoneMsg{text: "Exported the session to " + out}
	}
}

// exportOptions colours an HTML export like the theme.
func exportOptions(t *themes.Theme) export.Options {
	o := export.DefaultOptions()
	page, card, _ := t.ExportColors()
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&o.PageBg, page)
	set(&o.CardBg, card)
	set(&o.Text, t.Hex(themes.Text))
	set(&o.Accent, t.Hex(themes.Accent))
	set(&o.Muted, t.Hex(themes.Muted))
	set(&o.Success, t.Hex(themes.Success))
	set(&o.Error, t.Hex(themes.Error))
	set(&o.UserBg, t.Hex(themes.UserMessageBg))
	set(&o.ToolBg, t.Hex(themes.ToolSuccessBg))
	set(&o.DiffAdded, t.Hex(themes.ToolDiffAdded))
	set(&o.DiffRemoved, t.Hex(themes.ToolDiffRemoved))
	o.CodeStyle = t.ChromaStyle()
	return o
}

func (m *Model) cmdCopy(string) tea.Cmd {
	text, ok := m.sess.LastAssistantText()
	if !ok {
		m.status.set(core.NotifyWarning, "There is no answer to copy yet.", m.now())
		return nil
	}
	m.status.set(core.NotifyInfo, fmt.Sprintf("Copied the last answer (%d characters) to the clipboard.", len(text)), m.now())
	return tea.SetClipboard(text)
}

func (m *Model) cmdTheme(args string) tea.Cmd {
	if args != "" {
		m.applyThemeName(args)
		return nil
	}
	names := []string{"dark", "light"}
	custom := make([]string, 0, len(m.opts.Themes))
	for n := range m.opts.Themes {
		custom = append(custom, n)
	}
	sort.Strings(custom)
	m.openPicker(newPicker("Theme", optionItems(append(names, custom...)), pickTheme, nil).selectValue(m.theme.Name))
	return nil
}
