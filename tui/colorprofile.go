package tui

import (
	"io"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// profileEnv are the variables colour detection reads.
var profileEnv = []string{"TERM", "COLORTERM", "TMUX", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TTY_FORCE", "WT_SESSION", "GOOGLE_CLOUD_SHELL", "TERM_PROGRAM"}

// DetectColorProfile says how many colours the terminal behind out shows:
// colorprofile's detection (TERM, COLORTERM, terminfo, tmux's own
// capabilities), and true colour inside tmux when the terminal around it
// says so with COLORTERM (see inTmuxTrueColor). The TUI draws its theme's
// rendering for that profile (themes.Theme.ForProfile).
//
// For the process's own standard output and environment, lipgloss has
// already detected the profile in its package initialiser (inside tmux
// that runs `tmux info`, about 10 ms): that answer is taken instead of
// asking again.
func DetectColorProfile(out io.Writer, getenv func(string) string) colorprofile.Profile {
	p := detectedAtStart(out, getenv)
	if p == colorprofile.Unknown {
		p = detectProfile(out, getenv)
	}
	if inTmuxTrueColor(p, getenv) {
		return colorprofile.TrueColor
	}
	return p
}

// detectedAtStart returns lipgloss's profile of os.Stdout when out is
// os.Stdout and getenv reads what the process's environment holds for
// every variable detection looks at; Unknown otherwise.
func detectedAtStart(out io.Writer, getenv func(string) string) colorprofile.Profile {
	if f, ok := out.(*os.File); !ok || f != os.Stdout || lipgloss.Writer == nil {
		return colorprofile.Unknown
	}
	for _, k := range profileEnv {
		v, set := os.LookupEnv(k)
		if getenv(k) != v || (set && v == "") {
			return colorprofile.Unknown
		}
	}
	return lipgloss.Writer.Profile
}

// detectProfile asks colorprofile about out, with the variables it reads
// taken from getenv.
func detectProfile(out io.Writer, getenv func(string) string) colorprofile.Profile {
	var env []string
	for _, k := range profileEnv {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return colorprofile.Detect(out, env)
}

// inTmuxTrueColor reports a colour terminal inside tmux whose outer
// terminal announced true colour (COLORTERM comes through from it).
// colorprofile ignores COLORTERM under tmux and asks tmux for RGB, which a
// default tmux set-up does not declare; but tmux takes 24-bit colours from
// the program either way, passing them on or converting them itself, so
// drawing true colour there is safe (pi does).
func inTmuxTrueColor(p colorprofile.Profile, getenv func(string) string) bool {
	if p < colorprofile.ANSI || p >= colorprofile.TrueColor || getenv("TMUX") == "" {
		return false
	}
	switch strings.ToLower(getenv("COLORTERM")) {
	case "truecolor", "24bit":
		return true
	}
	return false
}
