package toolview

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core/subagent"
)

// taskTitle is "task <agent>: <description>", with the child's turns and
// tokens as details.
func taskTitle(v *view) (string, string) {
	title := "task " + v.args.str("subagent_type")
	if d := v.args.str("description"); d != "" {
		title += ": " + d
	}
	var d subagent.Details
	if !v.details(&d) {
		return title, ""
	}
	var meta []string
	if d.Turns > 0 {
		meta = append(meta, fmt.Sprintf("%d turns", d.Turns))
	}
	if n := d.Usage.TotalTokens; n > 0 {
		meta = append(meta, fmt.Sprintf("%d tokens", n))
	}
	return title, strings.Join(meta, " · ")
}

// taskBody shows a running child's current step and, expanded, every step
// it took so far (its transcript as the TUI saw it); once done, the head
// of its answer (all of it, expanded) and where its transcript is kept.
func taskBody(v *view, b *box) {
	// A child waiting for an approval leaves its call pending: its step
	// (what it asks about) is still shown.
	if v.state == Streaming || v.state == Pending && v.Partial == nil {
		return
	}
	var d subagent.Details
	v.details(&d)
	if v.expanded {
		b.texts(v.Steps, v.p.Muted)
	}
	if v.Result == nil {
		if d.Step != "" {
			b.text("→ "+d.Step, v.p.Output)
		}
		return
	}
	text := v.resultText()
	lines := headLines(text, b.limit(headLimit))
	b.texts(lines, v.p.Output)
	b.elided(countLines(text)-len(lines), false)
	if v.expanded && d.Transcript != "" {
		b.text("transcript: "+d.Transcript, v.p.Dim)
	}
}
