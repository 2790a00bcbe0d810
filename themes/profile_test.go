package themes

import (
	"image/color"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// TestForProfile: true colour draws the theme as it is; 256 colours take
// the theme's hand-picked "colors256" values; 16 colours take "colors16"
// and drop every background the theme does not give for them.
func TestForProfile(t *testing.T) {
	d := Dark()
	if d.ForProfile(colorprofile.TrueColor) != d || d.ForProfile(colorprofile.Unknown) != d {
		t.Error("true colour does not draw the theme as it is")
	}
	v := d.ForProfile(colorprofile.ANSI256)
	if got := v.Color(ToolSuccessBg); got != lipgloss.Color("234") {
		t.Errorf("256 colours: toolSuccessBg = %v, want the hand-picked 234", got)
	}
	if d.ForProfile(colorprofile.ANSI256) != v {
		t.Error("the 256-colour variant is made more than once")
	}
	s := d.ForProfile(colorprofile.ANSI)
	if !s.IsDefault(ToolSuccessBg) || !s.IsDefault(UserMessageBg) {
		t.Error("16 colours keep a subtle background")
	}
	if got := s.Color(Error); got != lipgloss.Color("9") {
		t.Errorf("16 colours: error = %v, want bright red (9)", got)
	}
	if _, ok := d.Color(ToolSuccessBg).(color.RGBA); !ok || !s.Dark {
		t.Error("the variants changed the theme they came from")
	}
}
