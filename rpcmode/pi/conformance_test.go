package pi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// scenarioStep is one step of an rpc-drive.js steps file.
type scenarioStep struct {
	Send  json.RawMessage `json:"send"`
	Raw   *string         `json:"raw"`
	Wait  map[string]any  `json:"wait"`
	Count int             `json:"count"`
	Sleep *int            `json:"sleep"`
	Close bool            `json:"close"`
}

// TestConformance replays every recorded pi scenario against Serve, with a
// Go fake LLM speaking the same script, and compares the output with pi's
// transcript: the same frames in the same order, with the same keys, texts,
// tool arguments and results, after normalising ids, timestamps, token
// counts and partial snapshots. cairn's deliberate differences are asserted
// by the scenario's deviations instead.
func TestConformance(t *testing.T) {
	// pi 0.73.1's transcripts, against --rpc-compat 0.73.
	t.Run("pi073", func(t *testing.T) { replayAll(t, "pi073", "pi", true) })
	// pi 0.87.1's, against cairn's default shapes.
	t.Run("pi087", func(t *testing.T) { replayAll(t, "pi087", "pi087", false) })
}

// replayAll replays every scenario of testdata/<local>, or of
// $CAIRN_SHARED/conformance/<shared> when that is set.
func replayAll(t *testing.T, local, shared string, compat073 bool) {
	dir := filepath.Join("testdata", local)
	if s := os.Getenv("CAIRN_SHARED"); s != "" {
		dir = filepath.Join(s, "conformance", shared)
	}
	steps, err := filepath.Glob(filepath.Join(dir, "scenarios", "*.steps.json"))
	if err != nil || len(steps) == 0 {
		t.Fatalf("no scenarios in %s: %v", dir, err)
	}
	for _, path := range steps {
		name := strings.TrimSuffix(filepath.Base(path), ".steps.json")
		t.Run(name, func(t *testing.T) { replay(t, dir, name, local, compat073) })
	}
}

func replay(t *testing.T, dir, name, version string, compat073 bool) {
	read := func(suffix string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, "scenarios", name+suffix))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		return b
	}
	cwd := t.TempDir()
	if setup := read(".setup.sh"); setup != nil {
		cmd := exec.Command("bash", "-c", string(setup))
		cmd.Dir = cwd
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("setup: %v\n%s", err, out)
		}
	}
	llm := newFakeLLM(t, read(".script.json"))
	models := fakeModels(llm.srv.URL)
	cfg := rigConfig{models: models, cwd: cwd, thinking: core.ThinkingMedium}
	args := strings.Fields(string(read(".args")))
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case "--model":
			for _, m := range models {
				if m.ID == args[i+1] {
					cfg.start = m
				}
			}
		case "--thinking":
			cfg.thinking = core.ThinkingLevel(args[i+1])
		}
	}
	var steps []scenarioStep
	if err := json.Unmarshal(read(".steps.json"), &steps); err != nil {
		t.Fatal(err)
	}
	cfg.compat073 = compat073
	cfg.systemSections = !compat073 // pi 0.87 declares the prompt in system messages
	r := newRig(t, cfg)
	for _, st := range steps {
		switch {
		case st.Send != nil:
			var b bytes.Buffer
			if err := json.Compact(&b, st.Send); err != nil {
				t.Fatal(err)
			}
			r.raw(b.String() + "\n")
		case st.Raw != nil:
			r.raw(*st.Raw)
		case st.Wait != nil:
			for range max(st.Count, 1) {
				r.wait(st.Wait)
			}
		case st.Close:
			r.in.Close()
		}
		// Sleeps let pi catch up; Serve's answers are awaited by the
		// waits and by the end of input.
	}
	if err := r.close(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if len(r.out.bad) > 0 {
		t.Fatalf("output lines that are not JSON: %q", r.out.bad)
	}
	got := r.out.all()
	want := readTranscript(t, filepath.Join(dir, name+".jsonl"))
	checkOneResponsePerFrame(t, got, r.frames)
	if compat073 {
		got = checkSettled(t, got) // pi 0.73 had no agent_settled
	}
	checkInterruptMode(t, got)
	dev := deviations[version+"/"+name]
	if dev == nil {
		dev = deviations[name]
	}
	for _, l := range slices.Concat(got, want) {
		if compat073 {
			dropFor073(l.value)
		}
		dropLaterPiFields(l.value)
		normalize(l.value)
		dropNil(l.value)
	}
	if dev != nil {
		got, want = dev(t, got, want)
	}
	got, want = joinBashUpdates(got), joinBashUpdates(want)
	got, want = sortToolEnds(got), sortToolEnds(want)
	compareTranscripts(t, got, want)
	if check := requestDeviations[version+"/"+name]; check != nil {
		check(t, llm.Requests())
		return
	}
	compareRequests(t, llm.Requests(), filepath.Join(dir, name+".requests.jsonl"))
}

func readTranscript(t *testing.T, path string) []*line {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*line
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		v, err := parseOrdered(sc.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, &line{text: sc.Text(), value: v})
	}
	return out
}

