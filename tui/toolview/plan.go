package toolview

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core/approval"
)

// planTitle names plan mode's exit_plan_mode call as what it is: the plan
// presented for the person to accept.
func planTitle(v *view) (string, string) {
	return "plan", plural(countLines(v.args.str("plan")), "line", "lines")
}

// planBody shows the plan, word-wrapped (its head while collapsed), then
// what became of it: accepted, or the person's feedback.
func planBody(v *view, b *box) {
	plan := v.args.str("plan")
	// Rendered, as the person reads a plan: headings, lists, emphasis. A
	// plan with "<" stays as written: markdown would take "<name>" for
	// HTML and drop it.
	if v.RenderMarkdown != nil && v.state != Streaming && !strings.ContainsRune(plan, '<') {
		lines := strings.Split(v.RenderMarkdown(plan, b.inner), "\n")
		limit := b.limit(planLimit)
		for i, l := range lines {
			if i == limit {
				b.elided(len(lines)-limit, false)
				break
			}
			b.add(l, min(ansi.StringWidth(l), b.inner))
		}
	} else {
		b.wrapped(plan, v.p.Output, b.limit(planLimit))
	}
	if v.state == Streaming || v.state == Pending {
		return
	}
	style := v.p.Muted
	if v.state == Failed {
		style = v.p.Warning // not accepted: the feedback, or why
	}
	text := v.resultText()
	if mode, ok := approval.AcceptedPlanMode(text); ok {
		// The result tells the model to carry the plan out; the person
		// reads what happened.
		b.text("✓ Accepted: cairn is now in "+mode+" mode.", v.p.Success)
		return
	}
	if text != "" {
		b.wrapped(text, style, b.limit(errorLimit))
	}
}

// planLimit is how many lines of a plan a collapsed box shows: more than
// other tools' output, since the person is asked to accept all of it.
const planLimit = 30
