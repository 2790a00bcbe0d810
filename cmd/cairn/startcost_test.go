package main

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// What a headless start may cost before main, guarded without timing:
// the allocations of every package initialiser (GODEBUG=inittrace=1
// counts them, the same on every run) and the packages linked. Raising a
// budget or adding to testdata/headless-deps.txt is a decision to make in
// review, with the reason beside it; docs/benchmarks.md has the figures.

// initAllocBudget and initByteBudget bound what the initialisers of all
// the packages the headless build links allocate together. After issue 44 they
// allocated about 1,600 times and 235 KB (of which the MCP SDK and its
// encoding/gob and jsonschema-go about 850 and 120 KB); before, 3,930
// and 470 KB (core/extension's patterns alone 1,723 allocations). The same
// session's other work added libraries whose initialisers cairn cannot
// defer: go.yaml.in/yaml/v3 (front matter, 276 allocations, 26 KB) and
// golang.org/x/net/html (web_fetch, 41 allocations, 127 KB of tables);
// with them, about 2,050 and 400 KB.
const (
	initAllocBudget = 2200
	initByteBudget  = 420 << 10
)

// initCost is one package initialiser's line of GODEBUG=inittrace=1:
// "init PKG @T ms, C ms clock, B bytes, A allocs".
type initCost struct {
	pkg           string
	bytes, allocs int
}

// parseInitTrace reads the init lines of GODEBUG=inittrace=1 output and
// ignores every other line (the program's own output).
func parseInitTrace(out string) []initCost {
	var costs []initCost
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, errB := strconv.Atoi(f[7])
		a, errA := strconv.Atoi(f[9])
		if errB != nil || errA != nil || b < 0 || a < 0 {
			continue
		}
		costs = append(costs, initCost{pkg: f[1], bytes: b, allocs: a})
	}
	return costs
}

func TestParseInitTrace(t *testing.T) {
	out := "init internal/bytealg @0.006 ms, 0.004 ms clock, 0 bytes, 0 allocs\n" +
		"cairn dev\n" +
		"init github.com/cairn-dev/cairn/core/extension @3.8 ms, 0.41 ms clock, 119536 bytes, 1723 allocs\n" +
		"init broken @1 ms, 1 ms clock, x bytes, 2 allocs\n"
	got := parseInitTrace(out)
	want := []initCost{{"internal/bytealg", 0, 0}, {"github.com/cairn-dev/cairn/core/extension", 119536, 1723}}
	if !slices.Equal(got, want) {
		t.Fatalf("parseInitTrace = %v, want %v", got, want)
	}
}

func FuzzParseInitTrace(f *testing.F) {
	f.Add("init runtime @0.036 ms, 0.15 ms clock, 0 bytes, 0 allocs\n")
	f.Add("init a @1 ms, 2 ms clock, -5 bytes, 3 allocs\ninit\n")
	f.Fuzz(func(t *testing.T, out string) {
		for _, c := range parseInitTrace(out) {
			if c.bytes < 0 || c.allocs < 0 || c.pkg == "" {
				t.Fatalf("parsed %+v from %q", c, out)
			}
		}
	})
}

// TestHeadlessStartInitialisersWithinBudget builds the headless cairn and
// sums what its package initialisers allocate in a start.
func TestHeadlessStartInitialisersWithinBudget(t *testing.T) {
	dir := buildPair(t, false)
	cmd := exec.Command(filepath.Join(dir, "cairn"), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "CAIRN_DIR="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cairn --version: %v\n%s", err, out)
	}
	costs := parseInitTrace(string(out))
	if len(costs) < 50 {
		t.Fatalf("GODEBUG=inittrace=1 gave %d init lines; its format may have changed:\n%.2000s", len(costs), out)
	}
	var bytes, allocs int
	for _, c := range costs {
		bytes += c.bytes
		allocs += c.allocs
	}
	t.Logf("package initialisers of a headless start: %d allocations, %d bytes", allocs, bytes)
	if allocs <= initAllocBudget && bytes <= initByteBudget {
		return
	}
	slices.SortFunc(costs, func(a, b initCost) int { return cmp.Compare(b.allocs, a.allocs) })
	var top strings.Builder
	for _, c := range costs[:min(8, len(costs))] {
		fmt.Fprintf(&top, "\n  %6d allocs %8d bytes  %s", c.allocs, c.bytes, c.pkg)
	}
	t.Errorf("the headless start's package initialisers allocate %d times and %d bytes, over the budget of %d and %d: "+
		"build what a feature needs when it is first used (sync.OnceValue), or raise the budget in startcost_test.go "+
		"saying why. The largest:%s", allocs, bytes, initAllocBudget, initByteBudget, top.String())
}

// readAllowedDeps reads testdata/headless-deps.txt: one import path a
// line, # starting a comment.
func readAllowedDeps(t *testing.T) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "headless-deps.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var allowed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if fields := strings.Fields(line); len(fields) == 1 {
			allowed = append(allowed, fields[0])
		} else if len(fields) > 1 {
			t.Fatalf("testdata/headless-deps.txt: %q is not one import path", sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return allowed
}

// TestHeadlessBuildLinksOnlyAllowedPackages: every package outside the
// standard library that the headless build links is on
// testdata/headless-deps.txt, so a new heavy import is a visible change.
func TestHeadlessBuildLinksOnlyAllowedPackages(t *testing.T) {
	allowed := readAllowedDeps(t)
	out, err := exec.Command("go", "list", "-tags", "headless", "-deps",
		"-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	used := map[string]bool{}
	for _, dep := range strings.Fields(string(out)) {
		ok := false
		for _, a := range allowed {
			if dep == a || strings.HasPrefix(dep, a+"/") {
				ok, used[a] = true, true
				break
			}
		}
		if !ok {
			t.Errorf("the headless build links %s, which testdata/headless-deps.txt does not list: "+
				"keep it out of the headless modes' imports, or add it there with the reason", dep)
		}
	}
	for _, a := range allowed {
		if !used[a] {
			t.Errorf("testdata/headless-deps.txt lists %s, which the headless build no longer links: remove it", a)
		}
	}
}
