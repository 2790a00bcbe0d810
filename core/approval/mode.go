package approval

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// Mode says which tool categories need a person's approval.
type Mode string

// The approval modes, named as aionrs and our settings name them.
const (
	// ModePlan is plan mode: only tools that read run, bash only for
	// commands that certainly just read (see ReadOnlyCommand), and the
	// model ends by presenting a plan with the exit_plan_mode tool, which
	// the person accepts (choosing the mode to go on in) or answers with
	// feedback. What it lets run is decided as in the mode it was entered
	// from (see Gate.SetMode). See plan.go.
	ModePlan Mode = "plan"
	// ModeDefault asks before edit, exec and mcp tools.
	ModeDefault Mode = "default"
	// ModeAutoEdit lets edit tools run and asks before exec and mcp tools.
	ModeAutoEdit Mode = "auto_edit"
	// ModeAuto lets every tool run without asking, as pi does, except an
	// edit tool writing one of the protected files (see Config.ProtectedDirs),
	// a command writing one or running git in another repository, and a
	// read of cairn's own key files or of processes' environments: those
	// are still asked about. It is where `--mode rpc` starts, so a pi
	// host that never answers questions is not kept waiting on ordinary
	// calls.
	ModeAuto Mode = "auto"
	// ModeYolo asks nothing.
	ModeYolo Mode = "yolo"
)

// Modes lists the valid modes, from the most to the least careful.
func Modes() []Mode { return []Mode{ModePlan, ModeDefault, ModeAutoEdit, ModeAuto, ModeYolo} }

// ParseMode returns the mode named s, ignoring case and surrounding space
// and accepting "auto-edit" for auto_edit. The error for anything else
// lists the valid modes.
func ParseMode(s string) (Mode, error) {
	name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
	for _, m := range Modes() {
		if name == string(m) {
			return m, nil
		}
	}
	return "", fmt.Errorf("unknown approval mode %q: use plan, default, auto_edit, auto or yolo", s)
}

// NextMode is the mode after current in the cycle a front end steps
// through with one key (shift+tab in the TUI), as Claude Code's: default,
// auto_edit, plan, and back to default. auto and yolo join the cycle,
// after plan, only for a session that started in them, so the key never
// loosens approvals beyond what the person started with; a mode outside
// the cycle steps to default.
func NextMode(current, started Mode) Mode {
	cycle := []Mode{ModeDefault, ModeAutoEdit, ModePlan}
	if started == ModeAuto || started == ModeYolo {
		cycle = append(cycle, started)
	}
	for i, m := range cycle {
		if m == current {
			return cycle[(i+1)%len(cycle)]
		}
	}
	return ModeDefault
}

// String returns the mode's name.
func (m Mode) String() string { return string(m) }

// UnmarshalText parses a mode from settings files and flags.
func (m *Mode) UnmarshalText(text []byte) error {
	parsed, err := ParseMode(string(text))
	if err != nil {
		return err
	}
	*m = parsed
	return nil
}

// Asks reports whether a tool of category c needs approval in mode m. Info
// tools never do. A category the package does not know is treated as exec,
// and an unknown mode as ModeDefault, so a mistake always errs towards
// asking. ModePlan asks as ModeDefault does (the gate refuses what plan
// mode does not let run before asking anything).
func (m Mode) Asks(c core.ApprovalCategory) bool {
	switch {
	case c == core.CategoryInfo:
		return false
	case m == ModeYolo || m == ModeAuto:
		return false
	case m == ModeAutoEdit:
		return c != core.CategoryEdit
	}
	return true
}
