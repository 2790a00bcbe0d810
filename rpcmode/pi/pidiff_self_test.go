package pi

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestPiDiffCanFail shows, offline, that TestPiDiff's comparison is not
// vacuous. pi 0.87.1's recorded d-state transcript is compared with a copy
// of itself as another run would write it (other ids, timestamps and
// temporary root): the two must compare equal, and each of these breakages
// must make them differ:
//   - no normalisation at all (the raw frames differ: ids and times);
//   - ids kept as they are rather than named by first appearance;
//   - one value changed, one frame dropped, a session id that changes,
//     with no known difference applied and with every one of
//     differences.json that applies everywhere;
//   - a known difference that a scenario names but that does not show.
func TestPiDiffCanFail(t *testing.T) {
	recorded := readTranscript(t, "testdata/pi087/d-state.jsonl")
	sc := &diffScenario{name: "d-state"}
	pi := &diffOutput{root: "/tmp/run-pi", frames: recorded}
	again := func(edit func(frames []*line) []*line) *diffOutput {
		var frames []*line
		for _, l := range recorded {
			frames = append(frames, &line{text: l.text, value: anotherRun(cloneValue(l.value))})
		}
		if edit != nil {
			frames = edit(frames)
		}
		return &diffOutput{root: "/tmp/run-cairn", frames: frames}
	}

	if problems, _ := compareDiffOutputs(sc, nil, again(nil), pi); len(problems) > 0 {
		t.Fatalf("the same transcript with other ids and times differs from itself:\n%s", strings.Join(problems, "\n"))
	}

	// Broken normalisations.
	raw := func(o *diffOutput) []*line {
		var out []*line
		for _, l := range o.frames {
			out = append(out, &line{text: l.text, value: cloneValue(l.value)})
		}
		return out
	}
	if len(frameDiffs(raw(again(nil)), raw(pi), 8)) == 0 {
		t.Error("without normalisation the two runs compare equal: the copy is not another run's")
	}
	// A renaming that keeps each id's own value, as a normalisation that
	// forgot ids would.
	byValue := func(o *diffOutput) []*line {
		lines := raw(o)
		for _, l := range lines {
			walk(l.value, func(key string, val any) any {
				if s, ok := val.(string); ok && idKeys[key] && !stableID(s) {
					return "<id " + s + ">"
				}
				return val
			})
			normalize(l.value)
			dropNil(l.value)
		}
		return lines
	}
	if len(frameDiffs(byValue(again(nil)), byValue(pi), 8)) == 0 {
		t.Error("with ids kept as they are the two runs compare equal: the renaming is not what makes them equal")
	}

	// Real differences.
	breakages := map[string]func(frames []*line) []*line{
		"a changed text": func(frames []*line) []*line {
			for _, l := range frames {
				if l.str("command") == "get_state" {
					l.value.(*ordered).vals["data"].(*ordered).set("thinkingLevel", "high")
					break
				}
			}
			return frames
		},
		"a dropped frame": func(frames []*line) []*line { return append(frames[:3:3], frames[4:]...) },
		"another session's id": func(frames []*line) []*line {
			for i := len(frames) - 1; i >= 0; i-- {
				if frames[i].str("command") == "get_state" {
					frames[i].get("data").(*ordered).set("sessionId", "other-session")
					return frames
				}
			}
			t.Fatal("no get_state answer in the transcript")
			return frames
		},
	}
	diffs := loadDifferences(t)
	if problems, _ := compareDiffOutputs(sc, diffs, again(nil), pi); len(problems) > 0 {
		t.Fatalf("with the known differences applied, the same transcript differs from itself:\n%s", strings.Join(problems, "\n"))
	}
	for name, edit := range breakages {
		if problems, _ := compareDiffOutputs(sc, nil, again(edit), pi); len(problems) == 0 {
			t.Errorf("%s went unnoticed", name)
		}
		if problems, _ := compareDiffOutputs(sc, diffs, again(edit), pi); len(problems) == 0 {
			t.Errorf("%s went unnoticed once the differences that apply everywhere were applied", name)
		}
	}

	// A listed difference that does not show is stale.
	stale := &diffScenario{name: "d-state", Differences: []string{"abort-tool-extra-turn"}}
	problems, _ := compareDiffOutputs(stale, diffs, again(nil), pi)
	if !slices.ContainsFunc(problems, func(p string) bool { return strings.Contains(p, "no longer shows") }) {
		t.Errorf("a named difference that does not show went unnoticed: %q", problems)
	}
}

// anotherRun rewrites a frame as another run would write it: every
// generated id replaced (consistently), every timestamp moved. A
// response's own id is the host's and stays.
func anotherRun(v any) any {
	var own any
	if top, ok := v.(*ordered); ok && top.vals["type"] == "response" {
		own = top.vals["id"]
	}
	walk(v, func(key string, val any) any {
		switch s := val.(type) {
		case string:
			if idKeys[key] && !stableID(s) {
				return "other-" + s
			}
		case json.Number:
			if key == "timestamp" {
				return s + "7"
			}
		}
		return val
	})
	if own != nil {
		v.(*ordered).set("id", own)
	}
	return v
}
