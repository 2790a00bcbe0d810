package themes

import (
	"testing"
)

func TestParseErrors(t *testing.T) {
	const hint = `is not a colour (use "#rrggbb", 0-255, a var name, or "")`
	tests := []struct {
		name string
		data []byte // used when edit is nil
		edit func(doc map[string]any)
		want string
	}{
		{
			name: "short hex",
			edit: func(doc map[string]any) { colorsOf(doc)["mdHeading"] = "#12345" },
			want: `theme "x": colors.mdHeading: "#12345" ` + hint,
		},
		{
			name: "hex with bad digit",
			edit: func(doc map[string]any) { colorsOf(doc)["accent"] = "#12345g" },
			want: `theme "x": colors.accent: "#12345g" ` + hint,
		},
		{
			name: "index out of range",
			edit: func(doc map[string]any) { colorsOf(doc)["border"] = 256 },
			want: `theme "x": colors.border: 256 ` + hint,
		},
		{
			name: "negative index",
			edit: func(doc map[string]any) { colorsOf(doc)["border"] = -1 },
			want: `theme "x": colors.border: -1 ` + hint,
		},
		{
			name: "fractional index",
			edit: func(doc map[string]any) { colorsOf(doc)["border"] = 1.5 },
			want: `theme "x": colors.border: 1.5 ` + hint,
		},
		{
			name: "wrong JSON type",
			edit: func(doc map[string]any) { colorsOf(doc)["text"] = true },
			want: `theme "x": colors.text: true ` + hint,
		},
		{
			name: "one missing token",
			edit: func(doc map[string]any) { delete(colorsOf(doc), "toolDiffAdded") },
			want: `theme "x": missing token toolDiffAdded`,
		},
		{
			name: "several missing tokens, schema order",
			edit: func(doc map[string]any) {
				delete(colorsOf(doc), "bashMode")
				delete(colorsOf(doc), "accent")
			},
			want: `theme "x": missing tokens accent, bashMode`,
		},
		{
			name: "unknown var",
			edit: func(doc map[string]any) {
				doc["vars"] = map[string]any{"blue": "#0000ff", "gray": 242}
				for k := range colorsOf(doc) {
					colorsOf(doc)[k] = "blue"
				}
				colorsOf(doc)["accent"] = "primry"
			},
			want: `theme "x": colors.accent: unknown var "primry" (vars: blue, gray)`,
		},
		{
			name: "var reference with no vars",
			edit: func(doc map[string]any) {
				delete(doc, "vars")
				for k := range colorsOf(doc) {
					colorsOf(doc)[k] = ""
				}
				colorsOf(doc)["dim"] = "gray"
				delete(doc, "export")
			},
			want: `theme "x": colors.dim: unknown var "gray" (the theme has no "vars")`,
		},
		{
			name: "var refers to unknown var, reported once",
			edit: func(doc map[string]any) {
				varsOf(doc)["gray"] = "grey"
			},
			want: `theme "x": vars.gray: unknown var "grey" (vars: accent, blue, cyan, darkGray, dimGray, gold, gray, green, orange, purple, quiet, red, rule, sky, soft, yellow)`,
		},
		{
			name: "bad var value",
			edit: func(doc map[string]any) { varsOf(doc)["red"] = "#ff" },
			want: `theme "x": vars.red: "#ff" ` + hint,
		},
		{
			name: "var cycle",
			edit: func(doc map[string]any) {
				varsOf(doc)["blue"] = "cyan"
				varsOf(doc)["cyan"] = "blue"
			},
			want: `theme "x": vars.blue: circular reference blue -> cyan -> blue`,
		},
		{
			name: "var refers to itself",
			edit: func(doc map[string]any) { varsOf(doc)["sky"] = "sky" },
			want: `theme "x": vars.sky: circular reference sky -> sky`,
		},
		{
			name: "bad export colour",
			edit: func(doc map[string]any) { doc["export"].(map[string]any)["infoBg"] = "yellowish" },
			want: `theme "x": export.infoBg: unknown var "yellowish" (vars: accent, blue, cyan, darkGray, dimGray, gold, gray, green, orange, purple, quiet, red, rule, sky, soft, yellow)`,
		},
		{
			name: "no name",
			edit: func(doc map[string]any) { delete(doc, "name") },
			want: `theme: "name" must be a non-empty string`,
		},
		{
			name: "name not a string",
			edit: func(doc map[string]any) { doc["name"] = 7 },
			want: `theme: "name" must be a non-empty string`,
		},
		{
			name: "no colors",
			edit: func(doc map[string]any) { delete(doc, "colors") },
			want: `theme "x": missing "colors"`,
		},
		{
			name: "colors not an object",
			edit: func(doc map[string]any) { doc["colors"] = []any{"#000000"} },
			want: `theme "x": "colors" must be an object`,
		},
		{
			name: "several problems, one line each",
			edit: func(doc map[string]any) {
				colorsOf(doc)["mdHeading"] = "#12345"
				colorsOf(doc)["accent"] = 300
				delete(colorsOf(doc), "bashMode")
			},
			want: `theme "x": colors.accent: 300 ` + hint + "\n" +
				`theme "x": colors.mdHeading: "#12345" ` + hint + "\n" +
				`theme "x": missing token bashMode`,
		},
		{
			name: "syntax error has a position",
			data: []byte("{\n\t\"name\": \"x\",\n\t\"colors\": {,}\n}"),
			want: `theme: invalid JSON at line 3, column 13: invalid character ',' looking for beginning of object key string`,
		},
		{
			name: "not an object",
			data: []byte(`["dark"]`),
			want: `theme: a theme must be a JSON object`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := tc.data
			if tc.edit != nil {
				data = themeJSON(t, tc.edit)
			}
			th, err := Parse(data)
			if err == nil {
				t.Fatalf("Parse succeeded (theme %q), want error %q", th.Name, tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tc.want)
			}
		})
	}
}
