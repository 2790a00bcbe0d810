package approval

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// TestFilesNamed: the files a command line names, as a hook's line would
// run them: programs named with a slash and interpreters' scripts run,
// other operands are named, what the line writes is not, and
// $CLAUDE_PROJECT_DIR stands for its value.
func TestFilesNamed(t *testing.T) {
	vars := map[string]string{"CLAUDE_PROJECT_DIR": "/p", "CAIRN_PROJECT_DIR": `/q "x" $y`}
	tests := []struct {
		line string
		want []LineFile
	}{
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py`, []LineFile{{"/p/.claude/hooks/x.py", true}}},
		{`${CLAUDE_PROJECT_DIR}/hooks/x.sh --fast`, []LineFile{{"/p/hooks/x.sh", true}}},
		{`"$CAIRN_PROJECT_DIR/run.sh"`, []LineFile{{`/q "x" $y/run.sh`, true}}},
		{`bash tools/start.sh`, []LineFile{{"bash", false}, {"tools/start.sh", true}}},
		{`node ./x.js --flag`, []LineFile{{"node", false}, {"x.js", true}}},
		{`python3 -u scripts/x.py arg`, []LineFile{{"python3", false}, {"scripts/x.py", true}, {"arg", false}}},
		{`python3 scripts/x.py | tee -a .claude/log`, []LineFile{{"python3", false}, {"scripts/x.py", true}, {"tee", false}}},
		{`cd tools && ./run.sh > out.txt`, []LineFile{{"cd", false}, {"tools", false}, {"tools/run.sh", true}}},
		{`sh -c 'bash y.sh'`, []LineFile{{"bash", false}, {"y.sh", true}}},
		{`timeout 5 env A=1 ./check.sh`, []LineFile{{"check.sh", true}}},
		{`sudo /opt/x.sh`, []LineFile{{"/opt/x.sh", true}}},
		{`source ./env.sh`, []LineFile{{"source", false}, {"env.sh", true}}},
		{`echo "$(./gen.sh)"`, []LineFile{{"echo", false}, {"gen.sh", true}}},
		{`$OTHER/foo.sh`, nil},
		{`cp a.sh b.sh`, []LineFile{{"cp", false}, {"a.sh", false}}},
		{`chmod +x x.sh && ./x.sh`, []LineFile{{"chmod", false}, {"+x", false}, {"x.sh", true}}},
	}
	for _, tt := range tests {
		got, ok := FilesNamed(tt.line, vars)
		if !ok || !slices.Equal(got, tt.want) {
			t.Errorf("FilesNamed(%q) = %v, %v; want %v", tt.line, got, ok, tt.want)
		}
	}
	if _, ok := FilesNamed(`echo 'unclosed`, vars); ok {
		t.Error("a line that does not parse is ok")
	}
	if _, ok := FilesNamed("bash "+strings.Repeat("x", MaxNamedLine), vars); ok {
		t.Error("a line past MaxNamedLine is ok")
	}
}

// FuzzFilesNamed: no line makes FilesNamed panic, and every file it names
// is a clean path or starts with ~.
func FuzzFilesNamed(f *testing.F) {
	for _, s := range []string{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py`, `cd a && bash ../b.sh > c`, `sh -c "node ${CAIRN_PROJECT_DIR}/x.js"`, `a=$(./x); "$a"`, `sudo -n ~/x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		files, _ := FilesNamed(line, map[string]string{"CLAUDE_PROJECT_DIR": "/p", "CAIRN_PROJECT_DIR": "/p'q"})
		for _, file := range files {
			if file.Path == "" || !strings.HasPrefix(file.Path, "~") && path.Clean(file.Path) != file.Path {
				t.Fatalf("FilesNamed(%q) names %q", line, file.Path)
			}
		}
	})
}
