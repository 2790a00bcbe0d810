package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Result is how one hook's run ended.
type Result struct {
	// Code is the exit status; -1 when a signal ended it.
	Code   int
	Stdout string
	Stderr string
	// Failure, when set, says why the hook did not finish (it could not
	// start, it timed out, its output was too long); Code is then
	// meaningless.
	Failure string
}

// Answer is what one or more hooks said, in cairn's terms.
type Answer struct {
	// Block stops what the event is about (the tool call, the prompt,
	// the compaction), or for Stop and PostToolUse sends Reason to the
	// model. Reason is who reads it: the model (PreToolUse, PostToolUse,
	// Stop) or the person (UserPromptSubmit, PreCompact).
	Block  bool
	Reason string
	// Permission is PreToolUse's decision: "allow", "ask", "deny" or "".
	Permission       string
	PermissionReason string
	// UpdatedInput replaces the tool's input (Claude Code's terms).
	UpdatedInput json.RawMessage
	// Context is text for the model (additionalContext, or the plain
	// stdout of UserPromptSubmit and SessionStart hooks).
	Context []string
	// Halt is continue: false: the work stops; HaltReason is shown.
	Halt       bool
	HaltReason string
	// Messages are for the person (systemMessage, stderr of a blocking
	// exit where only the person reads it).
	Messages []string
}

// output is a hook's JSON answer. Members it does not have are ignored,
// as Claude Code ignores them (a plugin's "metrics", another client's
// "additional_context"); a known member's value cairn cannot read is
// still refused (answer), so a misspelt "decision" never passes.
type output struct {
	Continue           *bool           `json:"continue"`
	StopReason         string          `json:"stopReason"`
	SuppressOutput     bool            `json:"suppressOutput"`
	SystemMessage      string          `json:"systemMessage"`
	Decision           string          `json:"decision"`
	Reason             string          `json:"reason"`
	HookSpecificOutput *specificOutput `json:"hookSpecificOutput"`
}

type specificOutput struct {
	HookEventName string `json:"hookEventName"`
	// Decision is PermissionRequest's answer.
	Decision                 *permissionDecision `json:"decision"`
	PermissionDecision       string              `json:"permissionDecision"`
	PermissionDecisionReason string              `json:"permissionDecisionReason"`
	UpdatedInput             json.RawMessage     `json:"updatedInput"`
	AdditionalContext        string              `json:"additionalContext"`
}

// Decode reads a finished hook's answer for event e, as Claude Code reads
// it: exit 0 with JSON on stdout (or, for UserPromptSubmit and
// SessionStart, plain text added as context); exit 2 blocks, with stderr
// as the reason; any other status, a hook that did not finish, or JSON
// that cannot be read is an error, which the caller treats as a failure
// (fail closed where the event can block).
func Decode(e Event, r Result) (Answer, error) {
	var a Answer
	switch {
	case r.Failure != "":
		return a, fmt.Errorf("%s", r.Failure)
	case r.Code == 2:
		reason := strings.TrimSpace(r.Stderr)
		if reason == "" {
			reason = "the hook exited with status 2 and gave no reason"
		}
		switch e {
		case PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure, Stop, UserPromptSubmit, PreCompact:
			a.Block, a.Reason = true, reason
		default:
			a.Messages = append(a.Messages, reason)
		}
		return a, nil
	case r.Code != 0:
		msg := fmt.Sprintf("exited with status %d", r.Code)
		if s := strings.TrimSpace(r.Stderr); s != "" {
			msg += ": " + lastLines(s, 5)
		}
		return a, fmt.Errorf("%s", msg)
	}
	out := strings.TrimSpace(r.Stdout)
	if !strings.HasPrefix(out, "{") {
		if out != "" && (e == UserPromptSubmit || e == SessionStart) {
			a.Context = append(a.Context, out)
		}
		return a, nil
	}
	var o output
	if err := decodeOne([]byte(out), &o); err != nil {
		return a, fmt.Errorf("its JSON output cannot be read: %v", err)
	}
	return o.answer(e)
}

