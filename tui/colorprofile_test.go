package tui

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/cairn-dev/cairn/themes"
)

func TestInTmuxTrueColor(t *testing.T) {
	tests := []struct {
		p    colorprofile.Profile
		env  map[string]string
		want bool
	}{
		{colorprofile.ANSI256, map[string]string{"TMUX": "/tmp/t,1,0", "COLORTERM": "truecolor"}, true},
		{colorprofile.ANSI256, map[string]string{"TMUX": "/tmp/t,1,0", "COLORTERM": "24bit"}, true},
		{colorprofile.ANSI256, map[string]string{"TMUX": "/tmp/t,1,0"}, false},
		{colorprofile.ANSI256, map[string]string{"COLORTERM": "truecolor"}, false},
		{colorprofile.NoTTY, map[string]string{"TMUX": "/tmp/t,1,0", "COLORTERM": "truecolor"}, false},
	}
	for _, tt := range tests {
		if got := inTmuxTrueColor(tt.p, func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("inTmuxTrueColor(%v, %v) = %v, want %v", tt.p, tt.env, got, tt.want)
		}
	}
}

// profileFrame draws the approval screen at 80x30 as a terminal with
// profile p receives it (see screenAtProfile).
func profileFrame(t *testing.T, th *themes.Theme, p colorprofile.Profile) []byte {
	t.Helper()
	return screenAtProfile(t, th, p, approvalScreen, 80, 30)
}

// TestApprovalProfiles renders the approval prompt at true colour, 256 and
// 16 colours in both built-in themes and compares each with its golden
// file (run with -update to accept a deliberate change).
func TestApprovalProfiles(t *testing.T) {
	for _, th := range []*themes.Theme{themes.Dark(), themes.Light()} {
		for _, p := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI} {
			t.Run(fmt.Sprintf("%s/%s", th.Name, p), func(t *testing.T) {
				golden.RequireEqual(t, profileFrame(t, th, p))
			})
		}
	}
}

// sgrBackground matches an SGR sequence that sets a background colour.
var sgrBackground = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:4[0-7]|10[0-7]|48;5;[0-9]+)[;m]`)

// TestSixteenColoursDropSubtleBackgrounds: on 16 colours no basic colour
// is subtle enough to sit behind text, so the tool boxes and messages have
// none (a nearest-colour conversion drew them solid blue and green).
func TestSixteenColoursDropSubtleBackgrounds(t *testing.T) {
	for _, th := range []*themes.Theme{themes.Dark(), themes.Light()} {
		if bg := sgrBackground.Find(profileFrame(t, th, colorprofile.ANSI)); bg != nil {
			t.Errorf("%s at 16 colours sets a background: %q", th.Name, bg)
		}
	}
}

// The profile lipgloss detected at start is taken only for the process's
// own stdout and environment; anything else is detected anew.
func TestDetectedAtStart(t *testing.T) {
	if got := detectedAtStart(os.Stdout, os.Getenv); got != lipgloss.Writer.Profile {
		t.Errorf("stdout with the process's environment: %v, want lipgloss's %v", got, lipgloss.Writer.Profile)
	}
	if got := detectedAtStart(&bytes.Buffer{}, os.Getenv); got != colorprofile.Unknown {
		t.Errorf("a buffer: %v, want Unknown (detected anew)", got)
	}
	other := func(k string) string {
		if k == "TERM" {
			return "dumb-" + os.Getenv("TERM")
		}
		return os.Getenv(k)
	}
	if got := detectedAtStart(os.Stdout, other); got != colorprofile.Unknown {
		t.Errorf("another TERM: %v, want Unknown (detected anew)", got)
	}
}
