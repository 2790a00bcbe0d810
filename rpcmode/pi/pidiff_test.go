package pi

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

// piDiffDir holds the differential scenarios (one NAME.json each) and the
// list of cairn's known differences from pi (differences.json).
const piDiffDir = "testdata/pidiff"

// diffScenario is one differential scenario: a fake model's script and the
// commands a host sends, with waits, to both agents.
type diffScenario struct {
	name string
	// About says what the scenario shows.
	About string `json:"about"`
	// Args are the flags after --mode rpc; both agents get the same.
	// Without them: --provider fake-openai --model fake-gpt.
	Args []string `json:"args"`
	// Settings is the agent directory's settings.json.
	Settings json.RawMessage `json:"settings"`
	// Setup is a bash script run in the project directory first.
	Setup string `json:"setup"`
	// Script is the fake model's script (fakeScript).
	Script json.RawMessage `json:"script"`
	Steps  []diffStep      `json:"steps"`
	// Differences name entries of differences.json: the ways cairn is
	// known to differ from pi in this scenario.
	Differences []string `json:"differences"`
}

// diffStep is one step of a scenario; exactly one of its actions is set.
type diffStep struct {
	// Send writes a command; a string "$name" in it is replaced by the
	// value a wait saved as name.
	Send json.RawMessage `json:"send"`
	// Wait waits for the next frame (Count-th, if set) whose fields, by
	// dotted path, equal these; Save keeps values of that frame by path.
	Wait  map[string]any    `json:"wait"`
	Count int               `json:"count"`
	Save  map[string]string `json:"save"`
	// Held waits until an answer of the fake model waits at this gate.
	Held string `json:"held"`
	// Release lets the answers at this gate go on.
	Release string `json:"release"`
}

// TestPiDiff is the differential test of issue 33: every scenario of
// testdata/pidiff runs against pi 0.87.1 and against cairn, each started as
// a pi host starts pi (`--mode rpc` with the scenario's flags, a
// models.json naming a fake model) and each with its own fake model
// playing the same script. Their stdout frames (events and responses, up
// to the final get_messages and get_state) and the conversations their
// models received must be equal after normalising ids, timestamps, paths
// and usage, except for the scenario's known differences.
//
// pi is found as for TestPiRpcClient087 (PI_NODE with pi's RpcClient
// package) or as ../shared/tools/pi-install.sh leaves it (CAIRN_PI names
// its wrapper, or the default cache holds one). Without pi the test is
// skipped, unless CI is set: then it fails.
func TestPiDiff(t *testing.T) {
	diffs := loadDifferences(t)
	scenarios := loadScenarios(t, diffs)
	piCmd := findPi(t)
	cairn := buildCairnForDiff(t)
	// The differences that apply everywhere are stale when no scenario
	// shows them; checked once every scenario has run.
	var mu sync.Mutex
	shown, ran := map[string]bool{}, 0
	t.Cleanup(func() {
		if ran < len(scenarios) {
			return
		}
		for _, name := range sortedKeys(diffs) {
			if diffs[name].Everywhere && !shown[name] {
				t.Errorf("known difference %q (%s) shows in no scenario: remove it from differences.json and the README", name, diffs[name].What)
			}
		}
	})
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			matter := runDiffScenario(t, sc, diffs, piCmd, []string{cairn})
			mu.Lock()
			defer mu.Unlock()
			ran++
			for _, name := range matter {
				shown[name] = true
			}
		})
	}
}

// TestPiDiffScenarios checks the scenarios and the difference list offline:
// each parses, has steps, names only listed differences, and every listed
// difference is named by a scenario, says what and why it is deliberate,
// and is in the README's list.
func TestPiDiffScenarios(t *testing.T) {
	diffs := loadDifferences(t)
	scenarios := loadScenarios(t, diffs)
	if len(scenarios) < 40 {
		t.Errorf("%d scenarios, want at least 40", len(scenarios))
	}
	used := map[string]bool{}
	for _, sc := range scenarios {
		for _, d := range sc.Differences {
			used[d] = true
		}
		for i, st := range sc.Steps {
			n := 0
			for _, set := range []bool{st.Send != nil, st.Wait != nil, st.Held != "", st.Release != ""} {
				if set {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: step %d has %d actions, want 1", sc.name, i, n)
			}
		}
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range diffs {
		if !strings.Contains(string(readme), "`"+name+"`") {
			t.Errorf("difference %q is not in the README's list (Checked against pi 0.87.1 itself)", name)
		}
		if !used[name] && !d.Everywhere {
			t.Errorf("difference %q is named by no scenario: delete it", name)
		}
		if d.What == "" || !strings.HasPrefix(d.Reason, "deliberate: ") || len(d.Reason) < len("deliberate: ")+20 {
			t.Errorf("difference %q must say what differs and, starting \"deliberate: \", why cairn differs on purpose (one that is not on purpose is fixed, not listed)", name)
		}
	}
}

func loadDifferences(t *testing.T) map[string]knownDifference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(piDiffDir, "differences.json"))
	if err != nil {
		t.Fatal(err)
	}
	var diffs map[string]knownDifference
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&diffs); err != nil {
		t.Fatalf("differences.json: %v", err)
	}
	return diffs
}

