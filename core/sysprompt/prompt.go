package sysprompt

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
)

// Options are the inputs of a system prompt.
type Options struct {
	// Tools are the tools the model may call, in the order to list them.
	Tools []core.ToolSpec
	// Cwd is the working directory the prompt names; empty means the
	// process's.
	Cwd string
	// Date is the day the prompt names; the zero time means today.
	Date time.Time
	// ContextFiles are the project's instruction files, as
	// LoadContextFiles returns them.
	ContextFiles []ContextFile
	// Custom, when not empty, replaces cairn's base prompt (the
	// introduction, the tool list and the guidelines); the appended text,
	// the context files, the date and the working directory still follow.
	// It comes from --system-prompt or SYSTEM.md.
	Custom string
	// Append is added after the base (or custom) prompt. It comes from
	// --append-system-prompt or APPEND_SYSTEM.md.
	Append string
	// Skills is the list of skills (core/skills' Set.Prompt), placed after
	// the context files when the model has the read tool to load them.
	Skills string
}

// intro is the first paragraph of cairn's own prompt.
const intro = "You are cairn, a coding agent working in the user's terminal. " +
	"You help with software tasks by reading and searching files, running commands, " +
	"editing code and writing new files, using the tools listed below."

// builtinSummaries are one-line descriptions of the built-in tools for the
// tool list; the full descriptions go to the model with each tool's schema.
var builtinSummaries = map[string]string{
	"read":  "Read a file (text, or an image as an attachment)",
	"bash":  "Run a shell command in the working directory",
	"edit":  "Change a file by replacing exact pieces of its text",
	"write": "Create a file, or replace all of its content",
	"grep":  "Search file contents for a pattern (skips what .gitignore excludes)",
	"find":  "Find files by glob pattern (skips what .gitignore excludes)",
	"ls":    "List a directory's entries",
	// The background tools (core/tools/background.go).
	"bash_output": "Read a background command's new output and whether it still runs",
	"kill_shell":  "Stop a background command and everything it started",
	// The checklist (core/tools/todo.go).
	"todo_write": "Keep a checklist of the steps of a multi-step task, shown to the user",
	// Plan mode's tool (core/approval/plan.go).
	"exit_plan_mode": "Present your plan and ask the user to accept it",
}

// exitPlanModeTool is approval.ExitPlanModeTool: the tool the session
// declares only in plan mode, so its presence says the session plans.
const exitPlanModeTool = "exit_plan_mode"

// planMode is the "plan" section, there while the session is in plan mode.
const planMode = "# Plan mode\n\n" +
	"You are in plan mode: the user wants a plan before anything changes. Do not change anything yet: " +
	"edits, writes and commands that change files or state are refused (bash runs only commands that just read, " +
	"such as ls, cat, grep, rg, git status, git diff and git log, with no output redirected to a file). " +
	"Explore the code with the reading and searching tools, ask the user about anything unclear, then present your plan " +
	"with exit_plan_mode: the steps, the files to change and how to check the result, in Markdown. " +
	"The user accepts it (then you carry it out) or tells you what to change. " +
	"Use exit_plan_mode only for a plan of changes; to answer a question, just answer."

// maxSummaryRunes bounds the tool-list line of a tool cairn does not know.
const maxSummaryRunes = 160

// Build returns the system prompt: its Sections' texts joined by blank
// lines.
func Build(opts Options) string {
	secs := Sections(opts)
	texts := make([]string, len(secs))
	for i, sec := range secs {
		texts[i] = sec.Text
	}
	return strings.Join(texts, "\n\n")
}

