package toolset

import (
	"context"

	"github.com/cairn-dev/cairn/core"
)

// View is a Set narrowed by a filter: what a mode or an agent definition
// (a subagent's tools) leaves of its parent. It can only remove tools, so
// a view never grants more than its parent.
type View struct {
	parent Set
	keep   func(core.Tool) bool
	// declaredOnly leaves calls alone: Find finds what the parent finds.
	declaredOnly bool
}

// Filter returns the view of parent keeping the tools for which keep
// returns true, in declarations and in calls alike.
func Filter(parent Set, keep func(core.Tool) bool) *View {
	return &View{parent: parent, keep: keep}
}

// FilterDeclared returns the view of parent declaring only the tools for
// which keep returns true, while calls still find every tool the parent
// finds: for a mode (plan mode) that hides what it will refuse, so the
// model is not offered it, and lets the approval gate say why a call of a
// hidden tool did not run. keep is asked again at every request, so a
// mode switched mid-session changes the next request's tools.
func FilterDeclared(parent Set, keep func(core.Tool) bool) *View {
	return &View{parent: parent, keep: keep, declaredOnly: true}
}

// Tools returns the parent's tools that the filter keeps.
func (v *View) Tools() []core.Tool {
	var out []core.Tool
	for _, t := range v.parent.Tools() {
		if v.keep(t) {
			out = append(out, t)
		}
	}
	return out
}

// Find returns the parent's tool of that name when the filter keeps it.
func (v *View) Find(name string) core.Tool {
	if t := v.parent.Find(name); t != nil && (v.declaredOnly || v.keep(t)) {
		return t
	}
	return nil
}

// Wait is the parent's wait.
func (v *View) Wait(ctx context.Context, note func(Note)) { v.parent.Wait(ctx, note) }
