package toolset

import (
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// A switch starts with every tool on; SetActive leaves exactly the named
// ones declared and callable, names the unknown, and a tool that arrives
// later is on.
func TestSwitchSetsActiveTools(t *testing.T) {
	reg := Static([]core.Tool{named{"read", core.CategoryInfo}, named{"write", core.CategoryEdit}, named{"bash", core.CategoryExec}})
	src := &fixed{tools: []core.Tool{named{"mcp__s__x", core.CategoryMCP}}}
	reg.Add(src)
	sw := NewSwitch(reg)
	if got := sw.Active(); !slices.Equal(got, []string{"read", "write", "bash", "mcp__s__x"}) {
		t.Fatalf("active before any choice %v", got)
	}
	unknown := sw.SetActive([]string{"read", "nope", "mcp__s__x", "nope"})
	if !slices.Equal(unknown, []string{"nope"}) {
		t.Errorf("unknown %v", unknown)
	}
	if got := namesOf(sw.Tools()); !slices.Equal(got, []string{"read", "mcp__s__x"}) {
		t.Errorf("declared %v", got)
	}
	if got := namesOf(sw.All()); !slices.Equal(got, []string{"read", "write", "bash", "mcp__s__x"}) {
		t.Errorf("all %v", got)
	}
	if sw.Find("bash") != nil || sw.Find("read") == nil {
		t.Error("a switched-off tool is callable, or an active one is not")
	}
	src.tools = append(src.tools, named{"mcp__s__y", core.CategoryMCP})
	if got := sw.Active(); !slices.Equal(got, []string{"read", "mcp__s__x", "mcp__s__y"}) {
		t.Errorf("a tool new to the registry is not active: %v", got)
	}
	sw.SetActive(nil)
	if got := sw.Tools(); len(got) != 0 {
		t.Errorf("no tool named, still declared %v", namesOf(got))
	}
}