// Sections returns the system prompt's parts, named as pi 0.87 names them
// in its system messages, in order: "preamble" (cairn's introduction, or
// opts.Custom in place of it and of the next two), "tools" ("Available
// tools:" with one line per tool), "rules" ("Guidelines:", chosen by which
// tools are present), "plan" (the plan-mode instructions, when the
// exit_plan_mode tool is among the tools), "append" (opts.Append),
// "context" ("# Project Context" with a "## <path>" part per context
// file), "skills" (opts.Skills, when the model has the read tool), and
// "cwd" (the lines
// "Current date: YYYY-MM-DD" and "Current working directory: <cwd>").
// Empty parts are left out.
func Sections(opts Options) []core.PromptSection {
	var out []core.PromptSection
	add := func(name, text string) {
		if text != "" {
			out = append(out, core.PromptSection{Name: name, Text: text})
		}
	}
	if opts.Custom != "" {
		add("preamble", strings.TrimRight(opts.Custom, "\n"))
	} else {
		add("preamble", intro)
		add("tools", toolList(opts.Tools))
		add("rules", "Guidelines:\n- "+strings.Join(guidelines(opts.Tools), "\n- "))
	}
	if slices.ContainsFunc(opts.Tools, func(t core.ToolSpec) bool { return t.Name == exitPlanModeTool }) {
		add("plan", planMode)
	}
	add("append", strings.Trim(opts.Append, "\n"))
	if len(opts.ContextFiles) > 0 {
		var b strings.Builder
		b.WriteString("# Project Context\n\n")
		b.WriteString("Instructions for this project from its context files; where they differ, the later, more specific file wins.")
		for _, f := range opts.ContextFiles {
			b.WriteString("\n\n## ")
			b.WriteString(filepath.ToSlash(f.Path))
			b.WriteString("\n\n")
			b.WriteString(strings.Trim(f.Content, "\n"))
		}
		add("context", b.String())
	}
	if slices.ContainsFunc(opts.Tools, func(t core.ToolSpec) bool { return t.Name == "read" }) {
		add("skills", strings.Trim(opts.Skills, "\n"))
	}
	date := opts.Date
	if date.IsZero() {
		date = time.Now()
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	add("cwd", "Current date: "+date.Format(time.DateOnly)+"\nCurrent working directory: "+filepath.ToSlash(cwd))
	return out
}

// toolList is "Available tools:" and a line per tool.
func toolList(tools []core.ToolSpec) string {
	var b strings.Builder
	b.WriteString("Available tools:\n")
	if len(tools) == 0 {
		b.WriteString("(none)")
	}
	for i, t := range tools {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("- ")
		b.WriteString(t.Name)
		b.WriteString(": ")
		b.WriteString(summary(t))
	}
	return b.String()
}

// summary is a tool's line in the tool list: cairn's own for a built-in
// tool, otherwise the first sentence of its description.
func summary(t core.ToolSpec) string {
	if s, ok := builtinSummaries[t.Name]; ok {
		return s
	}
	s := strings.TrimSpace(t.Description)
	if s == "" {
		return "(no description)"
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	}
	if utf8.RuneCountInString(s) > maxSummaryRunes {
		s = string([]rune(s)[:maxSummaryRunes-1]) + "…"
	}
	return s
}

// guidelines returns the advice that fits the tools present, most specific
// first.
func guidelines(tools []core.ToolSpec) []string {
	has := func(name string) bool {
		return slices.ContainsFunc(tools, func(t core.ToolSpec) bool { return t.Name == name })
	}
	var explorers []string
	for _, name := range []string{"grep", "find", "ls"} {
		if has(name) {
			explorers = append(explorers, name)
		}
	}

	var out []string
	switch {
	case has("bash") && len(explorers) == 0:
		out = append(out, "Use bash for file operations such as ls, rg and find.")
	case has("bash") && len(explorers) == 1:
		out = append(out, "To explore files, prefer the "+explorers[0]+" tool to bash: it is faster and keeps its output short.")
	case has("bash"):
		out = append(out, "To explore files, prefer the "+joinAnd(explorers)+" tools to bash: they are faster and keep their output short.")
	}
	if has("bash_output") && has("kill_shell") {
		out = append(out, backgroundGuidelines...)
	}
	if has("read") && has("bash") {
		out = append(out, "Look at files with read, not with cat, head or sed.")
	}
	if has("read") && has("edit") {
		out = append(out, "Read a file before you edit it, so your changes match what is there.")
	}
	if has("edit") {
		out = append(out,
			"Use edit for precise changes: each edits[].oldText must match the file exactly and occur once.",
			"For several changes to one file, make one edit call with an entry per change in edits[]. "+
				"Every oldText is matched against the file as it was before the call, so entries must not overlap; "+
				"merge changes that are close together into one entry.",
			"Keep each oldText as short as it can be while still unique; do not pad it with unchanged lines.")
	}
	if has("write") {
		if has("edit") {
			out = append(out, "Use write for new files and complete rewrites; change existing files with edit.")
		} else {
			out = append(out, "Use write for new files and complete rewrites.")
		}
	}
	if has("edit") || has("write") {
		out = append(out, "When you report what you changed, say it in your answer; do not run cat or bash to show it.")
	}
	return append(out,
		"Be concise.",
		"Name file paths clearly when you talk about files.")
}

// backgroundGuidelines tell the model how to use background commands.
var backgroundGuidelines = []string{
	"Start servers, watchers and other commands that do not end by themselves with bash and run_in_background: true, " +
		"not with & or nohup. The call returns an id (bash_1) at once.",
	"Poll a background command with bash_output (its wait argument waits for new output; filter keeps matching lines) " +
		"until it is ready, for example until a server says it is listening, before you use it. " +
		"Output may be buffered when it is not a terminal: use unbuffered modes such as python3 -u.",
	"Stop background commands with kill_shell when you no longer need them; all of them are stopped when the session ends.",
}

// joinAnd joins names as "a", "a and b" or "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