func loadScenarios(t *testing.T, diffs map[string]knownDifference) []*diffScenario {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(piDiffDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*diffScenario
	for _, p := range paths {
		if filepath.Base(p) == "differences.json" {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sc := &diffScenario{name: strings.TrimSuffix(filepath.Base(p), ".json")}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(sc); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(sc.Steps) == 0 || sc.About == "" {
			t.Fatalf("%s: a scenario needs steps and an about", p)
		}
		for _, d := range sc.Differences {
			if _, ok := diffs[d]; !ok {
				t.Fatalf("%s: difference %q is not in differences.json", p, d)
			}
		}
		if sc.Script == nil {
			sc.Script = json.RawMessage(`{"turns":[]}`)
		}
		if sc.Args == nil {
			sc.Args = []string{"--provider", "fake-openai", "--model", "fake-gpt"}
		}
		out = append(out, sc)
	}
	return out
}

// findPi returns the command that runs pi 0.87.1, or skips (fails under
// CI) when there is none.
func findPi(t *testing.T) []string {
	t.Helper()
	if p := os.Getenv("CAIRN_PI"); p != "" {
		return []string{p}
	}
	cli, _ := filepath.Abs(filepath.Join(rpcClient087Modules, "dist", "cli.js"))
	if node := os.Getenv("PI_NODE"); node != "" && fileReadable(cli) {
		return []string{node, cli}
	}
	cache := os.Getenv("PI_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "cairn-pi")
	}
	if w := filepath.Join(cache, "pi-0.87.1", "pi"); fileReadable(w) {
		return []string{w}
	}
	const how = "install it with ../shared/tools/pi-install.sh (and set CAIRN_PI to the wrapper it prints, or PI_NODE as .ci/run does)"
	if os.Getenv("CI") != "" {
		t.Fatalf("pi 0.87.1 is not installed; CI is set, so the differential test may not be skipped: %s", how)
	}
	t.Skipf("pi 0.87.1 is not installed, so cairn is not compared with it; to run this test, %s", how)
	return nil
}

// rpcClient087Modules is where npm ci puts pi 0.87.1 for TestPiRpcClient087.
const rpcClient087Modules = "testdata/rpcclient087/node_modules/@earendil-works/pi-coding-agent"

func fileReadable(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// buildCairnForDiff builds cmd/cairn into a temporary directory.
func buildCairnForDiff(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "cairn")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if !fileReadable(gobin) {
		gobin = "go"
	}
	build := exec.Command(gobin, "build", "-o", bin, "github.com/cairn-dev/cairn/cmd/cairn")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build cairn: %v\n%s", err, out)
	}
	return bin
}

// diffOutput is what one agent did in a scenario.
type diffOutput struct {
	root     string
	frames   []*line
	requests []fakeRequest
}

// runDiffScenario runs sc against both agents at once and compares them;
// it returns the known differences that made a difference.
func runDiffScenario(t *testing.T, sc *diffScenario, diffs map[string]knownDifference, piCmd, cairnCmd []string) []string {
	var pi, cairn *diffOutput
	var piErr, cairnErr error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		pi, piErr = playScenario(t, sc, "pi", piCmd, "PI_CODING_AGENT_DIR")
	}()
	go func() {
		defer wg.Done()
		cairn, cairnErr = playScenario(t, sc, "cairn", cairnCmd, "CAIRN_DIR")
	}()
	wg.Wait()
	if piErr != nil {
		t.Fatalf("pi: %v", piErr)
	}
	if cairnErr != nil {
		t.Fatalf("cairn: %v", cairnErr)
	}
	problems, matter := compareDiffOutputs(sc, diffs, cairn, pi)
	for _, problem := range problems {
		t.Error(problem)
	}
	return matter
}

// playScenario runs sc against one agent: argv, then --mode rpc and the
// scenario's flags, with its agent directory in the environment variable
// dirVar.
func playScenario(t *testing.T, sc *diffScenario, name string, argv []string, dirVar string) (*diffOutput, error) {
	root := filepath.Join(t.TempDir(), name)
	llm := newFakeLLM(t, sc.Script)
	args := slices.Concat(argv, []string{"--mode", "rpc"}, sc.Args)
	r, err := startAgent(name, root, args, []string{dirVar + "=" + filepath.Join(root, "agent")}, sc, llm)
	if err != nil {
		return nil, err
	}
	for i, st := range sc.Steps {
		if err := r.step(st); err != nil {
			return nil, r.failure(fmt.Errorf("step %d: %w", i, err))
		}
	}
	if err := r.finish(); err != nil {
		return nil, r.failure(err)
	}
	if len(r.out.bad) > 0 {
		return nil, fmt.Errorf("%s wrote lines that are not JSON: %q", name, r.out.bad)
	}
	return &diffOutput{root: root, frames: r.out.all(), requests: llm.Requests()}, nil
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
