package approval

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/toolpath"
)

// Tools that only look (read, grep, find, ls) need no approval inside the
// project, but what they return goes to the model, and so to its provider:
// reading elsewhere asks in every mode but yolo, and reading where cairn
// keeps its keys (the user's cairn directory) or where a process's
// environment can be read (/proc) asks always, remembering nothing.

// procDir is where Linux shows every process's environment and memory.
const procDir = "/proc"

// readsPath reports whether tool only looks, at the file or tree its
// "path" parameter names: an info tool that declares one.
func readsPath(tool core.Tool) bool {
	if tool.Category() != core.CategoryInfo {
		return false
	}
	var schema map[string]json.RawMessage
	if json.Unmarshal(tool.Spec().Parameters, &schema) != nil {
		return false
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(schema["properties"], &props) != nil {
		return false
	}
	_, ok := props["path"]
	return ok
}

// checkRead decides a call of a tool that reads its path: allowed inside
// the project and the temporary directory, asked about elsewhere (with
// rules for the path), and always asked about where secrets are.
func (g *Gate) checkRead(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) Decision {
	verdict := VerdictOf(ctx)
	forced := verdict.Kind == VerdictAsk
	if g.Mode() == ModeYolo && !forced {
		return Decision{Allow: true, By: ByMode}
	}
	name := toolName(tool, call)
	subject := g.Subject(tool, call)
	abs := g.absPath(subject)
	if reason := g.secretReason(subject, abs); reason != "" {
		return g.askProtected(ctx, ask, name, subject, reason, call)
	}
	if !forced && abs != "" && (g.dir != "" && toolpath.Within(abs, g.dir) || toolpath.Within(abs, g.temp)) {
		return Decision{Allow: true, By: ByMode}
	}
	if g.Mode() == ModeAuto && !forced {
		// pi's behaviour: reads anywhere run unasked; only the secrets
		// above are still asked about.
		return Decision{Allow: true, By: ByMode}
	}
	g.mu.Lock()
	session, always := g.session, g.always
	denied := g.deniedTools[name]
	g.mu.Unlock()
	switch {
	case denied:
		return Decision{By: ByRule}
	case forced:
		// Asked whatever the rules would say.
	case verdict.Kind == VerdictAllow:
		return Decision{Allow: true, By: ByInterceptor, Reason: verdict.From}
	case session.coversRead(name, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeSession}
	case always.coversRead(name, subject):
		return Decision{Allow: true, By: ByRule, Scope: ScopeAlways}
	case ctx.Err() != nil:
		return Decision{By: ByAbort}
	}
	q := question{tool: name, subject: subject, callID: call.ID, warning: "reads outside the project",
		unattended: unattendedReadReason, session: []Rule{{Tool: name, Path: subject}}}
	q.options = []Option{OptionAllowOnce, OptionAllowSession}
	if g.file != "" {
		q.options = append(q.options, OptionAllowAlways)
	}
	q.options = append(q.options, OptionDeny, OptionDenyReason)
	q.withVerdict(verdict)
	return g.ask(ctx, ask, q)
}

// coversRead reports whether a path rule for tool covers subject. Rules
// for reading tools name a path; a rule naming only the tool never comes
// from a read question, and covers nothing here.
func (s ruleSet) coversRead(tool, subject string) bool {
	for _, r := range s {
		if r.Tool == tool && r.coversPath(subject) {
			return true
		}
	}
	return false
}

// secretReason says why reading subject (abs, resolved) always asks: it is
// in, or holds, the user's cairn directory or /proc. It is "" otherwise.
func (g *Gate) secretReason(subject, abs string) string {
	if abs == "" {
		return ""
	}
	for _, d := range g.protected {
		d = filepath.FromSlash(d)
		switch {
		case toolpath.Within(abs, d):
			return fmt.Sprintf("reads %s, one of cairn's own files, which hold its settings, API keys and sessions", subject)
		case toolpath.Within(d, abs):
			return fmt.Sprintf("reads %s, which holds cairn's own files (its settings, API keys and sessions)", subject)
		}
	}
	switch {
	case toolpath.Within(abs, procDir):
		return fmt.Sprintf("reads %s, where processes' environments (and the API keys in them) can be read", subject)
	case toolpath.Within(procDir, abs):
		return fmt.Sprintf("reads %s, which holds /proc, where processes' environments (and the API keys in them) can be read", subject)
	}
	return ""
}
