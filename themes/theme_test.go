package themes

import (
	"encoding/json"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
)

// themeJSON returns the dark theme's source with edits applied: edit
// receives the decoded document and may change it freely.
func themeJSON(t *testing.T, edit func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(darkJSON, &doc); err != nil {
		t.Fatal(err)
	}
	doc["name"] = "x"
	edit(doc)
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func colorsOf(doc map[string]any) map[string]any { return doc["colors"].(map[string]any) }
func varsOf(doc map[string]any) map[string]any   { return doc["vars"].(map[string]any) }

func TestTokens(t *testing.T) {
	toks := Tokens()
	if len(toks) != 51 {
		t.Fatalf("Tokens() has %d tokens, want 51", len(toks))
	}
	seen := map[Token]bool{}
	for _, tok := range toks {
		if seen[tok] {
			t.Errorf("token %s listed twice", tok)
		}
		seen[tok] = true
		if !tok.Known() {
			t.Errorf("%s is not Known", tok)
		}
	}
	if toks[0] != Accent || toks[50] != BashMode {
		t.Errorf("order: first %s last %s", toks[0], toks[50])
	}
	toks[0] = "changed"
	if Tokens()[0] != Accent {
		t.Error("Tokens() shares its backing array with the caller")
	}
	if Token("statusLineBg").Known() {
		t.Error("statusLineBg should not be a cairn token")
	}
}

func TestBuiltins(t *testing.T) {
	for _, tc := range []struct {
		name string
		get  func() *Theme
		dark bool
	}{
		{"dark", Dark, true},
		{"light", Light, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th := tc.get()
			if th == nil || th.Name != tc.name || Builtin(tc.name) != th {
				t.Fatalf("built-in %q not found", tc.name)
			}
			if th.Dark != tc.dark {
				t.Errorf("Dark = %v, want %v", th.Dark, tc.dark)
			}
			if len(th.Warnings) != 0 {
				t.Errorf("warnings: %v", th.Warnings)
			}
			// Every token is written out in the file itself, not only
			// accepted by Parse.
			var doc struct {
				Colors map[string]any `json:"colors"`
			}
			if err := json.Unmarshal(BuiltinJSON(tc.name), &doc); err != nil {
				t.Fatal(err)
			}
			for _, tok := range Tokens() {
				if _, ok := doc.Colors[string(tok)]; !ok {
					t.Errorf("%s.json lacks %s", tc.name, tok)
				}
			}
			if len(doc.Colors) != len(Tokens()) {
				t.Errorf("%s.json has %d colours, want %d", tc.name, len(doc.Colors), len(Tokens()))
			}
		})
	}
	if got := BuiltinNames(); !slices.Equal(got, []string{"dark", "light"}) {
		t.Errorf("BuiltinNames() = %v", got)
	}
	if Builtin("solarized") != nil || BuiltinJSON("solarized") != nil {
		t.Error("unknown built-in found")
	}
}

// TestDarkAnchors pins the colours the issue documents for the dark theme.
func TestDarkAnchors(t *testing.T) {
	want := map[Token]string{
		Accent: "#8abeb7", Border: "#5f87ff", BorderAccent: "#00d7ff", BorderMuted: "#505050",
		Success: "#b5bd68", Error: "#cc6666", Warning: "#ffff00", Muted: "#808080", Dim: "#666666",
		UserMessageBg: "#343541", ToolPendingBg: "#282832", ToolSuccessBg: "#283228", ToolErrorBg: "#3c2828",
		BashMode: "#b5bd68",
	}
	for tok, hex := range want {
		if got := Dark().Hex(tok); got != hex {
			t.Errorf("dark %s = %s, want %s", tok, got, hex)
		}
	}
}

