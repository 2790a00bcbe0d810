package approval

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestSkillFilesReadUnasked: a listed skill's SKILL.md and the files
// beside it are read without a question, in cairn's own directory too;
// a link in a skill's directory is judged where it leads; a skill
// directory that would open cairn's keys is ignored.
func TestSkillFilesReadUnasked(t *testing.T) {
	m := newMachine(t)
	userSkill := filepath.Join(m.home, ".claude", "skills", "x")
	cairnSkill := filepath.Join(m.cairn, "skills", "y")
	for _, f := range []string{filepath.Join(userSkill, "SKILL.md"), filepath.Join(userSkill, "references", "a.md"),
		filepath.Join(cairnSkill, "SKILL.md"), filepath.Join(m.home, ".claude", "skills", "other", "SKILL.md")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(m.cairn, "models.json"), filepath.Join(userSkill, "keys")); err != nil {
		t.Fatal(err)
	}
	g := openGate(t, Config{Mode: ModeDefault, Dir: m.project, ProtectedDirs: []string{m.cairn},
		SkillDirs: []string{userSkill, cairnSkill, m.home, "/"}})
	for _, c := range []struct {
		tool  pathTool
		path  string
		asked bool
	}{
		{readFile, filepath.Join(userSkill, "SKILL.md"), false},
		{readFile, filepath.Join(userSkill, "references", "a.md"), false},
		{grepTree, userSkill, false},
		{readFile, filepath.Join(cairnSkill, "SKILL.md"), false},
		{readFile, filepath.Join(userSkill, "keys"), true},
		{readFile, filepath.Join(m.cairn, "models.json"), true},
		{readFile, filepath.Join(m.home, ".claude", "skills", "other", "SKILL.md"), true},
		{grepTree, filepath.Join(m.home, ".claude", "skills"), true},
		{readFile, filepath.Join(m.outside, "notes"), true},
	} {
		ui := newFakeUI(pick(OptionAllowOnce))
		d := g.Check(context.Background(), c.tool, pathCall(c.tool.name, c.path), ui)
		if !d.Allow || (ui.asked() != 0) != c.asked {
			t.Errorf("%s %s: %+v after %d questions, want asked %v", c.tool.name, c.path, d, ui.asked(), c.asked)
		}
	}
}
