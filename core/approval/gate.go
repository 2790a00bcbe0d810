package approval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
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
	// RunFiles are files the project's control files name as something
	// to run (trust.Project.Scripts): a hook's script, an MCP server's, an
	// extension's; and the settings that name hooks outside .cairn
	// (.claude/settings.json). Writing one asks like writing a protected
	// file. Keys are paths, absolute or relative to Dir; each value says
	// what the file is, for the question ("a script cairn runs as a hook
	// of .claude/settings.json").
	RunFiles map[string]string
	// AllowWrite are directories, besides the project and the system's
	// temporary directory, where ModeAutoEdit lets edit tools write without
	// asking (the person's approval.allowWrite setting). Elsewhere, such as
	// ~/.bashrc or ~/.ssh, auto_edit asks.
	AllowWrite []string
	// SkillDirs are the directories of the session's skills: reading
	// tools look in them without asking (the model reads a skill's
	// SKILL.md and the files beside it there), in every mode. A directory
	// that holds a protected directory or /proc is left out.
	SkillDirs []string
	// SessionRules are in force from the start, for the session, beside
	// those the person gives then (the allow rules of the person's Claude
	// Code settings, translated). A rule that cannot be compiled is
	// reported by Open and left out.
	SessionRules []Rule
	// Saved, when set, is called after each successful write of RulesFile
	// ("Always allow"). cairn uses it to keep a trusted project trusted
	// across the person's own rules.
	Saved func()
	// Peers, when set, are the process's other gates: a rule this gate
	// saves holds at once in those of them that keep the same RulesFile.
	Peers *Peers
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
	// runFiles are Config.RunFiles, absolute with forward slashes, each
	// as given and as resolved.
	runFiles    map[string]string
	runFileKeys []string
	// writable are where auto_edit writes without asking besides dir: the
	// temporary directory and Config.AllowWrite, resolved.
	writable []string
	// temp is the system's temporary directory, resolved, where reads need
	// no asking either (the bash tool saves long output there).
	temp  string
	saved func()
	peers *Peers
	// skillDirs are Config.SkillDirs, resolved, that hold nothing
	// protected.
	skillDirs []string
	// git finds the project's repository's places once (gitprotect.go).
	git func() gitPlaces

	mu   sync.Mutex
	mode Mode
	// before is the mode plan mode was entered from, by which the calls
	// it lets through are judged (ModeDefault when it started in plan).
	before Mode
	// exits are the modes the person chose when accepting plans, by the
	// exit_plan_mode call, for the tool to switch to when it runs.
	exits   map[string]Mode
	session ruleSet
	always  ruleSet
	// turn is the turn grant (GrantTurn), turnFrom who made it.
	turn     ruleSet
	turnFrom string
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
	g := &Gate{dir: cfg.Dir, file: cfg.RulesFile, timeout: cfg.Timeout, mode: mode, before: ModeDefault, saved: cfg.Saved, peers: cfg.Peers}
	if g.dir == "" {
		// Tools without a directory take relative paths from the
		// process's, and so does the gate.
		g.dir, _ = os.Getwd()
	}
	if g.dir != "" {
		g.dir = toolpath.Abs(g.dir, "")
	}
	g.protected = resolvedDirs(cfg.ProtectedDirs, true)
	g.git = gitOnce(g.dir)
	g.runFiles = runFiles(cfg.RunFiles, g.dir)
	g.runFileKeys = slices.Sorted(maps.Keys(g.runFiles))
	g.temp = toolpath.Resolve(os.TempDir(), "")
	g.writable = append([]string{g.temp}, resolvedDirs(cfg.AllowWrite, false)...)
	g.skillDirs = g.safeSkillDirs(cfg.SkillDirs)
	var given error
	for _, r := range cfg.SessionRules {
		c, err := compile(r)
		if err != nil {
			given = errors.Join(given, fmt.Errorf("rule %s: %w", r, err))
			continue
		}
		g.session = append(g.session, c)
	}
	if g.file == "" {
		return g, given
	}
	if g.peers != nil {
		g.peers.join(g)
	}
	rules, err := loadRules(g.file)
	if err != nil {
		return g, errors.Join(err, given)
	}
	set, err := compileAll(rules)
	g.always = set
	if err != nil {
		return g, errors.Join(fmt.Errorf("%w: %s: %v", ErrCorruptRules, g.file, err), given)
	}
	return g, given
}

// Mode returns the current mode.
func (g *Gate) Mode() Mode {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.mode
}

// SetMode changes the mode for the calls checked from now on. Entering
// ModePlan remembers the mode it was in: plan mode judges what it lets
// through as that mode does, and offers to go back to it when the plan is
// accepted.
func (g *Gate) SetMode(m Mode) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if m == ModePlan && g.mode != ModePlan {
		g.before = g.mode
	}
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
	if d, done := g.checkPlan(ctx, tool, call, ask); done {
		return d
	}
	cat := tool.Category()
	mode := g.judging()
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
	session, always, turn, turnFrom := g.session, g.always, g.turn, g.turnFrom
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
	case turn != nil && turnGrantApplies(ctx) && turn.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeOnce, Reason: "allowed by " + turnFrom + " for this prompt"}
	case always.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeAlways}
	case ctx.Err() != nil:
		return Decision{By: ByAbort}
	}
	q := g.question(name, cat, subject)
	q.callID, q.background = call.ID, inBackground(call)
	if subjectKind(cat) == subjectTool {
		q.arguments = argumentsText(call.Arguments)
	}
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
	case subjectHost:
		return networkSubject(call)
	}
	return toolName(tool, call)
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
	if g.peers != nil {
		g.peers.saved(g, set)
	}
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
	subjectHost
)

func subjectKind(cat core.ApprovalCategory) int {
	switch cat {
	case core.CategoryExec:
		return subjectCommand
	case core.CategoryEdit:
		return subjectPath
	case core.CategoryNetwork:
		return subjectHost
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