// contrast is the WCAG contrast ratio of two "#rrggbb" colours.
func contrast(a, b string) float64 {
	lum := func(h string) float64 {
		v := mustHex(h)
		ch := func(c uint8) float64 {
			s := float64(c) / 255
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*ch(v.r) + 0.7152*ch(v.g) + 0.0722*ch(v.b)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// TestBuiltinsReadable checks that every foreground token of the built-ins
// stands out from a typical terminal background and from the message and
// tool backgrounds it is drawn on. Border and "off" colours are meant to be
// quiet, so they need less.
func TestBuiltinsReadable(t *testing.T) {
	backgrounds := []Token{UserMessageBg, ToolPendingBg, ToolSuccessBg, ToolErrorBg, CustomMessageBg}
	quiet := map[Token]bool{BorderMuted: true, ThinkingOff: true, Dim: true, MdLinkURL: true,
		ThinkingMinimal: true, MdCodeBlockBorder: true, MdQuoteBorder: true, MdHr: true}
	bgTokens := map[Token]bool{SelectedBg: true}
	for _, b := range backgrounds {
		bgTokens[b] = true
	}
	for _, tc := range []struct {
		th       *Theme
		terminal string
	}{{Dark(), "#1c1c1c"}, {Light(), "#ffffff"}} {
		for _, tok := range Tokens() {
			if bgTokens[tok] || tc.th.IsDefault(tok) {
				continue
			}
			need := 3.0
			if quiet[tok] {
				need = 1.8
			}
			fg := tc.th.Hex(tok)
			if c := contrast(fg, tc.terminal); c < need {
				t.Errorf("%s: %s %s on terminal %s: contrast %.2f < %.1f", tc.th.Name, tok, fg, tc.terminal, c, need)
			}
			for _, b := range backgrounds {
				if c := contrast(fg, tc.th.Hex(b)); c < need*0.8 {
					t.Errorf("%s: %s %s on %s %s: contrast %.2f", tc.th.Name, tok, fg, b, tc.th.Hex(b), c)
				}
			}
		}
	}
}

func TestVarResolution(t *testing.T) {
	data := themeJSON(t, func(doc map[string]any) {
		vars := varsOf(doc)
		vars["base"] = "#102030"
		vars["alias"] = "base"
		vars["alias2"] = "alias"
		vars["pal"] = 242
		vars["none"] = ""
		c := colorsOf(doc)
		c["accent"] = "alias2"
		c["border"] = "pal"
		c["muted"] = "none"
		c["dim"] = 5
		c["success"] = "#A0B0C0"
	})
	th, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		tok   Token
		hex   string
		color color.Color
	}{
		{Accent, "#102030", color.RGBA{0x10, 0x20, 0x30, 0xff}},
		{Border, "#6c6c6c", lipgloss.ANSIColor(242)},
		{Muted, "", lipgloss.NoColor{}},
		{Dim, "#800080", lipgloss.Magenta},
		{Success, "#a0b0c0", color.RGBA{0xa0, 0xb0, 0xc0, 0xff}},
	} {
		if got := th.Hex(tc.tok); got != tc.hex {
			t.Errorf("Hex(%s) = %q, want %q", tc.tok, got, tc.hex)
		}
		if got := th.Color(tc.tok); got != tc.color {
			t.Errorf("Color(%s) = %#v, want %#v", tc.tok, got, tc.color)
		}
		if got := th.Fg(tc.tok).GetForeground(); got != tc.color {
			t.Errorf("Fg(%s) foreground = %#v, want %#v", tc.tok, got, tc.color)
		}
		if got := th.Bg(tc.tok).GetBackground(); got != tc.color {
			t.Errorf("Bg(%s) background = %#v, want %#v", tc.tok, got, tc.color)
		}
	}
	if !th.IsDefault(Muted) || th.IsDefault(Accent) {
		t.Error("IsDefault wrong")
	}
	if th.Color("nope") != (lipgloss.NoColor{}) || th.Hex("nope") != "" {
		t.Error("unknown token should be the terminal default")
	}
	if s := th.Fg(Muted).Render("x"); s != "x" {
		t.Errorf("default-colour style adds escapes: %q", s)
	}
}

func TestDarkDerived(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c map[string]any, doc map[string]any)
		dark bool
	}{
		{"light page export", func(c, doc map[string]any) { doc["export"] = map[string]any{"pageBg": "#fafafa"} }, false},
		{"light user bg", func(c, doc map[string]any) { delete(doc, "export"); c["userMessageBg"] = "#eeeeee" }, false},
		{"dark user bg", func(c, doc map[string]any) { delete(doc, "export"); c["userMessageBg"] = 236 }, true},
		{"no backgrounds, dark text", func(c, doc map[string]any) {
			delete(doc, "export")
			for _, k := range []string{"userMessageBg", "toolPendingBg", "selectedBg", "customMessageBg"} {
				c[k] = ""
			}
			c["text"] = "#202020"
		}, false},
		{"nothing to go on", func(c, doc map[string]any) {
			delete(doc, "export")
			for _, k := range []string{"userMessageBg", "toolPendingBg", "selectedBg", "customMessageBg", "text"} {
				c[k] = ""
			}
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			th, err := Parse(themeJSON(t, func(doc map[string]any) { tc.edit(colorsOf(doc), doc) }))
			if err != nil {
				t.Fatal(err)
			}
			if th.Dark != tc.dark {
				t.Errorf("Dark = %v, want %v", th.Dark, tc.dark)
			}
		})
	}
}

