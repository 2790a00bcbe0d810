package skills

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkLoad measures what skills add to a start: finding and reading
// 100 skills in two roots (one nested a level down) and building the
// system prompt's list.
func BenchmarkLoad(b *testing.B) {
	home := b.TempDir()
	for i := range 50 {
		writeFile(b, filepath.Join(home, ".cairn", "skills", fmt.Sprintf("s%02d", i), FileName),
			skill(fmt.Sprintf("s%02d", i), "Does thing number "+fmt.Sprint(i)+". Use when the task needs it.", "body"))
		writeFile(b, filepath.Join(home, ".claude", "skills", "group", fmt.Sprintf("c%02d", i), FileName),
			skill(fmt.Sprintf("c%02d", i), "Claude's thing number "+fmt.Sprint(i)+".", "body"))
	}
	roots := Roots(Where{Home: home, CairnDir: filepath.Join(home, ".cairn"), OtherAgents: true})
	b.ReportAllocs()
	for b.Loop() {
		set := Load(roots)
		if len(set.Skills) != 100 || set.Prompt() == "" {
			b.Fatalf("%d skills", len(set.Skills))
		}
	}
}
