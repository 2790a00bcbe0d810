package pi

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// knownDifference is one way cairn differs from pi on purpose: its Reason
// starts "deliberate:" and says why (TestPiDiffScenarios refuses any
// other, so a difference is fixed or argued for, never parked). The scenarios
// that show it name it; its rules adjust both transcripts before they are
// compared, and a rule that no longer changes the outcome fails the
// scenario, so the list cannot go stale.
type knownDifference struct {
	What   string `json:"what"`
	Reason string `json:"reason"`
	// Drop removes the frames that match any of these patterns, on both
	// sides.
	Drop []map[string]any `json:"drop"`
	// Ignore deletes a member (a dotted path, "*" for any key or index)
	// from the frames matching a pattern, on both sides.
	Ignore []struct {
		Match map[string]any `json:"match"`
		Path  string         `json:"path"`
	} `json:"ignore"`
	// Blank replaces a member (as Ignore) by "<blanked>" where it exists,
	// so that only its presence and place are compared.
	Blank []struct {
		Match map[string]any `json:"match"`
		Path  string         `json:"path"`
	} `json:"blank"`
	// SortKeys orders the members of the frames matching a pattern, at
	// every depth, on both sides: their order is then not compared.
	SortKeys []map[string]any `json:"sortKeys"`
	// MoveLast moves a member to the end of every object that has it, in
	// the frames matching a pattern, on both sides: its place is then not
	// compared.
	MoveLast []struct {
		Match map[string]any `json:"match"`
		Key   string         `json:"key"`
	} `json:"moveLast"`
	// Order sorts each run of consecutive frames that match these
	// patterns into the patterns' order, on both sides: the frames are
	// compared, their order within such a run is not.
	Order []map[string]any `json:"order"`
	// SkipFrames leaves the frames uncompared: for a difference so large
	// that no rule can describe it; the scenario still has to run on both.
	SkipFrames bool `json:"skipFrames"`
	// SkipRequests leaves the model's requests uncompared.
	SkipRequests bool `json:"skipRequests"`
	// Everywhere applies the difference to every scenario; it is stale
	// when it makes a difference in none.
	Everywhere bool `json:"everywhere"`
}

// compareDiffOutputs returns every problem: the differences between the
// two agents that the scenario's known differences do not explain, and
// each of the scenario's own known differences that no longer makes a
// difference. It also returns the known differences that did.
func compareDiffOutputs(sc *diffScenario, diffs map[string]knownDifference, cairn, pi *diffOutput) (problems, matter []string) {
	compare := func(skip string) []string {
		var active []knownDifference
		for _, name := range scenarioDifferences(sc, diffs) {
			if name != skip {
				active = append(active, diffs[name])
			}
		}
		var problems []string
		if !slices.ContainsFunc(active, func(d knownDifference) bool { return d.SkipFrames }) {
			problems = frameDiffs(prepareFrames(cairn, active), prepareFrames(pi, active), 8)
		}
		if !slices.ContainsFunc(active, func(d knownDifference) bool { return d.SkipRequests }) {
			problems = append(problems, requestDiffs(cairn, pi)...)
		}
		return problems
	}
	problems = compare("")
	if len(problems) > 0 {
		problems = append(problems, "frame types, cairn (-) vs pi (+):\n"+typeSequenceDiff(prepareFrames(cairn, nil), prepareFrames(pi, nil)))
	}
	for _, name := range scenarioDifferences(sc, diffs) {
		d := diffs[name]
		if len(compare(name)) > 0 {
			matter = append(matter, name)
			continue
		}
		if !d.Everywhere {
			problems = append(problems, fmt.Sprintf("known difference %q (%s) no longer shows in this scenario: remove it from the scenario (and from differences.json and the README if no scenario shows it)", name, d.What))
		}
	}
	return problems, matter
}

