package editor

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func lines(n int, text string) string { return strings.Repeat(text+"\n", n) }

func TestPasteThresholds(t *testing.T) {
	tests := []struct {
		name   string
		paste  string
		marker string // "" when the paste is inserted as text
	}{
		{"ten lines are typed", strings.TrimSuffix(lines(10, "x"), "\n"), ""},
		{"ten lines and a final break are typed", lines(10, "x"), ""},
		{"eleven lines become a marker", lines(11, "x"), "[paste #1 +11 lines]"},
		{"CRLF lines count once", strings.Repeat("x\r\n", 11), "[paste #1 +11 lines]"},
		{"1,000 characters are typed", strings.Repeat("y", 1000), ""},
		{"1,001 characters become a marker", strings.Repeat("y", 1001), "[paste #1 1,001 chars]"},
		{"characters, not bytes", strings.Repeat("é", 1000), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{})
			d.m.SetWidth(200)
			d.paste(tt.paste)
			view := ansi.Strip(d.m.View())
			if tt.marker == "" && strings.Contains(view, "[paste") {
				t.Fatalf("small paste shown as a marker: %q", view)
			}
			if tt.marker != "" && !strings.Contains(view, tt.marker) {
				t.Fatalf("view %q, want marker %q", view, tt.marker)
			}
			if got, want := d.m.Value(), normalizeNewlines(tt.paste); got != want {
				t.Fatalf("value differs from the paste:\n got %q\nwant %q", got, want)
			}
		})
	}
}

func TestSmallPasteKeepsTabsAndNormalisesLineBreaks(t *testing.T) {
	d := newDriver(t, Options{})
	d.paste("a\tb\r\nc\rd\x1b[31m")
	if got := d.m.Value(); got != "a\tb\nc\nd[31m" {
		t.Fatalf("value %q", got)
	}
}

func TestLargePastesExpandExactly(t *testing.T) {
	first := "func main() {\r\n\tfmt.Println(\"[paste #2 +11 lines]\")\r\n" + lines(10, "\t\tx := 1 // \xff") + "}\n"
	second := lines(11, "second\x1b[0m \U000F0000 end")
	d := newDriver(t, Options{})
	d.m.SetWidth(200)
	d.typ("look: ").paste(first).typ(" and ").paste(second).typ(" [paste #1 +13 lines]")

	view := ansi.Strip(d.m.View())
	for _, want := range []string{"[paste #1 +13 lines]", "[paste #2 +11 lines]"} {
		if !strings.Contains(view, want) {
			t.Errorf("view %q lacks %q", view, want)
		}
	}
	want := "look: " + normalizeNewlines(first) + " and " + second + " [paste #1 +13 lines]"
	d.keys("enter")
	subs := d.submitted()
	if len(subs) != 1 || subs[0].Text != want {
		t.Fatalf("submitted %+v,\nwant %q", subs, want)
	}

	// Numbering starts again in the next draft.
	d.paste(second)
	if !strings.Contains(ansi.Strip(d.m.View()), "[paste #1 +11 lines]") {
		t.Fatalf("the next draft's first paste is not #1: %q", ansi.Strip(d.m.View()))
	}
}

func TestDeletingAMarkerDropsItsPaste(t *testing.T) {
	big := lines(20, "big")
	tests := []struct {
		name string
		keys []string
		want string
	}{
		{"backspace after it", []string{"left", "backspace"}, "ab"},
		{"delete on it", []string{"left", "left", "delete"}, "ab"},
		{"ctrl+w before it", []string{"left", "ctrl+w"}, "b"},
		{"moving over it is one step", []string{"left", "left", "left", "delete"}, big + "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDriver(t, Options{})
			d.typ("a").paste(big).typ("b")
			d.keys(tt.keys...)
			if got := d.m.Value(); got != tt.want {
				t.Fatalf("value %q, want %q", got, tt.want)
			}
		})
	}
}

func TestTypedOrSmallPastedMarkerAreaRunesAreNotMarkers(t *testing.T) {
	d := newDriver(t, Options{})
	d.paste(lines(12, "x"))
	d.typ("\U000F0000").paste("\U000F0000")
	if got := d.m.Value(); got != lines(12, "x")+"\uFFFD\uFFFD" {
		t.Fatalf("value %q", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1342: "1,342", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