// answer turns a JSON answer into cairn's terms, refusing values Claude
// Code does not define for the event.
func (o output) answer(e Event) (Answer, error) {
	var a Answer
	if o.SystemMessage != "" {
		a.Messages = append(a.Messages, o.SystemMessage)
	}
	if o.Continue != nil && !*o.Continue {
		a.Halt, a.HaltReason = true, o.StopReason
		if a.HaltReason == "" {
			a.HaltReason = "a hook stopped the work"
		}
	}
	switch o.Decision {
	case "":
	case "block":
		if e == SessionStart || e == SessionEnd || e == Notification {
			return a, fmt.Errorf("decision %q means nothing for %s", o.Decision, e)
		}
		a.Block, a.Reason = true, o.Reason
		if a.Reason == "" {
			a.Reason = "a hook blocked it without a reason"
		}
	case "approve":
		// Claude Code's older spelling of permissionDecision "allow".
		if e != PreToolUse {
			return a, fmt.Errorf("decision %q means nothing for %s", o.Decision, e)
		}
		a.Permission, a.PermissionReason = "allow", o.Reason
	default:
		return a, fmt.Errorf("decision %q: want \"block\" (or nothing)", o.Decision)
	}
	if h := o.HookSpecificOutput; h != nil {
		if h.HookEventName != "" && Event(h.HookEventName) != e {
			return a, fmt.Errorf("hookSpecificOutput is for %s, not %s", h.HookEventName, e)
		}
		if err := a.specific(e, h); err != nil {
			return a, err
		}
	}
	return a, nil
}

func (a *Answer) specific(e Event, h *specificOutput) error {
	if h.Decision != nil {
		if err := a.permissionRequest(e, h.Decision); err != nil {
			return err
		}
	}
	if h.AdditionalContext != "" {
		if !carriesContext(e) {
			return fmt.Errorf("additionalContext means nothing for %s", e)
		}
		a.Context = append(a.Context, h.AdditionalContext)
	}
	if h.PermissionDecision != "" || h.PermissionDecisionReason != "" || h.UpdatedInput != nil {
		if e != PreToolUse {
			return fmt.Errorf("permissionDecision and updatedInput are for PreToolUse, not %s", e)
		}
		switch h.PermissionDecision {
		case "allow", "ask", "":
			a.Permission, a.PermissionReason = h.PermissionDecision, h.PermissionDecisionReason
		case "deny":
			a.Block, a.Reason = true, h.PermissionDecisionReason
			if a.Reason == "" {
				a.Reason = "a hook denied it without a reason"
			}
		default:
			return fmt.Errorf("permissionDecision %q: want allow, deny or ask", h.PermissionDecision)
		}
		if h.UpdatedInput != nil && string(h.UpdatedInput) != "null" {
			a.UpdatedInput = h.UpdatedInput
		}
	}
	return nil
}

// permissionDecision is a PermissionRequest hook's decision.
type permissionDecision struct {
	Behavior           string          `json:"behavior"`
	Message            string          `json:"message"`
	UpdatedInput       json.RawMessage `json:"updatedInput"`
	UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
	Interrupt          bool            `json:"interrupt"`
}

// permissionRequest reads PermissionRequest's decision: allow or deny;
// what cairn cannot do (new input, new rules, interrupt) is an error, so
// the person is asked rather than the hook half obeyed.
func (a *Answer) permissionRequest(e Event, d *permissionDecision) error {
	if e != PermissionRequest {
		return fmt.Errorf("decision in hookSpecificOutput is for PermissionRequest, not %s", e)
	}
	switch {
	case len(d.UpdatedInput) > 0 && string(d.UpdatedInput) != "null":
		return fmt.Errorf("updatedInput in a PermissionRequest answer is not supported by cairn (use PreToolUse's updatedInput)")
	case len(d.UpdatedPermissions) > 0 && string(d.UpdatedPermissions) != "null":
		return fmt.Errorf("updatedPermissions is not supported by cairn")
	case d.Interrupt:
		return fmt.Errorf("interrupt is not supported by cairn")
	}
	switch d.Behavior {
	case "allow":
		a.Permission, a.PermissionReason = "allow", d.Message
	case "deny":
		a.Block, a.Reason = true, d.Message
		if a.Reason == "" {
			a.Reason = "a hook denied it without a reason"
		}
	default:
		return fmt.Errorf("decision.behavior %q: want allow or deny", d.Behavior)
	}
	return nil
}

// lastLines is the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// combine merges the answers of hooks that ran for one event: a block
// wins (reasons joined), deny > ask > allow, contexts and messages add up.
func combine(answers []Answer) Answer {
	var out Answer
	var reasons, halts []string
	rank := map[string]int{"": 0, "allow": 1, "ask": 2}
	for _, a := range answers {
		if a.Block {
			out.Block = true
			reasons = append(reasons, a.Reason)
		}
		if a.Halt {
			out.Halt = true
			halts = append(halts, a.HaltReason)
		}
		if rank[a.Permission] > rank[out.Permission] {
			out.Permission, out.PermissionReason = a.Permission, a.PermissionReason
		}
		if a.UpdatedInput != nil {
			out.UpdatedInput = a.UpdatedInput
		}
		out.Context = append(out.Context, a.Context...)
		out.Messages = append(out.Messages, a.Messages...)
	}
	out.Reason = strings.Join(reasons, "\n")
	out.HaltReason = strings.Join(halts, "\n")
	return out
}

// decodeOne decodes the one JSON value data holds into v, ignoring
// members v does not have.
func decodeOne(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
