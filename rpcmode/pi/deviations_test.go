package pi

import (
	"strings"
	"testing"
)

// deviations adjust a scenario's comparison for cairn's deliberate
// differences from pi: each asserts what cairn writes instead, then puts
// pi's frame in its place (or drops it) so the rest compares as usual.
//
// Keys are scenario names, or "pi073/<name>" and "pi087/<name>" for one
// version's transcripts.
var deviations = map[string]func(t *testing.T, got, want []*line) ([]*line, []*line){
	"pi073/f-bash-cmd": countsLinesAsPi087,
	"pi073/c-read-edit": func(t *testing.T, got, want []*line) ([]*line, []*line) {
		// The edit tool's details carry the unified patch pi 0.87 added;
		// pi 0.73 had only the numbered diff.
		for _, l := range got {
			walk(l.value, func(key string, val any) any {
				if d, ok := val.(*ordered); ok && key == "details" {
					if _, has := d.vals["patch"]; !has && d.vals["diff"] != nil {
						t.Errorf("edit details without a patch: %s", l.text)
					}
					d.del("patch")
				}
				return val
			})
		}
		return got, want
	},
	"pi087/d-state": func(t *testing.T, got, want []*line) ([]*line, []*line) {
		// pi 0.87.1 as installed here lists a bundled extension's command
		// (llama); cairn has no extensions, so its list holds only prompt
		// templates, none in this scenario.
		replaceResponse(t, got, want, "d21", func(l *line) {
			if l.get("success") != true || l.str("data.commands.0.name") != "" {
				t.Errorf("get_commands: %s", l.text)
			}
		})
		return dStateDeviations(t, got, want)
	},
	"d-state": dStateDeviations,
	"e-errors": func(t *testing.T, got, want []*line) ([]*line, []*line) {
		// pi answers each of these without the request's id, or not at
		// all for what it cannot parse; cairn always echoes the id and
		// names the field at fault. A blank line is no command: pi
		// answers it with a parse error, cairn skips it.
		type expect struct {
			id, command, error string
		}
		expected := []expect{
			{"", "parse", "Failed to parse command: invalid JSON at byte 2: invalid character 'n' looking for beginning of object key string"},
			{"e1", "frobnicate", "Unknown command: frobnicate"},
			{"e2", "", `field "type" is required: a string naming the command`},
			{"e3", "get_state", ""},
			{"e4", "parse", "Failed to parse command: more than one JSON value on the line (the second starts at byte 31): send one command per line"},
			{"e6", "set_model", `field "provider" is required: a string`},
			{"e7", "prompt", `field "message" is required: a string`},
			{"e8", "set_session_name", `field "name" is required: a string`},
			{"e9", "get_state", ""},
		}
		if len(got) != len(expected) {
			t.Fatalf("cairn wrote %d frames, want %d", len(got), len(expected))
		}
		for i, e := range expected {
			l := got[i]
			if l.str("id") != e.id || l.str("command") != e.command || l.str("error") != e.error {
				t.Errorf("frame %d: got %s, want id %q command %q error %q", i, l.text, e.id, e.command, e.error)
			}
		}
		// Compare the two get_state answers with pi's.
		var pis []*line
		for _, l := range want {
			if l.str("command") == "get_state" {
				pis = append(pis, l)
			}
		}
		return []*line{got[3], got[8]}, pis
	},
}

// replaceResponse checks cairn's response to id and swaps pi's in for it.
func replaceResponse(t *testing.T, got, want []*line, id string, check func(*line)) {
	t.Helper()
	gi, wi := indexOfResponse(got, id), indexOfResponse(want, id)
	if gi < 0 || wi < 0 {
		t.Fatalf("no response %q (cairn %d, pi %d)", id, gi, wi)
	}
	check(got[gi])
	got[gi] = want[wi]
}

func indexOfResponse(lines []*line, id string) int {
	for i, l := range lines {
		if l.str("type") == "response" && l.str("id") == id {
			return i
		}
	}
	return -1
}

func expectError(t *testing.T, l *line, text string) {
	t.Helper()
	if l.get("success") != false || l.str("error") != text {
		t.Errorf("got %s, want an error %q", l.text, text)
	}
}

// checkInterruptMode asserts oh-my-pi's interruptMode, which cairn adds at
// the end of get_state (followed by cairn's own approvalMode when the
// session has an approval gate), and removes both (pi has neither).
func checkInterruptMode(t *testing.T, got []*line) {
	t.Helper()
	for _, l := range got {
		if l.str("command") != "get_state" || l.get("success") != true {
			continue
		}
		data, _ := l.get("data").(*ordered)
		if data == nil {
			continue
		}
		if approval, ok := data.vals["approvalMode"]; ok {
			if approval != "default" && approval != "auto_edit" && approval != "yolo" || data.keys[len(data.keys)-1] != "approvalMode" {
				t.Errorf("get_state's approvalMode is wrong or not last: %s", l.text)
			}
			data.del("approvalMode")
		}
		mode, _ := data.vals["interruptMode"].(string)
		if mode != "immediate" && mode != "wait" || data.keys[len(data.keys)-1] != "interruptMode" {
			t.Errorf("get_state has no interruptMode at its end: %s", l.text)
		}
		data.del("interruptMode")
	}
}

// dStateDeviations are d-state's in both versions: pi accepts "bogus" as a
// thinking level and ignores it; cairn says which levels exist.
func dStateDeviations(t *testing.T, got, want []*line) ([]*line, []*line) {
	replaceResponse(t, got, want, "d15", func(l *line) {
		expectError(t, l, `field "level" must be "off", "minimal", "low", "medium", "high", "xhigh" or "max", not "bogus"`)
	})
	return got, want
}

// countsLinesAsPi087 is pi073/f-bash-cmd's deviation: cairn cuts a
// command's output as pi 0.87's truncateTail does (a final newline ends
// the last line, so `seq 1 3000` keeps 1001-3000), where pi 0.73 counted an
// empty line after it and kept 1002-3000 and that empty line. The bash
// response (f3) and get_messages (f4) are checked for pi 0.87's cut, then
// pi 0.73's frames put in their place.
func countsLinesAsPi087(t *testing.T, got, want []*line) ([]*line, []*line) {
	replaceResponse(t, got, want, "f3", func(l *line) {
		if out := l.str("data.output"); !strings.HasPrefix(out, "1001\n1002\n") || !strings.HasSuffix(out, "\n3000") || l.get("data.truncated") != true {
			t.Errorf("bash seq 1 3000 not cut as pi 0.87 cuts it: %.200s", l.text)
		}
	})
	replaceResponse(t, got, want, "f4", func(l *line) {
		if out := l.str("data.messages.2.output"); !strings.HasPrefix(out, "1001\n") {
			t.Errorf("get_messages holds another cut: %.200s", l.text)
		}
	})
	return got, want
}

// requestDeviations are the scenarios whose requests to the model differ
// from pi's recorded ones on purpose; each checks cairn's requests instead
// of comparing them.
var requestDeviations = map[string]func(t *testing.T, got []fakeRequest){
	"pi073/f-bash-cmd": func(t *testing.T, got []fakeRequest) {
		if len(got) != 1 {
			t.Fatalf("the model got %d requests, want 1", len(got))
		}
		conv := conversation(got[0].Body)
		if len(conv) < 3 || !strings.HasPrefix(conv[2], "user: Ran `seq 1 3000`\n```\n1001\n1002\n") || !strings.Contains(conv[2], "\n3000\n```") {
			t.Errorf("the model saw %.300q, want the output cut as pi 0.87 cuts it", conv)
		}
	},
}
