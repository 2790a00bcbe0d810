package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Config is what a Gate is built from.
type Config struct {
	// Mode is the starting mode; empty means ModeDefault.
	Mode Mode
	// Dir is the directory tools resolve relative paths against, normally
	// the project; empty means the process's working directory. Questions
	// and path rules name files relative to it, and auto_edit writes and
	// reading tools look inside it without asking.
	Dir string
	// RulesFile is where "Always allow" rules persist, normally
	// ProjectRulesFile(project). Empty means nothing persists and "Always
	// allow" is not offered.
	RulesFile string
	// Timeout, when positive, is how long each question waits for an
	// answer; then the call is denied. Zero waits until the context ends.
	// The asker enforces it (see core.Question.Timeout).
	Timeout time.Duration
	// ProtectedDirs are directories, such as the user's cairn directory,
	// whose files an edit tool may write only after asking, in every mode
	// but yolo and whatever the rules say. The project's .cairn directory,
	// AGENTS.md and CLAUDE.md files, .git/hooks and .git/config are always
	// protected.
	ProtectedDirs []string
	// AllowWrite are directories, besides the project and the system's
	// temporary directory, where ModeAutoEdit lets edit tools write without
	// asking (the person's approval.allowWrite setting). Elsewhere, such as
	// ~/.bashrc or ~/.ssh, auto_edit asks.
	AllowWrite []string
	// Saved, when set, is called after each successful write of RulesFile
	// ("Always allow"). cairn uses it to keep a trusted project trusted
	// across the person's own rules.
	Saved func()
}

// Gate decides whether a tool call may run: by the mode, then by the rules
// remembered for this session and for the project, and otherwise by asking
// the person through the core.Asker given to Check. Its methods are safe
// for concurrent use.
type Gate struct {
	dir     string
	file    string
	timeout time.Duration
	// protected are Config.ProtectedDirs, absolute with forward slashes,
	// each as given and as resolved.
	protected []string
	// writable are where auto_edit writes without asking besides dir: the
	// temporary directory and Config.AllowWrite, resolved.
	writable []string
	// temp is the system's temporary directory, resolved, where reads need
	// no asking either (the bash tool saves long output there).
	temp  string
	saved func()

	mu      sync.Mutex
	mode    Mode
	session ruleSet
	always  ruleSet
	// deniedTools are the session's refusals a host made with a button
	// of its own (DenyTool).
	deniedTools map[string]bool

	saveMu sync.Mutex // serialises reading, merging and writing the rules file
}

// Open returns a Gate with the project's persisted rules loaded. It always
// returns a usable Gate: a non-nil error reports rules that could not be
// loaded (errors.Is(err, ErrCorruptRules) for a malformed file), which the
// gate then ignores; show it to the person.
func Open(cfg Config) (*Gate, error) {
	mode := cfg.Mode
	if mode == "" {
		mode = ModeDefault
	}
	g := &Gate{dir: cfg.Dir, file: cfg.RulesFile, timeout: cfg.Timeout, mode: mode, saved: cfg.Saved}
	if g.dir == "" {
		// Tools without a directory take relative paths from the
		// process's, and so does the gate.
		g.dir, _ = os.Getwd()
	}
	if g.dir != "" {
		g.dir = toolpath.Abs(g.dir, "")
	}
	g.protected = resolvedDirs(cfg.ProtectedDirs, true)
	g.temp = toolpath.Resolve(os.TempDir(), "")
	g.writable = append([]string{g.temp}, resolvedDirs(cfg.AllowWrite, false)...)
	if g.file == "" {
		return g, nil
	}
	rules, err := loadRules(g.file)
	if err != nil {
		return g, err
	}
	set, err := compileAll(rules)
	g.always = set
	if err != nil {
		return g, fmt.Errorf("%w: %s: %v", ErrCorruptRules, g.file, err)
	}
	return g, nil
}

// Mode returns the current mode.
func (g *Gate) Mode() Mode {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mode
}

// SetMode changes the mode for the calls checked from now on.
func (g *Gate) SetMode(m Mode) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.mode = m
}

// DenyTool denies, for the rest of the session, every call of the tool
// named that the gate would otherwise ask about (a host's "always deny",
// such as ACP's reject_always). The mode still lets through what it does
// not ask about.
func (g *Gate) DenyTool(name string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.deniedTools == nil {
		g.deniedTools = map[string]bool{}
	}
	g.deniedTools[name] = true
}