func TestExportColors(t *testing.T) {
	page, card, info := Dark().ExportColors()
	if page != "#1a1b21" || card != "#22232b" || info != "#3a3526" {
		t.Errorf("dark export = %s %s %s", page, card, info)
	}
	page, card, info = Light().ExportColors()
	if page != "#f7f7f5" || card != "#ffffff" || info != "#fbf3dc" {
		t.Errorf("light export = %s %s %s", page, card, info)
	}

	// Without an export section the colours come from userMessageBg: darker
	// for a dark theme, and only the missing ones are derived.
	th, err := Parse(themeJSON(t, func(doc map[string]any) {
		doc["export"] = map[string]any{"cardBg": "#010203"}
	}))
	if err != nil {
		t.Fatal(err)
	}
	page, card, info = th.ExportColors()
	if card != "#010203" {
		t.Errorf("cardBg = %s, want the theme's own", card)
	}
	user := mustHex(th.Hex(UserMessageBg)).luminance()
	if page == "" || mustHex(page).luminance() >= user {
		t.Errorf("derived pageBg %s is not darker than userMessageBg %s", page, th.Hex(UserMessageBg))
	}
	if _, ok := parseHex(info); !ok {
		t.Errorf("infoBg %q is not #rrggbb", info)
	}
}

func TestUnknownKeysWarn(t *testing.T) {
	th, err := Parse(themeJSON(t, func(doc map[string]any) {
		colorsOf(doc)["statusLineBg"] = "#121212"
		colorsOf(doc)["statusLineSep"] = "not even a colour"
		doc["export"].(map[string]any)["footerBg"] = "#000000"
		doc["$schema"] = "https://example.invalid/schema.json"
	}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`theme "x": colors.statusLineBg is not a cairn token; ignored`,
		`theme "x": colors.statusLineSep is not a cairn token; ignored`,
		`theme "x": export.footerBg is not an export colour; ignored`,
	}
	if !slices.Equal(th.Warnings, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(th.Warnings, "\n"), strings.Join(want, "\n"))
	}
}

func TestChromaStyle(t *testing.T) {
	for _, th := range []*Theme{Dark(), Light()} {
		st := th.ChromaStyle()
		if st != th.ChromaStyle() {
			t.Error("ChromaStyle is rebuilt on every call")
		}
		for _, tc := range []struct {
			kind chroma.TokenType
			tok  Token
		}{
			{chroma.Keyword, SyntaxKeyword},
			{chroma.KeywordReserved, SyntaxKeyword}, // inherited from Keyword
			{chroma.KeywordType, SyntaxType},
			{chroma.NameFunction, SyntaxFunction},
			{chroma.LiteralStringDouble, SyntaxString},
			{chroma.LiteralNumberInteger, SyntaxNumber},
			{chroma.CommentSingle, SyntaxComment},
			{chroma.Punctuation, SyntaxPunctuation},
			{chroma.GenericInserted, ToolDiffAdded},
			{chroma.GenericDeleted, ToolDiffRemoved},
		} {
			if got, want := st.Get(tc.kind).Colour.String(), th.Hex(tc.tok); got != want {
				t.Errorf("%s: %s colour = %s, want %s (%s)", th.Name, tc.kind, got, want, tc.tok)
			}
		}
		if st.Get(chroma.Comment).Italic != chroma.Yes {
			t.Errorf("%s: comments not italic", th.Name)
		}
		if st.Get(chroma.Background).Background.IsSet() {
			t.Errorf("%s: chroma style sets a background", th.Name)
		}
	}
}

func TestHighlight(t *testing.T) {
	th := Dark()
	r, g, b, _ := th.value(SyntaxKeyword).rgb()
	keyword := "\x1b[38;2;" + itoa(r) + ";" + itoa(g) + ";" + itoa(b) + "m"
	for _, tc := range []struct{ lang, file string }{{"go", ""}, {"", "main.go"}, {"golang", "x.txt"}} {
		out := th.Highlight("func main() {}\n", tc.lang, tc.file)
		if !strings.Contains(out, keyword+"func") {
			t.Errorf("Highlight(%q, %q): keyword colour missing in %q", tc.lang, tc.file, out)
		}
	}
	if out := th.Highlight("plain words", "no-such-language", "README"); out != "plain words" {
		t.Errorf("unknown language changed the text: %q", out)
	}
}

func itoa(n uint8) string { return strconv.Itoa(int(n)) }

func TestThinkingToken(t *testing.T) {
	for level, want := range map[string]Token{
		"off": ThinkingOff, "minimal": ThinkingMinimal, "low": ThinkingLow, "medium": ThinkingMedium,
		"high": ThinkingHigh, "xhigh": ThinkingXhigh, "": ThinkingOff, "extreme": ThinkingOff,
	} {
		if got := ThinkingToken(level); got != want {
			t.Errorf("ThinkingToken(%q) = %s, want %s", level, got, want)
		}
	}
}
