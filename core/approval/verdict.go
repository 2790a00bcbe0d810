package approval

import "context"

// VerdictKind is what an interceptor (a hook script, an extension's
// tool_call handler) said about a call before the gate judges it.
type VerdictKind uint8

// The kinds of verdict. A refusal is not among them: an interceptor that
// refuses a call stops it before the gate is asked.
const (
	// VerdictNone leaves the call to the gate.
	VerdictNone VerdictKind = iota
	// VerdictAllow lets the call through without a question where a
	// remembered rule could: it is treated as a session rule covering
	// exactly this call. It never skips what no rule skips: an edit of a
	// protected file, a read where secrets are, a command that leaves the
	// sandbox, or a tool the person refused for the session are still
	// asked about (or refused) as without it. So an interceptor can save
	// the person a question, never loosen the gate's care.
	VerdictAllow
	// VerdictAsk forces the question even where the mode or a rule would
	// let the call through unasked (in yolo mode too). Where nobody can
	// be asked (print mode) the call is refused by policy.
	VerdictAsk
)

// Verdict is an interceptor's verdict on one call: its kind, why (shown
// with the question for VerdictAsk), and who gave it.
type Verdict struct {
	Kind   VerdictKind
	Reason string
	From   string
}

type verdictKey struct{}

// WithVerdict returns ctx carrying v for the call about to be checked. The
// verdict travels in the context so that every wrapper of the gate (such as
// mcp.WithHints) passes it on unchanged.
func WithVerdict(ctx context.Context, v Verdict) context.Context {
	return context.WithValue(ctx, verdictKey{}, v)
}

// VerdictOf returns the verdict ctx carries, VerdictNone when none.
func VerdictOf(ctx context.Context) Verdict {
	v, _ := ctx.Value(verdictKey{}).(Verdict)
	return v
}

// withVerdict makes q say why an interceptor asked for it and, where
// nobody can be asked, why it is refused.
func (q *question) withVerdict(v Verdict) {
	if v.Kind != VerdictAsk {
		return
	}
	from := v.From
	if from == "" {
		from = "an interceptor"
	}
	q.asks = from + " asks for this call to be approved"
	if v.Reason != "" {
		q.asks += ": " + v.Reason
	}
	q.asks += "."
	q.unattended = "cairn is running where nobody can answer approval questions (print, json or synaps mode), and " + from + " asks for this call to be approved by a person, so it was refused"
	if v.Reason != "" {
		q.unattended += " (" + v.Reason + ")"
	}
}