// Rules returns a copy of the rules remembered with scope ScopeSession or
// ScopeAlways.
func (g *Gate) Rules(scope Scope) []Rule {
	g.mu.Lock()
	defer g.mu.Unlock()
	set := g.session
	if scope == ScopeAlways {
		set = g.always
	} else if scope != ScopeSession {
		return nil
	}
	rules := make([]Rule, len(set))
	for i, r := range set {
		rules[i] = r.Rule
	}
	return rules
}

// Check decides whether call of tool may run, asking through ask if the
// mode and the rules do not settle it (a nil ask dismisses every question).
// It returns when decided; if ctx ends or the timeout passes first, the call
// is denied. A denial's DenialText is the tool result to send to the model.
//
// The arguments it judges are the ones the tool will run with: arguments
// core.CheckArguments refuses are refused here too, unasked, and a path is
// judged as toolpath.Resolve reads it, links followed.
//
// An interceptor's Verdict carried by ctx (WithVerdict) can save a
// question as a rule would, or force one; see VerdictAllow and VerdictAsk.
func (g *Gate) Check(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) Decision {
	cat := tool.Category()
	mode := g.Mode()
	name := toolName(tool, call)
	reads := readsPath(tool)
	verdict := VerdictOf(ctx)
	if subjectKind(cat) != subjectTool || reads {
		if _, err := core.CheckArguments(tool.Spec(), call.Arguments); err != nil {
			return Decision{By: ByArguments, Reason: err.Error()}
		}
	}
	if reads {
		return g.checkRead(ctx, tool, call, ask)
	}
	subject := g.Subject(tool, call)
	protected := ""
	if subjectKind(cat) == subjectPath && mode != ModeYolo {
		protected = g.protectedReason(subject)
	}
	if subjectKind(cat) == subjectCommand && mode != ModeYolo {
		// A command that writes a protected file, or runs git in another
		// repository, is asked about as such an edit is (see care.go).
		protected = g.commandReason(subject)
	}
	outside := cat == core.CategoryEdit && !g.writableWithoutAsking(subject)
	asks := mode.Asks(cat) || outside && mode == ModeAutoEdit
	use := sandboxUse(tool, call)
	if protected == "" && use != core.LeavesSandbox && !asks && verdict.Kind != VerdictAsk {
		return Decision{Allow: true, By: ByMode}
	}
	g.mu.Lock()
	session, always := g.session, g.always
	denied := g.deniedTools[name]
	g.mu.Unlock()
	switch {
	case denied:
		// The person refused this tool for the session: what would be
		// asked is denied.
		return Decision{By: ByRule}
	case use == core.LeavesSandbox:
		return g.askProtected(ctx, ask, name, subject, joinReasons(leaveReason, protected), call)
	case protected != "":
		return g.askProtected(ctx, ask, name, subject, protected, call)
	case verdict.Kind == VerdictAsk:
		// Asked whatever the sandbox and the rules would say.
	case use == core.Sandboxed && mode == ModeAutoEdit:
		return Decision{Allow: true, By: BySandbox}
	case verdict.Kind == VerdictAllow:
		return Decision{Allow: true, By: ByInterceptor, Reason: verdict.From}
	case session.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeSession}
	case always.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeAlways}
	case ctx.Err() != nil:
		return Decision{By: ByAbort}
	}
	q := g.question(name, cat, subject)
	q.callID, q.background = call.ID, inBackground(call)
	if outside {
		// auto_edit would not allow it either.
		q.unattended = unattendedWriteReason
	}
	q.withVerdict(verdict)
	return g.ask(ctx, ask, q)
}

// askProtected asks about an edit of a protected file (see protectedReason),
// which no mode but yolo and no rule lets through. The question carries the
// reason and offers no remembering, and the decision's Warning repeats the
// reason.
func (g *Gate) askProtected(ctx context.Context, ask core.Asker, name, subject, reason string, call core.ToolCall) Decision {
	if ctx.Err() != nil {
		return Decision{By: ByAbort, Warning: reason}
	}
	q := question{tool: name, subject: subject, callID: call.ID, background: inBackground(call), warning: reason,
		options:    []Option{OptionAllowOnce, OptionDeny, OptionDenyReason},
		unattended: unattendedProtectedReason}
	d := g.ask(ctx, ask, q)
	d.Warning = escape.Visible("This call " + reason + ".")
	return d
}

