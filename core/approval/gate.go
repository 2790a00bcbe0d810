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
)

// Config is what a Gate is built from.
type Config struct {
	// Mode is the starting mode; empty means ModeDefault.
	Mode Mode
	// Dir is the directory tools resolve relative paths against, normally
	// the project. Questions and path rules name files relative to it.
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
	// protected are Config.ProtectedDirs, absolute with forward slashes.
	protected []string
	saved     func()

	mu      sync.Mutex
	mode    Mode
	session ruleSet
	always  ruleSet
	// deniedTools and allowedCategories are the session's decisions a
	// host made with a button of its own (DenyTool, AllowCategory).
	deniedTools       map[string]bool
	allowedCategories map[core.ApprovalCategory]bool

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
	g := &Gate{dir: cfg.Dir, file: cfg.RulesFile, timeout: cfg.Timeout, mode: mode, protected: cleanDirs(cfg.ProtectedDirs), saved: cfg.Saved}
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

// AllowCategory allows, for the rest of the session, every call of the
// category that the gate would otherwise ask about (a host's "always allow"
// for a kind of tool, such as aionrs's scope "always"). Edits of protected
// files are still asked about.
func (g *Gate) AllowCategory(cat core.ApprovalCategory) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.allowedCategories == nil {
		g.allowedCategories = map[core.ApprovalCategory]bool{}
	}
	g.allowedCategories[cat] = true
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
func (g *Gate) Check(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) Decision {
	cat := tool.Category()
	mode := g.Mode()
	name := toolName(tool, call)
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
	use := sandboxUse(tool, call)
	if protected == "" && use != core.LeavesSandbox && !mode.Asks(cat) {
		return Decision{Allow: true, By: ByMode}
	}
	g.mu.Lock()
	session, always := g.session, g.always
	denied, catAllowed := g.deniedTools[name], g.allowedCategories[cat]
	g.mu.Unlock()
	switch {
	case denied:
		// The person refused this tool for the session: what would be
		// asked is denied.
		return Decision{By: ByRule}
	case use == core.LeavesSandbox:
		return g.askProtected(ctx, ask, name, subject, joinReasons(leaveReason, protected), call.ID)
	case protected != "":
		return g.askProtected(ctx, ask, name, subject, protected, call.ID)
	case use == core.Sandboxed && mode == ModeAutoEdit:
		return Decision{Allow: true, By: BySandbox}
	case catAllowed:
		return Decision{Allow: true, By: ByRule, Scope: ScopeSession}
	case session.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeSession}
	case always.covers(name, cat, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeAlways}
	case ctx.Err() != nil:
		return Decision{By: ByAbort}
	}
	q := g.question(name, cat, subject)
	q.callID = call.ID
	return g.ask(ctx, ask, q)
}

// askProtected asks about an edit of a protected file (see protectedReason),
// which no mode but yolo and no rule lets through. The question carries the
// reason and offers no remembering, and the decision's Warning repeats the
// reason.
func (g *Gate) askProtected(ctx context.Context, ask core.Asker, name, subject, reason, callID string) Decision {
	if ctx.Err() != nil {
		return Decision{By: ByAbort, Warning: reason}
	}
	q := question{tool: name, subject: subject, callID: callID, warning: reason,
		options: []Option{OptionAllowOnce, OptionDeny, OptionDenyReason}}
	d := g.ask(ctx, ask, q)
	d.Warning = "This call " + reason + "."
	return d
}

// Subject returns what a call acts on, as questions name it: the `command`
// argument of an exec tool, the `path` argument of an edit tool (relative to
// the gate's directory when inside it), and otherwise the tool's name. It is
// "" when the argument is missing.
func (g *Gate) Subject(tool core.Tool, call core.ToolCall) string {
	switch subjectKind(tool.Category()) {
	case subjectCommand:
		return stringArgument(call.Arguments, "command")
	case subjectPath:
		p := stringArgument(call.Arguments, "path")
		if p == "" {
			p = stringArgument(call.Arguments, "file_path")
		}
		return g.relPath(p)
	}
	return toolName(tool, call)
}

// question is one approval question and what each answer remembers.
type question struct {
	tool, subject string
	callID        string
	warning       string // why the call needs care, shown with the question
	options       []Option
	session       []Rule // for OptionAllowSession and OptionAllowAlways
	project       []Rule // for OptionAllowProject
	server        []Rule // for OptionAllowServer
}

// question builds the question for a call and the rules its answers add.
// Remembering is offered only when a rule can cover the call.
func (g *Gate) question(name string, cat core.ApprovalCategory, subject string) question {
	q := question{tool: name, subject: subject}
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

// what names the tool and what it acts on: "bash: git status".
func (q question) what() string {
	s := strings.TrimSpace(q.subject)
	if s == "" || s == q.tool {
		return q.tool
	}
	return q.tool + ": " + s
}

// ask puts q to the person and acts on the answer.
func (g *Gate) ask(ctx context.Context, asker core.Asker, q question) Decision {
	choice, text, d, ok := g.selectOption(ctx, asker, q)
	if !ok {
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
	a, out := asker.Ask(ctx, core.Question{
		Kind: core.QuestionSelect, Purpose: core.PurposeApproval,
		Title: "Allow " + q.what() + "?", Message: q.message(), Options: opts, ToolCallID: q.callID, Timeout: g.timeout,
	})
	if out == core.Answered && slices.Contains(q.options, Option(a.Value)) {
		return Option(a.Value), strings.TrimSpace(a.Text), Decision{}, true
	}
	return "", "", unanswered(ctx, out), false
}

// denyWithReason asks why and denies with the answer; a dismissed question
// still denies, without a reason.
func (g *Gate) denyWithReason(ctx context.Context, asker core.Asker, q question) Decision {
	a, out := asker.Ask(ctx, core.Question{
		Kind: core.QuestionInput, Purpose: core.PurposeDenyReason,
		Title: "Why deny " + q.what() + "? (the model is told)", Hint: "what to do instead",
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

// relPath returns p as questions and rules name it: relative to the gate's
// directory when inside it, with ~ expanded, cleaned.
func (g *Gate) relPath(p string) string {
	if p == "" {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if home, err := os.UserHomeDir(); err == nil {
			p = filepath.Join(home, p[1:])
		}
	}
	if filepath.IsAbs(p) && g.dir != "" {
		if rel, err := filepath.Rel(g.dir, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			p = rel
		}
	}
	return cleanPath(p)
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
