package toolview

import "strings"

// The notes core/tools adds to a sandboxed command's failed result (from
// sandbox.Policy.Explain), each on a line of its own, and the line that
// tells the model how to ask to leave the sandbox.
const (
	sandboxNotePrefix = "blocked by the sandbox: "
	sandboxRetryLine  = "If the task needs this, retry with dangerouslyDisableSandbox: true (the user is asked)."
)

// sandboxDenial is one thing the sandbox refused a command, for a person.
type sandboxDenial struct {
	what  string // "a write to /etc/hosts (allowed: project, /tmp)"
	allow string // what would let it: the setting, or leaving the sandbox
}

// takeSandboxNotes removes the sandbox's notes from a bash result's text
// and returns what is left and the denials they name.
func takeSandboxNotes(text string) (string, []sandboxDenial) {
	if !strings.Contains(text, sandboxNotePrefix) {
		return text, nil
	}
	var keep []string
	var out []sandboxDenial
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, sandboxNotePrefix):
			out = append(out, explainDenial(strings.TrimPrefix(line, sandboxNotePrefix)))
		case line == sandboxRetryLine && len(out) > 0:
		default:
			keep = append(keep, line)
		}
	}
	return strings.TrimRight(strings.Join(keep, "\n"), "\n"), out
}

// explainDenial says what would allow what the sandbox refused, by the
// kind of refusal its note names.
func explainDenial(what string) sandboxDenial {
	const outside = "or approve running it outside the sandbox when the model asks"
	d := sandboxDenial{what: what}
	switch {
	case strings.HasPrefix(what, "a network connection"):
		d.allow = `allow: "sandbox": {"network": ["host:port"]} in settings.json, ` + outside
	case strings.Contains(what, "control files"):
		d.allow = "allow: control files are read-only to sandboxed commands; approve the edit tool's change, " + outside
	case strings.HasPrefix(what, "access to "):
		d.allow = `allow: the path is in "sandbox.denyRead" or the built-in list of credentials; ` + outside
	case strings.HasPrefix(what, "write to "):
		d.allow = `allow: add its directory to "sandbox": {"allowWrite": [...]} in settings.json, ` + outside
	default:
		d.allow = "allow: " + outside
	}
	return d
}

// sandboxBody shows each denial as the sandbox's, with what would allow
// it.
func (v *view) sandboxBody(b *box, denials []sandboxDenial) {
	for _, d := range denials {
		b.wrap("⊘ sandbox blocked "+d.what, v.p.Warning, 2)
		b.wrap("  "+d.allow, v.p.Muted, 2)
	}
}

// SandboxDenial is one thing the OS sandbox refused a command, for a
// person: what it refused and what would allow it.
type SandboxDenial struct {
	What, Allow string
}

// SandboxDenials reads the notes of sandbox.Policy.Explain ("blocked by
// the sandbox: ...", one a line) for front ends that draw them
// themselves (the TUI's !cmd).
func SandboxDenials(notes string) []SandboxDenial {
	_, ds := takeSandboxNotes(notes)
	out := make([]SandboxDenial, len(ds))
	for i, d := range ds {
		out[i] = SandboxDenial{What: d.what, Allow: d.allow}
	}
	return out
}
