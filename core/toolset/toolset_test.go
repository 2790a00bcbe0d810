package toolset

import (
	"context"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// named is a tool that is only a name and a category.
type named struct {
	name string
	cat  core.ApprovalCategory
}

func (t named) Spec() core.ToolSpec             { return core.ToolSpec{Name: t.name} }
func (t named) Category() core.ApprovalCategory { return t.cat }
func (t named) Kind() core.ToolKind             { return core.KindOther }
func (t named) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.TextResult(t.name), nil
}

func namesOf(tools []core.Tool) []string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Spec().Name)
	}
	return out
}

// A view (a mode, a subagent's definition) removes tools from both the
// declarations and the calls, and can never add one.
func TestViewOnlyNarrows(t *testing.T) {
	reg := Static([]core.Tool{named{"read", core.CategoryInfo}, named{"write", core.CategoryEdit}, named{"bash", core.CategoryExec}})
	readOnly := Filter(reg, func(t core.Tool) bool { return t.Category() == core.CategoryInfo })
	if got := namesOf(readOnly.Tools()); !slices.Equal(got, []string{"read"}) {
		t.Errorf("declared %v", got)
	}
	if readOnly.Find("write") != nil || readOnly.Find("read") == nil || readOnly.Find("nope") != nil {
		t.Error("a view found a tool it removes, or lost one it keeps")
	}
	nested := Filter(readOnly, func(core.Tool) bool { return true })
	if nested.Find("bash") != nil {
		t.Error("a view of a view got back a tool its parent removed")
	}
	// A registry without sources has nothing to wait for.
	reg.Wait(context.Background(), func(n Note) { t.Errorf("note %v", n) })
}

// Built-in tools keep their names: a source's tool of the same name is
// neither declared nor called.
func TestBuiltInNamesCannotBeTaken(t *testing.T) {
	reg := Static([]core.Tool{named{"read", core.CategoryInfo}})
	src := &fixed{tools: []core.Tool{named{"read", core.CategoryMCP}, named{"mcp__s__x", core.CategoryMCP}}}
	reg.Add(src)
	if got := namesOf(reg.Tools()); !slices.Equal(got, []string{"read", "mcp__s__x"}) {
		t.Errorf("declared %v", got)
	}
	if reg.Find("read").Category() != core.CategoryInfo {
		t.Error("a source's tool took a built-in tool's name")
	}
}

// fixed is a source whose tools never change and that has no parts.
type fixed struct{ tools []core.Tool }

func (f *fixed) Tools() []core.Tool { return f.tools }
func (f *fixed) Find(name string) core.Tool {
	for _, t := range f.tools {
		if t.Spec().Name == name {
			return t
		}
	}
	return nil
}
func (f *fixed) Starting() []string       { return nil }
func (f *fixed) Failures() []Failure      { return nil }
func (f *fixed) Changed() <-chan struct{} { return nil }
func (f *fixed) Part() string             { return "extension" }

// A declarations-only view hides tools from the model, asking its filter
// at every request, while calls still find them (for the gate to refuse
// with its reason), and never finds what its parent removed.
func TestFilterDeclaredHidesOnlyDeclarations(t *testing.T) {
	reg := Static([]core.Tool{named{"read", core.CategoryInfo}, named{"write", core.CategoryEdit}})
	planning := true
	v := FilterDeclared(reg, func(t core.Tool) bool { return !planning || t.Category() == core.CategoryInfo })
	if got := namesOf(v.Tools()); !slices.Equal(got, []string{"read"}) {
		t.Errorf("declared %v while planning", got)
	}
	if v.Find("write") == nil {
		t.Error("a declarations-only view lost a call")
	}
	planning = false
	if got := namesOf(v.Tools()); !slices.Equal(got, []string{"read", "write"}) {
		t.Errorf("declared %v after the switch", got)
	}
	narrowed := FilterDeclared(Filter(reg, func(t core.Tool) bool { return t.Spec().Name == "read" }), func(core.Tool) bool { return true })
	if narrowed.Find("write") != nil {
		t.Error("a declarations-only view found a tool its parent removed")
	}
}