// Subject returns what a call acts on, as questions name it: the `command`
// argument of an exec tool, and the file the `path` argument of an edit
// tool, or of a tool that reads the path it is given, names (resolved as
// toolpath.Resolve reads it: relative to the gate's directory when inside
// it, else absolute; "." for a reading tool given none), and otherwise the
// tool's name. It is "" when an edit tool's path or an exec tool's command
// is missing.
func (g *Gate) Subject(tool core.Tool, call core.ToolCall) string {
	if readsPath(tool) {
		p := stringArgument(call.Arguments, "path")
		if p == "" {
			p = "."
		}
		return g.relPath(toolpath.ResolveExisting(p, g.dir))
	}
	switch subjectKind(tool.Category()) {
	case subjectCommand:
		return stringArgument(call.Arguments, "command")
	case subjectPath:
		p := stringArgument(call.Arguments, "path")
		if p == "" {
			p = stringArgument(call.Arguments, "file_path")
		}
		if p == "" {
			return ""
		}
		return g.relPath(toolpath.Resolve(p, g.dir))
	}
	return toolName(tool, call)
}

// question is one approval question and what each answer remembers.
type question struct {
	tool, subject string
	cat           core.ApprovalCategory
	callID        string
	background    bool   // the command is to run in the background
	warning       string // why the call needs care, shown with the question
	options       []Option
	// asks is why an interceptor asked for the question (VerdictAsk).
	asks string
	// unattended, when set, is why the call is refused where nobody can be
	// asked, and what would allow it; unattendedReason otherwise.
	unattended string
	session    []Rule // for OptionAllowSession and OptionAllowAlways
	project    []Rule // for OptionAllowProject
	server     []Rule // for OptionAllowServer
}

// question builds the question for a call and the rules its answers add.
// Remembering is offered only when a rule can cover the call.
func (g *Gate) question(name string, cat core.ApprovalCategory, subject string) question {
	q := question{tool: name, subject: subject, cat: cat}
	switch subjectKind(cat) {
	case subjectCommand:
		q.session = commandRules(name, subject)
	case subjectPath:
		if subject != "" {
			q.session = []Rule{{Tool: name, Path: subject}}
			if project := (Rule{Tool: name, Path: "."}); mustCompile(project).coversPath(subject) {
				q.project = []Rule{project}
			}
		}
	default:
		q.session = []Rule{{Tool: name}}
		if server, ok := MCPServerRule(name); ok && cat == core.CategoryMCP {
			q.server = []Rule{server}
		}
	}
	q.options = []Option{OptionAllowOnce}
	if q.session != nil {
		q.options = append(q.options, OptionAllowSession)
	}
	if q.project != nil {
		q.options = append(q.options, OptionAllowProject)
	}
	if q.server != nil {
		q.options = append(q.options, OptionAllowServer)
	}
	if q.session != nil && g.file != "" {
		q.options = append(q.options, OptionAllowAlways)
	}
	q.options = append(q.options, OptionDeny, OptionDenyReason)
	return q
}

// message is the question's text under its title: the warning, if any,
// and what "Allow for this session" and "Always allow" would remember, so
// the person sees the rule before agreeing to it.
func (q question) message() string {
	var parts []string
	if q.asks != "" {
		parts = append(parts, q.asks)
	}
	if q.warning != "" {
		parts = append(parts, "Careful: this call "+q.warning+".")
	}
	if slices.Contains(q.options, OptionAllowSession) && len(q.session) > 0 {
		rules := make([]string, len(q.session))
		for i, r := range q.session {
			rules[i] = r.String()
		}
		parts = append(parts, "Remembering allows "+strings.Join(rules, "; ")+".")
	}
	return strings.Join(parts, " ")
}

// what names the tool and what it acts on: "bash: git status", "bash:
// npm run dev (in the background)".
func (q question) what() string {
	s := strings.TrimSpace(q.subject)
	what := q.tool + ": " + s
	if s == "" || s == q.tool {
		what = q.tool
	}
	if q.background {
		what += " (in the background)"
	}
	return what
}

