package approval

// Asking the person: the question a call needs, what each answer
// remembers, and what an unanswered question means.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

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
	// arguments are the call's arguments as compact JSON, cut to
	// maxArgumentsText, for a tool whose question names no path or
	// command (an MCP or extension tool): the person sees what it will
	// act on.
	arguments string
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
	if q.arguments != "" {
		parts = append(parts, "Arguments: "+q.arguments)
	}
	if q.warning != "" {
		parts = append(parts, "Careful: this call "+q.warning+".")
	}
	if slices.Contains(q.options, OptionAllowSession) && len(q.session) > 0 {
		parts = append(parts, "Remembering allows "+rulesText(q.session)+".")
	}
	return strings.Join(parts, " ")
}

// maxArgumentsText bounds the arguments a question shows.
const maxArgumentsText = 600

// argumentsText is a call's arguments for a question: compact JSON, cut
// to maxArgumentsText bytes (on a character's boundary) with a note of
// the whole size; "" for none.
func argumentsText(args json.RawMessage) string {
	var b bytes.Buffer
	if len(args) == 0 || json.Compact(&b, args) != nil || b.String() == "{}" || b.String() == "null" {
		return ""
	}
	s := b.String()
	if len(s) <= maxArgumentsText {
		return s
	}
	cut := maxArgumentsText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:cut], len(s))
}

// rulesOf is what answering with o remembers: none for the options that
// remember nothing.
func (q question) rulesOf(o Option) []Rule {
	switch o {
	case OptionAllowSession, OptionAllowAlways:
		return q.session
	case OptionAllowProject:
		return q.project
	case OptionAllowServer:
		return q.server
	}
	return nil
}

// rulesText is rules as a person reads them: "bash: git status; bash: ls".
func rulesText(rules []Rule) string {
	texts := make([]string, len(rules))
	for i, r := range rules {
		texts[i] = r.String()
	}
	return strings.Join(texts, "; ")
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
		opts[i] = core.Option{Value: string(o), Label: o.Label(), Saves: escape.Visible(rulesText(q.rulesOf(o)))}
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
	if q.cat == core.CategoryEdit && g.judging() == ModeDefault {
		ways = append(ways, "--approval auto_edit (file edits)")
	}
	ways = append(ways, "--approval yolo (everything)")
	if r, ok := MCPServerRule(q.tool); ok && q.cat == core.CategoryMCP {
		ways = append(ways, fmt.Sprintf(`the rule {"tool": %q} in .cairn/approvals.json (every tool of that MCP server)`, r.Tool))
	}
	return "cairn is running where nobody can answer approval questions (print, json or synaps mode), so such calls are refused; allow this one with " + strings.Join(ways, ", or ")
}
