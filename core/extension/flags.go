package extension

import (
	"context"
	"fmt"
	"strings"
)

// Flag is a command-line flag cairn does not know itself, kept for the
// extensions that register it (pi's registerFlag), as pi keeps them:
// "--name=value", "--name value" (when the next word does not start with
// "-" or "@"), or a bare "--name".
type Flag struct {
	// Name is the flag without its dashes.
	Name string
	// Value is its value; HasValue says whether one was given.
	Value    string
	HasValue bool
	// Taken says the value was the next word of the command line (not
	// "--name=value"), which a switch must not swallow.
	Taken bool
}

// String is the flag as it was written.
func (f Flag) String() string {
	if !f.HasValue {
		return "--" + f.Name
	}
	if f.Taken {
		return "--" + f.Name + " " + f.Value
	}
	return "--" + f.Name + "=" + f.Value
}

// flagValues are the flags as initialize tells them (version 2): a
// flag's value, or true for a bare flag, as pi's command line gives them
// to its extensions.
func flagValues(flags []Flag) map[string]any {
	if len(flags) == 0 {
		return nil
	}
	out := make(map[string]any, len(flags))
	for _, f := range flags {
		if f.HasValue {
			out[f.Name] = f.Value
		} else {
			out[f.Name] = true
		}
	}
	return out
}

// FlagDef is a flag an extension registered (pi's registerFlag).
type FlagDef struct {
	Name string `json:"name"`
	// Type is "boolean" (a switch) or "string" (takes a value).
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

// CheckFlags checks the command line's flags against those the started
// extensions registered: each must be claimed, a switch given no value, a
// string flag given one. Call it once the extensions have answered
// initialize (WaitInitialized); an extension still loading then claims
// nothing, and the error names it.
func (m *Manager) CheckFlags(given []Flag) error {
	if len(given) == 0 {
		return nil
	}
	defs := map[string]FlagDef{}
	owners := map[string]string{}
	var loading, failed []string
	for _, e := range m.exts {
		e.mu.Lock()
		switch {
		case e.state == Starting:
			loading = append(loading, e.cfg.Name)
		case e.state == Failed && e.err != nil:
			failed = append(failed, e.cfg.Name+" ("+e.err.Error()+")")
		}
		for _, mb := range e.members {
			switch mb.State {
			case "loading":
				loading = append(loading, e.cfg.Name+":"+mb.Name)
			case "failed":
				failed = append(failed, e.cfg.Name+":"+mb.Name+" ("+mb.Error+")")
			}
			for _, d := range mb.FlagDefs {
				if _, ok := defs[d.Name]; !ok {
					defs[d.Name], owners[d.Name] = d, e.cfg.Name+":"+mb.Name
				}
			}
		}
		e.mu.Unlock()
	}
	for _, f := range given {
		d, ok := defs[f.Name]
		switch {
		case !ok:
			msg := fmt.Sprintf("unknown flag --%s: neither cairn nor an extension it runs knows it (see cairn --help; `cairn ext list` shows the flags extensions register)", f.Name)
			if len(loading) > 0 {
				msg += fmt.Sprintf("; still loading: %s", strings.Join(loading, ", "))
			}
			if len(failed) > 0 {
				msg += fmt.Sprintf("; not running: %s", strings.Join(failed, "; "))
			}
			return fmt.Errorf("%s", msg)
		case d.Type == "boolean" && f.HasValue:
			return fmt.Errorf("--%s is a switch (extension %s) and takes no value, but was given %q: put a prompt before the flag or after --", f.Name, owners[f.Name], f.Value)
		case d.Type != "boolean" && !f.HasValue:
			return fmt.Errorf("--%s needs a value (extension %s: %s)", f.Name, owners[f.Name], d.Description)
		}
	}
	return nil
}

// WaitInitialized waits until every extension has answered initialize (or
// failed to start; each start is bounded by Options.StartTimeout) or ctx
// ends. Unlike WaitStarted it does not wait for their session_start
// handlers, which may wait for the session (Attach).
func (m *Manager) WaitInitialized(ctx context.Context) {
	for _, e := range m.exts {
		if e.ready(ctx) != nil && ctx.Err() != nil {
			return
		}
	}
}
