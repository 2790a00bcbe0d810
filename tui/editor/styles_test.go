package editor

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestPainterDrawsLikeRender(t *testing.T) {
	plain := lipgloss.NewStyle()
	tests := []struct {
		name  string
		style lipgloss.Style
		fast  bool
	}{
		{"plain", plain, true},
		{"bold", plain.Bold(true), true},
		{"colours", plain.Foreground(lipgloss.Color("#ff8800")).Background(lipgloss.Color("4")), true},
		{"reverse faint", plain.Reverse(true).Faint(true), true},
		{"underline styles spaces apart", plain.Underline(true), false},
		{"side padding wraps any text alike", plain.Padding(0, 1), true},
		{"vertical padding", plain.Padding(1, 0), false},
		{"border", plain.Border(lipgloss.NormalBorder()), false},
		{"width", plain.Width(12), false},
		{"transform", plain.Transform(strings.ToUpper), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPainter(tt.style)
			if p.fast != tt.fast {
				t.Errorf("fast %v, want %v", p.fast, tt.fast)
			}
			for _, text := range []string{"word", "two  words ", "漢字 x"} {
				var sb strings.Builder
				p.paint(&sb, text)
				if want := tt.style.Render(text); sb.String() != want {
					t.Errorf("paint(%q) = %q, Render gives %q", text, sb.String(), want)
				}
			}
		})
	}
}
