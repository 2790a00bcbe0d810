package pi

import (
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// normalize blanks what differs between any two recordings: timestamps,
// generated ids, the fake server's address, token counts (they depend on
// the request's size), temporary paths, and the partial snapshots of
// message_update (pi serialises them late, fact 4 of the README).
func normalize(v any) {
	normalizeObjects(v)
	o, ok := v.(*ordered)
	if ok && o.vals["type"] == "message_update" {
		// pi writes these frames late, so whether a frame's usage already
		// holds the reasoning count depends on timing.
		if u, ok := o.vals["usage"].(*ordered); ok {
			u.del("reasoning")
		}
		for _, k := range []string{"assistantMessageEvent.partial", "message"} {
			if m, ok := lookup(v, k).(*ordered); !ok || m.vals["role"] != "assistant" {
				o.set("_missing_"+k, true)
			}
		}
		if e, ok := o.vals["assistantMessageEvent"].(*ordered); ok {
			e.set("partial", "<partial>")
		}
		o.set("message", "<partial>")
	}
	walk(v, func(key string, val any) any {
		if val == nil {
			return nil
		}
		switch key {
		case "timestamp":
			return json.Number("0")
		case "sessionId", "entryId":
			// TestPiDiff has already named them by first appearance.
			if s, ok := val.(string); ok && strings.HasPrefix(s, "<id ") {
				return val
			}
			return "<id>"
		case "baseUrl":
			return "<url>"
		case "fullOutputPath":
			return "<path>"
		case "responseId":
			return "<id>"
		case "usage", "tokens", "contextUsage":
			return zeroNumbers(val)
		case "cost":
			if _, isNum := val.(json.Number); isNum {
				return json.Number("0")
			}
		}
		if text, ok := val.(string); ok {
			return normalizeText(text)
		}
		return val
	})
}

// dropLaterPiFields deletes from a frame the members later pi versions
// added, which cairn writes (pi 1.5.2's shapes) and pi 0.87.1 did not: the
// disposition pi 0.99 added to prompt responses, agent_settled's aborted
// and tool_execution_end's durationMs (pi 1.5). TestConformance compares
// with recordings of pi 0.87.1 and so drops them; TestPiDiff lists them as
// a deliberate difference (pi15-fields in testdata/pidiff/differences.json).
func dropLaterPiFields(v any) {
	x, ok := v.(*ordered)
	if !ok {
		return
	}
	switch x.vals["type"] {
	case "agent_settled":
		x.del("aborted")
	case "tool_execution_end":
		x.del("durationMs")
	case "response":
		switch x.vals["command"] {
		case "prompt", "steer", "follow_up":
			if d, ok := x.vals["data"].(*ordered); ok && len(d.keys) == 1 && d.keys[0] == "disposition" {
				x.del("data")
			}
		}
	}
}

// normalizeObjects blanks, wherever they are, what each agent has of its
// own in pi 0.87's objects: a system message's prompt sections and tool
// set (cairn has seven tools, pi four), so that only the message's shape
// is compared.
func normalizeObjects(v any) {
	switch x := v.(type) {
	case *ordered:
		if x.vals["role"] == "system" {
			for _, k := range []string{"sections", "toolsAdded"} {
				if _, has := x.vals[k]; has {
					x.set(k, "<"+k+">")
				}
			}
		}
		for _, k := range x.keys {
			normalizeObjects(x.vals[k])
		}
	case []any:
		for _, e := range x {
			normalizeObjects(e)
		}
	}
}

// dropNil removes the members normalize blanked to nil.
func dropNil(v any) {
	switch x := v.(type) {
	case *ordered:
		for _, k := range slices.Clone(x.keys) {
			if x.vals[k] == nil {
				if k == "responseId" {
					x.del(k)
				}
				continue
			}
			dropNil(x.vals[k])
		}
	case []any:
		for _, e := range x {
			dropNil(e)
		}
	}
}

// walk calls f on every object member, depth first, replacing the value
// with what f returns.
func walk(v any, f func(key string, val any) any) {
	switch x := v.(type) {
	case *ordered:
		for _, k := range x.keys {
			x.vals[k] = f(k, x.vals[k])
			walk(x.vals[k], f)
		}
	case []any:
		for _, e := range x {
			walk(e, f)
		}
	}
}

func zeroNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		return json.Number("0")
	case *ordered:
		for _, k := range x.keys {
			x.vals[k] = zeroNumbers(x.vals[k])
		}
	}
	return v
}

// sortToolEnds puts, in each stretch of tool frames between the last
// tool_execution_start of a turn and its turn_end, the tool_execution_end
// frames first, ordered by tool call id, and the toolResult messages after
// them in their order. pi writes the ends as the tools complete and then the
// messages in call order (README fact 6); cairn's agent loop writes each end
// with its message, in call order (core/agent, not this package). The frames
// themselves must match.
func sortToolEnds(lines []*line) []*line {
	out := slices.Clone(lines)
	for i := 0; i < len(out); i++ {
		if out[i].str("type") != "tool_execution_start" {
			continue
		}
		j := i
		for j < len(out) && out[j].str("type") == "tool_execution_start" {
			j++
		}
		k := j
		for k < len(out) && out[k].str("type") != "turn_end" && out[k].str("type") != "tool_execution_start" {
			k++
		}
		var ends, rest []*line
		for _, l := range out[j:k] {
			if l.str("type") == "tool_execution_end" {
				ends = append(ends, l)
			} else {
				rest = append(rest, l)
			}
		}
		sort.SliceStable(ends, func(a, b int) bool { return ends[a].str("toolCallId") < ends[b].str("toolCallId") })
		copy(out[j:k], append(ends, rest...))
		i = k - 1
	}
	return out
}

// bashLogPath matches the temporary file of a bash command's full output.
var bashLogPath = regexp.MustCompile(`/[^\s'"]*/(pi|cairn)-bash-[0-9a-f]+\.log`)

// normalizeText replaces the error text of reading a missing file, which
// is Node's in pi ("ENOENT: no such file or directory, access '/tmp/…'")
// and Go's in cairn.
func normalizeText(s string) string {
	s = bashLogPath.ReplaceAllString(s, "<bash log>")
	lower := strings.ToLower(s)
	if strings.Contains(s, "missing.txt") && (strings.Contains(lower, "no such file") || strings.Contains(lower, "not found")) {
		return "<missing file error>"
	}
	return s
}

// joinBashUpdates joins each run of bash_execution_update frames of one
// command into one frame: how output is split into chunks depends on the
// pipe and the machine, not on the protocol.
func joinBashUpdates(lines []*line) []*line {
	var out []*line
	for _, l := range lines {
		if l.str("type") == "bash_execution_update" && len(out) > 0 {
			prev := out[len(out)-1]
			if prev.str("type") == "bash_execution_update" && prev.str("id") == l.str("id") {
				if o, ok := prev.value.(*ordered); ok {
					o.set("delta", prev.str("delta")+l.str("delta"))
				}
				continue
			}
		}
		out = append(out, l)
	}
	return out
}

// dropFor073 removes what cairn records in every shape but pi 0.73 did not
// write everywhere: the provider's own stop reason (rawStopReason) and the
// response id (pi 0.73 had it on some messages only).
func dropFor073(v any) {
	switch x := v.(type) {
	case *ordered:
		x.del("rawStopReason")
		x.del("responseId")
		x.del("reasoning")    // pi 0.87's usage counts
		x.del("cacheWrite1h") // (nothing else uses these names)
		for _, k := range x.keys {
			dropFor073(x.vals[k])
		}
	case []any:
		for _, e := range x {
			dropFor073(e)
		}
	}
}