// ask puts q to the person and acts on the answer.
func (g *Gate) ask(ctx context.Context, asker core.Asker, q question) Decision {
	choice, text, d, ok := g.selectOption(ctx, asker, q)
	if !ok {
		if d.By == ByPolicy && q.unattended == "" {
			d.Reason = g.refusalReason(q)
		}
		return d
	}
	switch choice {
	case OptionAllowOnce:
		return Decision{Allow: true, By: ByPerson, Scope: ScopeOnce}
	case OptionAllowSession:
		g.remember(q.session)
		return Decision{Allow: true, By: ByPerson, Scope: ScopeSession, Rules: q.session}
	case OptionAllowProject:
		g.remember(q.project)
		return Decision{Allow: true, By: ByPerson, Scope: ScopeSession, Rules: q.project}
	case OptionAllowServer:
		g.remember(q.server)
		return Decision{Allow: true, By: ByPerson, Scope: ScopeSession, Rules: q.server}
	case OptionAllowAlways:
		return g.persist(q.session)
	case OptionDenyReason:
		if text != "" {
			return Decision{By: ByPerson, Reason: text}
		}
		return g.denyWithReason(ctx, asker, q)
	}
	// OptionDeny, or an answer that was never offered.
	return Decision{By: ByPerson}
}

// selectOption asks the question; text is the free text given with the
// answer (trimmed). When it goes unanswered, ok is false and d is the
// denial: abort, timeout, dismissal, or nobody to ask.
func (g *Gate) selectOption(ctx context.Context, asker core.Asker, q question) (choice Option, text string, d Decision, ok bool) {
	if asker == nil {
		return "", "", Decision{By: ByPerson}, false
	}
	opts := make([]core.Option, len(q.options))
	for i, o := range q.options {
		opts[i] = core.Option{Value: string(o), Label: o.Label()}
	}
	// The subject is the model's text: shown with its control characters
	// escaped, so it cannot hide or rewrite what the question says.
	a, out := asker.Ask(ctx, core.Question{
		Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: escape.Visible("Allow " + q.what() + "?"), Message: escape.Visible(q.message()), Options: opts, ToolCallID: q.callID, Timeout: g.timeout,
	})
	if out == core.Answered && slices.Contains(q.options, Option(a.Value)) {
		return Option(a.Value), strings.TrimSpace(a.Text), Decision{}, true
	}
	d = unanswered(ctx, out)
	if d.By == ByPolicy && q.unattended != "" {
		d.Reason = q.unattended
	}
	return "", "", d, false
}

// denyWithReason asks why and denies with the answer; a dismissed question
// still denies, without a reason.
func (g *Gate) denyWithReason(ctx context.Context, asker core.Asker, q question) Decision {
	a, out := asker.Ask(ctx, core.Question{
		Kind: core.QuestionInput, Purpose: core.PurposeDenyReason,
		Title: escape.Visible("Why deny " + q.what() + "? (the model is told)"), Hint: "what to do instead",
		ToolCallID: q.callID, Timeout: g.timeout,
	})
	if out != core.Answered {
		// Dismissed, timed out or aborted: still denied, with no reason.
		return unanswered(ctx, out)
	}
	return Decision{By: ByPerson, Reason: strings.TrimSpace(a.Value)}
}

// unanswered is the denial for a question nobody answered.
func unanswered(ctx context.Context, out core.Outcome) Decision {
	switch {
	case out == core.Aborted || ctx.Err() != nil:
		return Decision{By: ByAbort}
	case out == core.TimedOut:
		return Decision{By: ByTimeout}
	case out == core.NoOneToAsk:
		return Decision{By: ByPolicy, Reason: unattendedReason}
	}
	return Decision{By: ByPerson}
}

// unattendedReason is what a call refused for want of anyone to ask tells
// the model and the person reading the transcript.
const unattendedReason = "cairn is running where nobody can answer approval questions (print, json or synaps mode), so such calls are refused; allow them with --approval auto_edit (file edits) or --approval yolo (everything)"

// The reasons for calls refused for want of anyone to ask that auto_edit
// would not allow either.
const (
	unattendedWriteReason     = "cairn is running where nobody can answer approval questions (print, json or synaps mode), and auto_edit writes without asking only inside the project and the temporary directory; allow this with --approval yolo, or add the directory to approval.allowWrite in your global settings.json"
	unattendedReadReason      = "cairn is running where nobody can answer approval questions (print, json or synaps mode), and reading outside the project needs approval; allow this with --approval yolo, or run cairn in that directory"
	unattendedProtectedReason = "cairn is running where nobody can answer approval questions (print, json or synaps mode), and this call touches a file that controls cairn or holds secrets, which only --approval yolo allows unasked"
)

