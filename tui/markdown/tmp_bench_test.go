package markdown

import (
	"strings"
	"testing"
)

func BenchmarkTmpBlock(b *testing.B) {
	para := strings.Repeat("Some words in a paragraph with `code` and **bold** text. ", 7)
	code1 := "```go\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 12) + "```\n"
	code4 := "```go\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 48) + "```\n"
	bare := "```\n" + strings.Repeat("func f(x int) int {\n\treturn x * 2 // double\n}\n", 12) + "```\n"
	list := strings.Repeat("- an item with some words in it\n", 10)
	for name, md := range map[string]string{"para400": para, "code1k": code1, "code4k": code4, "bare1k": bare, "list": list} {
		for _, p := range []struct{ n string; p Palette }{{"pal", darkPalette}, {"nocolor", Palette{Dark: true}}} {
			r := New(p.p, 100)
			b.Run(name+"/"+p.n, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r.Render(md)
				}
			})
		}
	}
}