// checkOneResponsePerFrame asserts cairn's promise: every command frame
// got exactly one response.
func checkOneResponsePerFrame(t *testing.T, got []*line, frames int) {
	t.Helper()
	n := 0
	ids := map[string]int{}
	for _, l := range got {
		if l.str("type") == "response" {
			n++
			if id := l.str("id"); id != "" {
				ids[id]++
			}
		}
	}
	if n != frames {
		t.Errorf("%d responses for %d command lines", n, frames)
	}
	for id, c := range ids {
		if c != 1 {
			t.Errorf("%d responses with id %q", c, id)
		}
	}
}

// checkSettled asserts cairn's agent_settled (exactly one after the last
// agent_end of each prompt; pi has no such frame) and removes it.
func checkSettled(t *testing.T, got []*line) []*line {
	t.Helper()
	var out []*line
	open := false
	for _, l := range got {
		switch l.str("type") {
		case "agent_end":
			open = true
		case "agent_settled":
			if !open {
				t.Errorf("agent_settled without an agent_end before it")
			}
			open = false
			continue
		}
		out = append(out, l)
	}
	if open {
		t.Errorf("an agent_end was never followed by agent_settled")
	}
	return out
}

// compareTranscripts reports the first differences between the frames.
func compareTranscripts(t *testing.T, got, want []*line) {
	t.Helper()
	for _, d := range frameDiffs(got, want, 8) {
		t.Error(d)
	}
}

func typeOf(v any) string {
	s, _ := lookup(v, "type").(string)
	if s == "response" {
		c, _ := lookup(v, "command").(string)
		return "response(" + c + ")"
	}
	return s
}

func clip(lines []*line, i int) string {
	if i >= len(lines) {
		return "(none)"
	}
	b, _ := json.Marshal(plain(lines[i].value))
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// diffValues lists differences of keys (and their order) and values.
func diffValues(path string, got, want any) []string {
	switch w := want.(type) {
	case *ordered:
		g, ok := got.(*ordered)
		if !ok {
			return []string{fmt.Sprintf("%s: cairn has %s, pi an object", orRoot(path), describe(got))}
		}
		var out []string
		if !slices.Equal(g.keys, w.keys) {
			out = append(out, fmt.Sprintf("%s: keys %v, pi %v", orRoot(path), g.keys, w.keys))
		}
		for _, k := range w.keys {
			if gv, ok := g.vals[k]; ok {
				out = append(out, diffValues(path+"."+k, gv, w.vals[k])...)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: cairn has %s, pi an array", orRoot(path), describe(got))}
		}
		if len(g) != len(w) {
			return []string{fmt.Sprintf("%s: %d items, pi %d", orRoot(path), len(g), len(w))}
		}
		var out []string
		for i := range w {
			out = append(out, diffValues(fmt.Sprintf("%s.%d", path, i), g[i], w[i])...)
		}
		return out
	}
	if !sameJSON(got, want) {
		return []string{fmt.Sprintf("%s: %s, pi %s", orRoot(path), describe(got), describe(want))}
	}
	return nil
}

func orRoot(path string) string {
	if path == "" {
		return "(frame)"
	}
	return strings.TrimPrefix(path, ".")
}

func describe(v any) string {
	b, _ := json.Marshal(plain(v))
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// compareRequests checks that the model saw the same conversation as pi's
// model did: per request, the roles and texts of the messages after the
// system prompt.
func compareRequests(t *testing.T, got []fakeRequest, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var want []fakeRequest
	for _, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var r struct {
			Path string         `json:"path"`
			Body map[string]any `json:"body"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		want = append(want, fakeRequest{Path: r.Path, Body: r.Body})
	}
	if len(got) != len(want) {
		t.Errorf("the model got %d requests, pi's %d", len(got), len(want))
		return
	}
	for i := range want {
		g, w := conversation(got[i].Body), conversation(want[i].Body)
		if !slices.Equal(g, w) {
			t.Errorf("request %d: the model saw\n  %.2000q\npi's saw\n  %.2000q", i, g, w)
		}
	}
}

// conversation summarises a request's messages as "role: text" lines,
// with tool calls as "role: call name args" and results as
// "tool: result id: text".
func conversation(body map[string]any) []string {
	msgs, _ := body["messages"].([]any)
	var out []string
	add := func(format string, args ...any) { out = append(out, normalizeText(fmt.Sprintf(format, args...))) }
	for _, m := range msgs {
		m, _ := m.(map[string]any)
		role, _ := m["role"].(string)
		switch role {
		case "system", "developer":
			continue
		case "tool":
			add("tool: result %v: %v", m["tool_call_id"], m["content"])
			continue
		}
		switch c := m["content"].(type) {
		case string:
			if c != "" {
				add("%s: %s", role, c)
			}
		case []any:
			for _, part := range c {
				p, _ := part.(map[string]any)
				switch p["type"] {
				case "text":
					add("%s: %v", role, p["text"])
				case "thinking":
					add("%s: thinking %v", role, p["thinking"])
				case "tool_use":
					args, _ := json.Marshal(p["input"])
					add("%s: call %v %s", role, p["name"], args)
				case "tool_result":
					add("tool: result %v: %v", p["tool_use_id"], p["content"])
				case "image", "image_url":
					add("%s: an image", role)
				}
			}
		}
		if calls, ok := m["tool_calls"].([]any); ok {
			for _, c := range calls {
				c, _ := c.(map[string]any)
				f, _ := c["function"].(map[string]any)
				add("%s: call %v %v", role, f["name"], f["arguments"])
			}
		}
	}
	return out
}