// refusalReason says what would allow q's call where nobody can be
// asked: only the ways that would (auto_edit lets file edits through, not
// MCP tools or commands, and is never suggested when already set), and for
// an MCP tool the rule for its server.
func (g *Gate) refusalReason(q question) string {
	var ways []string
	if q.cat == core.CategoryEdit && g.Mode() == ModeDefault {
		ways = append(ways, "--approval auto_edit (file edits)")
	}
	ways = append(ways, "--approval yolo (everything)")
	if r, ok := MCPServerRule(q.tool); ok && q.cat == core.CategoryMCP {
		ways = append(ways, fmt.Sprintf(`the rule {"tool": %q} in .cairn/approvals.json (every tool of that MCP server)`, r.Tool))
	}
	return "cairn is running where nobody can answer approval questions (print, json or synaps mode), so such calls are refused; allow this one with " + strings.Join(ways, ", or ")
}

// remember adds rules for the rest of the session.
func (g *Gate) remember(rules []Rule) {
	set, _ := compileAll(rules) // built by this package: always valid
	g.mu.Lock()
	defer g.mu.Unlock()
	g.session = append(slices.Clip(g.session), set...)
}

// persist saves rules to the rules file and allows the call. If saving
// fails, the rules still hold for the session and the person is told.
func (g *Gate) persist(rules []Rule) Decision {
	g.saveMu.Lock()
	err := saveRules(g.file, rules)
	g.saveMu.Unlock()
	if err != nil {
		g.remember(rules)
		return Decision{Allow: true, By: ByPerson, Scope: ScopeSession, Rules: rules,
			Warning: fmt.Sprintf("Could not remember this approval for the project, so it lasts for this session only: %v", err)}
	}
	if g.saved != nil {
		g.saved()
	}
	set, _ := compileAll(rules)
	g.mu.Lock()
	g.always = append(slices.Clip(g.always), set...)
	g.mu.Unlock()
	return Decision{Allow: true, By: ByPerson, Scope: ScopeAlways, Rules: rules}
}

// relPath returns p, a resolved absolute path, as questions and rules name
// it: relative to the gate's directory when inside it, cleaned.
func (g *Gate) relPath(p string) string {
	if p == "" {
		return ""
	}
	if filepath.IsAbs(p) && g.dir != "" && toolpath.Within(p, g.dir) {
		if rel, err := filepath.Rel(g.dir, p); err == nil {
			p = rel
		}
	}
	return cleanPath(p)
}

// absPath returns a subject as an absolute path with the OS's separators,
// "" when there is no gate directory to take a relative one from.
func (g *Gate) absPath(subject string) string {
	p := filepath.FromSlash(subject)
	switch {
	case filepath.IsAbs(p):
		return p
	case g.dir == "":
		return ""
	}
	return filepath.Join(g.dir, p)
}

// writableWithoutAsking reports whether auto_edit lets an edit tool write
// subject unasked: inside the project, the temporary directory or a
// directory of Config.AllowWrite.
func (g *Gate) writableWithoutAsking(subject string) bool {
	abs := g.absPath(subject)
	if abs == "" || subject == "" {
		return false
	}
	if g.dir != "" && toolpath.Within(abs, g.dir) {
		return true
	}
	for _, d := range g.writable {
		if toolpath.Within(abs, d) {
			return true
		}
	}
	return false
}

// subject kinds: what a tool's calls are judged by.
const (
	subjectTool = iota
	subjectCommand
	subjectPath
)

func subjectKind(cat core.ApprovalCategory) int {
	switch cat {
	case core.CategoryExec:
		return subjectCommand
	case core.CategoryEdit:
		return subjectPath
	}
	return subjectTool
}

func toolName(tool core.Tool, call core.ToolCall) string {
	if name := tool.Spec().Name; name != "" {
		return name
	}
	return call.Name
}

// stringArgument returns the string argument key of a call's JSON
// arguments, or "" if there is none.
func stringArgument(args json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	var s string
	if json.Unmarshal(m[key], &s) != nil {
		return ""
	}
	return s
}

// mustCompile compiles a rule this package built.
func mustCompile(r Rule) compiled {
	c, _ := compile(r)
	return c
}