// scenarioDifferences names the differences that apply to sc: its own and
// those that apply everywhere.
func scenarioDifferences(sc *diffScenario, diffs map[string]knownDifference) []string {
	names := slices.Clone(sc.Differences)
	for _, name := range sortedKeys(diffs) {
		if diffs[name].Everywhere && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// prepareFrames copies out's frames, applies the differences' rules, and
// normalises what differs between any two runs.
func prepareFrames(out *diffOutput, active []knownDifference) []*line {
	var lines []*line
	for _, l := range out.frames {
		c := &line{text: l.text, value: cloneValue(l.value)}
		if slices.ContainsFunc(active, func(d knownDifference) bool { return d.drops(c) }) {
			continue
		}
		for _, d := range active {
			d.adjust(c)
		}
		lines = append(lines, c)
	}
	for _, d := range active {
		d.reorder(lines)
	}
	ids := newRenamer(out.root)
	for _, l := range lines {
		ids.rename(l.value, l.str("type") == "response")
		normalizeEstimates(l)
		normalize(l.value)
		dropNil(l.value)
	}
	return sortToolEnds(joinBashUpdates(lines))
}

// normalizeEstimates zeroes the token counts of compaction, which depend
// on the size of each agent's own system prompt and tools (the fake model
// counts a request's characters), and blanks the content of an assistant's
// message_start: pi serialises the frame late (README fact 4), so it may
// already hold the first content block.
func normalizeEstimates(l *line) {
	walk(l.value, func(key string, val any) any {
		switch key {
		case "tokensBefore", "estimatedTokensAfter":
			return zeroNumbers(val)
		}
		return val
	})
	if l.str("type") == "message_start" && l.str("message.role") == "assistant" {
		if m, ok := l.get("message").(*ordered); ok {
			m.set("content", "<late>")
		}
	}
}

func (d knownDifference) drops(l *line) bool {
	return slices.ContainsFunc(d.Drop, func(p map[string]any) bool { return matches(l.value, p) })
}

// adjust applies the difference's Ignore, Blank and SortKeys rules to l.
func (d knownDifference) adjust(l *line) {
	for _, ig := range d.Ignore {
		if matches(l.value, ig.Match) {
			deletePath(l.value, strings.Split(ig.Path, "."), nil)
		}
	}
	for _, b := range d.Blank {
		if matches(l.value, b.Match) {
			deletePath(l.value, strings.Split(b.Path, "."), "<blanked>")
		}
	}
	for _, m := range d.SortKeys {
		if matches(l.value, m) {
			sortKeysDeep(l.value)
		}
	}
	for _, m := range d.MoveLast {
		if matches(l.value, m.Match) {
			moveLastDeep(l.value, m.Key)
		}
	}
}

func moveLastDeep(v any, key string) {
	switch x := v.(type) {
	case *ordered:
		if val, ok := x.vals[key]; ok {
			x.del(key)
			x.set(key, val)
		}
		for _, e := range x.vals {
			moveLastDeep(e, key)
		}
	case []any:
		for _, e := range x {
			moveLastDeep(e, key)
		}
	}
}

// reorder applies the difference's Order rule to lines.
func (d knownDifference) reorder(lines []*line) {
	rank := func(l *line) int {
		return slices.IndexFunc(d.Order, func(p map[string]any) bool { return matches(l.value, p) })
	}
	for i := 0; i < len(lines); {
		j := i
		for j < len(lines) && rank(lines[j]) >= 0 {
			j++
		}
		sort.SliceStable(lines[i:j], func(a, b int) bool { return rank(lines[i+a]) < rank(lines[i+b]) })
		i = max(j, i+1)
	}
}

func sortKeysDeep(v any) {
	switch x := v.(type) {
	case *ordered:
		sort.Strings(x.keys)
		for _, e := range x.vals {
			sortKeysDeep(e)
		}
	case []any:
		for _, e := range x {
			sortKeysDeep(e)
		}
	}
}

// deletePath deletes the member at path, where "*" stands for every key
// or index, or sets it to blank when blank is not nil.
func deletePath(v any, path []string, blank any) {
	if len(path) == 0 {
		return
	}
	switch x := v.(type) {
	case *ordered:
		for _, k := range slices.Clone(x.keys) {
			if path[0] != "*" && path[0] != k {
				continue
			}
			switch {
			case len(path) > 1:
				deletePath(x.vals[k], path[1:], blank)
			case blank != nil:
				x.vals[k] = blank
			default:
				x.del(k)
			}
		}
	case []any:
		for i, e := range x {
			if path[0] == "*" || path[0] == fmt.Sprint(i) {
				deletePath(e, path[1:], blank)
			}
		}
	}
}

func cloneValue(v any) any {
	switch x := v.(type) {
	case *ordered:
		c := &ordered{keys: slices.Clone(x.keys), vals: make(map[string]any, len(x.vals))}
		for k, e := range x.vals {
			c.vals[k] = cloneValue(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = cloneValue(e)
		}
		return c
	}
	return v
}

// idKeys are the members that hold generated ids: of entries, sessions,
// messages and dialogs.
var idKeys = map[string]bool{"id": true, "parentId": true, "entryId": true, "sessionId": true, "firstKeptEntryId": true,
	"leafId": true, "targetId": true, "fromId": true, "parentSession": true, "newLeafId": true, "oldLeafId": true}

// renamer gives each generated id and session file of one run a name by
// order of first appearance (<id 1>, <session 1>), and writes the run's
// temporary root as <root>, so that two runs compare equal when their ids
// and files correspond.
type renamer struct {
	root  string
	names map[string]string
	ids   int
	files int
}

func newRenamer(root string) *renamer { return &renamer{root: root, names: map[string]string{}} }

// rename renames in one frame; a response's own id is the host's and stays.
func (r *renamer) rename(frame any, isResponse bool) {
	top, _ := frame.(*ordered)
	var visit func(v any)
	visit = func(v any) {
		switch x := v.(type) {
		case *ordered:
			for _, k := range x.keys {
				val := x.vals[k]
				if s, ok := val.(string); ok {
					switch {
					case strings.HasPrefix(s, r.root+"/agent/sessions/"):
						x.vals[k] = r.name(s, "session")
					case idKeys[k] && !(isResponse && x == top && k == "id") && !stableID(s):
						x.vals[k] = r.name(s, "id")
					default:
						x.vals[k] = strings.ReplaceAll(s, r.root, "<root>")
					}
					continue
				}
				visit(val)
			}
		case []any:
			for i, e := range x {
				if s, ok := e.(string); ok {
					x[i] = strings.ReplaceAll(s, r.root, "<root>")
					continue
				}
				visit(e)
			}
		}
	}
	visit(frame)
}

// stableID reports whether an id is the same in every run: empty, a
// model's, or a tool call's from the fake model's script.
func stableID(s string) bool {
	return s == "" || strings.HasPrefix(s, "fake-") || s == "down-gpt" || strings.HasPrefix(s, "call_") || strings.HasPrefix(s, "toolu_")
}

func (r *renamer) name(s, kind string) string {
	if n, ok := r.names[s]; ok {
		return n
	}
	if kind == "session" {
		r.files++
		r.names[s] = fmt.Sprintf("<session %d>", r.files)
	} else {
		r.ids++
		r.names[s] = fmt.Sprintf("<id %d>", r.ids)
	}
	return r.names[s]
}

// requestDiffs compares the conversations the two models received.
func requestDiffs(cairn, pi *diffOutput) []string {
	conv := func(o *diffOutput) [][]string {
		var out [][]string
		for _, r := range o.requests {
			c := conversation(r.Body)
			for i := range c {
				c[i] = strings.ReplaceAll(c[i], o.root, "<root>")
			}
			out = append(out, c)
		}
		return out
	}
	got, want := conv(cairn), conv(pi)
	var problems []string
	if len(got) != len(want) {
		problems = append(problems, fmt.Sprintf("cairn's model got %d requests, pi's %d", len(got), len(want)))
	}
	for i := range min(len(got), len(want)) {
		if !slices.Equal(got[i], want[i]) {
			problems = append(problems, fmt.Sprintf("request %d: cairn's model saw\n  %.1500q\npi's saw\n  %.1500q", i, got[i], want[i]))
		}
	}
	return problems
}

// frameDiffs lists up to limit frames that differ, each with its
// differences and both frames.
func frameDiffs(got, want []*line, limit int) []string {
	var out []string
	for i := 0; i < max(len(got), len(want)) && len(out) < limit; i++ {
		var g, w any
		if i < len(got) {
			g = got[i].value
		}
		if i < len(want) {
			w = want[i].value
		}
		if diffs := diffValues("", g, w); len(diffs) > 0 {
			out = append(out, fmt.Sprintf("frame %d (%s vs pi %s):\n  %s\n  cairn: %s\n  pi:    %s", i, typeOf(g), typeOf(w),
				strings.Join(diffs, "\n  "), clip(got, i), clip(want, i)))
		}
	}
	if len(got) != len(want) {
		out = append(out, fmt.Sprintf("cairn wrote %d frames, pi %d", len(got), len(want)))
	}
	return out
}

// typeSequenceDiff shows the two runs' frame types as a line diff (a
// longest common subsequence), to make an extra or missing frame easy to
// see.
func typeSequenceDiff(got, want []*line) string {
	name := func(l *line) string {
		s := typeOf(l.value)
		if id := l.str("id"); l.str("type") == "response" && id != "" {
			s += " " + id
		}
		return s
	}
	a, b := make([]string, len(got)), make([]string, len(want))
	for i, l := range got {
		a[i] = name(l)
	}
	for i, l := range want {
		b[i] = name(l)
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var s strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			fmt.Fprintf(&s, "    %s\n", a[i])
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			fmt.Fprintf(&s, "  + %s\n", b[j])
			j++
		default:
			fmt.Fprintf(&s, "  - %s\n", a[i])
			i++
		}
	}
	return s.String()
}
