package themes

import "testing"

func BenchmarkParseBuiltin(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(darkJSON); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFgRender(b *testing.B) {
	th := Dark()
	b.ReportAllocs()
	for b.Loop() {
		_ = th.Fg(MdHeading).Render("Heading")
	}
}

func BenchmarkHighlight(b *testing.B) {
	th := Dark()
	src := "package main\n\nimport \"fmt\"\n\n// main prints a greeting.\nfunc main() {\n\tfor i := 0; i < 3; i++ {\n\t\tfmt.Println(\"hello\", i)\n\t}\n}\n"
	th.Highlight(src, "go", "") // load the lexer outside the timing
	b.ReportAllocs()
	for b.Loop() {
		_ = th.Highlight(src, "go", "")
	}
}
