package checkpoint

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// snapshot is the project's tree as a test sees it, independently of the
// store: path → kind, mode and contents (or link target). .git is left out,
// as checkpoints leave it out.
func snapshot(t testing.TB, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file %v %x", info.Mode(), b)
		case info.IsDir():
			out[rel] = fmt.Sprintf("dir %v", info.Mode())
		case info.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "link " + l
		default:
			out[rel] = "other " + info.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// differences lists the paths whose state differs between two snapshots.
func differences(a, b map[string]string) []string {
	var out []string
	for p, v := range a {
		if b[p] != v {
			out = append(out, p)
		}
	}
	for p := range b {
		if _, ok := a[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// project is one random project and what the test knows about it.
type project struct {
	t    testing.TB
	rng  *rand.Rand
	root string
	sh   bool // run some changes through sh, as the bash tool does
}

var names = []string{"a", "b", "c.txt", "main.go", "data.bin", "x y", "ü"}
var dirs = []string{"", "src", "src/pkg", "node_modules/lib", "build", "docs"}

func (p *project) pick(list []string) string { return list[p.rng.IntN(len(list))] }

func (p *project) path(rel string) string { return filepath.Join(p.root, filepath.FromSlash(rel)) }

// existing returns a random existing path (files, links, directories) or "".
func (p *project) existing(wantDir bool) string {
	snap := snapshot(p.t, p.root)
	var list []string
	for rel, v := range snap {
		if strings.HasPrefix(v, "dir ") == wantDir {
			list = append(list, rel)
		}
	}
	if len(list) == 0 {
		return ""
	}
	sort.Strings(list)
	return p.pick(list)
}

func (p *project) run(cmd string) {
	c := exec.Command("sh", "-c", cmd)
	c.Dir = p.root
	if out, err := c.CombinedOutput(); err != nil {
		p.t.Logf("sh %q: %v %s", cmd, err, out) // a failing command is a valid step too
	}
}

func (p *project) content() []byte {
	n := p.rng.IntN(300)
	if p.rng.IntN(8) == 0 {
		n = 2500 + p.rng.IntN(500) // over the test's per-file limit
	}
	b := make([]byte, n)
	if p.rng.IntN(2) == 0 {
		for i := range b {
			b[i] = byte(p.rng.IntN(256)) // binary
		}
	} else {
		for i := range b {
			b[i] = "abc \n"[p.rng.IntN(5)]
		}
	}
	return b
}

// change makes one random change, as an edit tool or a shell command would.
func (p *project) change() {
	switch p.rng.IntN(10) {
	case 0, 1, 2: // write (create or overwrite)
		d := p.pick(dirs)
		rel := filepath.ToSlash(filepath.Join(d, p.pick(names)))
		_ = os.MkdirAll(p.path(d), 0o755)
		_ = os.WriteFile(p.path(rel), p.content(), 0o644)
	case 3: // edit in place
		if rel := p.existing(false); rel != "" {
			f, err := os.OpenFile(p.path(rel), os.O_WRONLY|os.O_APPEND, 0)
			if err == nil {
				_, _ = f.Write([]byte("edit\n"))
				_ = f.Close()
			}
		}
	case 4: // delete a file or a tree
		if rel := p.existing(p.rng.IntN(2) == 0); rel != "" {
			if p.sh {
				p.run("rm -rf -- '" + rel + "'")
			} else {
				_ = os.RemoveAll(p.path(rel))
			}
		}
	case 5: // rename
		if rel := p.existing(p.rng.IntN(3) == 0); rel != "" {
			to := filepath.ToSlash(filepath.Join(p.pick(dirs), "moved-"+filepath.Base(rel)))
			_ = os.MkdirAll(filepath.Dir(p.path(to)), 0o755)
			if p.sh {
				p.run("mv -- '" + rel + "' '" + to + "'")
			} else {
				_ = os.Rename(p.path(rel), p.path(to))
			}
		}
	case 6: // chmod
		if rel := p.existing(false); rel != "" {
			mode := []fs.FileMode{0o600, 0o644, 0o755, 0o700, 0o444}[p.rng.IntN(5)]
			if p.sh {
				p.run(fmt.Sprintf("chmod %o -- '%s'", mode, rel))
			} else {
				_ = os.Chmod(p.path(rel), mode)
			}
		}
	case 7: // symbolic link
		d := p.pick(dirs)
		_ = os.MkdirAll(p.path(d), 0o755)
		rel := filepath.ToSlash(filepath.Join(d, "link-"+p.pick(names)))
		_ = os.Remove(p.path(rel))
		_ = os.Symlink(p.pick([]string{"a", "../src", "/nonexistent", "main.go"}), p.path(rel))
	case 8: // a file replaced by a directory, or the other way round
		rel := filepath.ToSlash(filepath.Join(p.pick(dirs), p.pick(names)))
		if info, err := os.Lstat(p.path(rel)); err == nil && info.IsDir() {
			_ = os.RemoveAll(p.path(rel))
			_ = os.WriteFile(p.path(rel), p.content(), 0o644)
		} else {
			_ = os.Remove(p.path(rel))
			_ = os.MkdirAll(p.path(rel+"/inner"), 0o755)
			_ = os.WriteFile(p.path(rel+"/inner/f"), p.content(), 0o600)
		}
	case 9: // the project's own .git, which checkpoints never touch
		_ = os.MkdirAll(p.path(".git/objects"), 0o755)
		_ = os.WriteFile(p.path(".git/objects/x"), p.content(), 0o644)
	}
}

// gitBytes is the .git directory's contents, which no rewind may change.
func gitBytes(t testing.TB, root string) string {
	var b strings.Builder
	_ = filepath.WalkDir(filepath.Join(root, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s %x\n", p, data)
		}
		return nil
	})
	return b.String()
}

// TestPropertyRewind: 100 seeded random sequences of edits, shell commands
// (create, delete, rename, chmod, binary files, files in ignored
// directories, links, type changes), rewinds and redos. After each rewind
// the tree is byte for byte what it was at the checkpoint, except paths the
// rewind named; a named path is one a checkpoint could not keep; the .git
// directory is never changed; and every redo gives back the state before
// its rewind (no byte lost).
func TestPropertyRewind(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to run shell commands with")
	}
	for seq := range 100 {
		t.Run(fmt.Sprint(seq), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(29, uint64(seq)))
			p := &project{t: t, rng: rng, root: t.TempDir(), sh: seq%4 == 0}
			_ = os.WriteFile(p.path(".gitignore"), []byte("node_modules/\nbuild/\n"), 0o644)
			s, err := Open(Options{Project: p.root, Dir: t.TempDir(), Limits: Limits{MaxFileBytes: 2000, MaxTotalBytes: 40000}})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			type point struct {
				id   string
				snap map[string]string
			}
			var points []point
			for step := range 12 {
				cp, err := s.Record(ctx, PhaseBefore, fmt.Sprint(step))
				if err != nil {
					t.Fatal(err)
				}
				points = append(points, point{cp.ID, snapshot(t, p.root)})
				for range 1 + rng.IntN(4) {
					p.change()
				}
				if rng.IntN(3) != 0 {
					continue
				}
				target := points[rng.IntN(len(points))]
				before := snapshot(t, p.root)
				git := gitBytes(t, p.root)
				res := checkRewind(t, s, p.root, target.id, target.snap, before)
				if gitBytes(t, p.root) != git {
					t.Fatalf("step %d: the rewind changed .git", step)
				}
				if rng.IntN(2) == 0 { // redo
					checkRewind(t, s, p.root, res.Undo.ID, before, snapshot(t, p.root))
				}
			}
		})
	}
}

// checkRewind rewinds to id and checks the tree against want: every path
// that differs is named, for a reason a checkpoint could not keep it, and a
// named path that existed before the rewind was left as it was.
func checkRewind(t *testing.T, s *Store, root, id string, want, before map[string]string) *Result {
	t.Helper()
	res, err := s.Rewind(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	got := snapshot(t, root)
	if testing.Verbose() {
		t.Logf("rewind to %s: restored %v, not %v", id, res.Restored, res.NotRestored)
	}
	named := map[string]string{}
	for _, u := range res.NotRestored {
		named[u.Path] = u.Reason
	}
	for _, p := range differences(got, want) {
		why, ok := named[p]
		if !ok {
			t.Fatalf("%s differs after rewinding to %s and the rewind did not say so:\n got  %.120s\n want %.120s", p, id, got[p], want[p])
		}
		if why != "" && !strings.Contains(why, "limit") && !strings.Contains(why, "left in place") && !strings.Contains(why, "could not be saved") {
			t.Fatalf("%s not restored for an unexpected reason: %s\n got  %.120s\n want %.120s", p, why, got[p], want[p])
		}
	}
	for p := range named {
		if b, ok := before[p]; ok && got[p] != b && got[p] != want[p] {
			t.Fatalf("%s was named as not restored but was changed anyway (lost): before %.80s, now %.80s", p, b, got[p])
		}
	}
	for _, p := range res.Restored {
		if named[p] != "" {
			t.Fatalf("%s is both restored and not", p)
		}
	}
	if !slices.IsSorted(res.Restored) {
		t.Errorf("restored paths out of order: %v", res.Restored)
	}
	return res
}

// TestRewindRestoresDeletedTree is the case: rm -rf src, then a
// rewind brings src back, and redo removes it again.
func TestRewindRestoresDeletedTree(t *testing.T) {
	root := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(root, "src/pkg"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src/main.go"), []byte("package main\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(root, "src/pkg/run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Symlink("main.go", filepath.Join(root, "src/link")))
	s, err := Open(Options{Project: root, Dir: t.TempDir()})
	must(t, err)
	ctx := context.Background()
	cp, err := s.Record(ctx, PhaseBefore, "prompt")
	must(t, err)
	want := snapshot(t, root)
	must(t, os.RemoveAll(filepath.Join(root, "src")))
	plan, err := s.Preview(ctx, cp.ID)
	must(t, err)
	if len(plan.Changes) != 5 || plan.Changes[0].Path != "src" || plan.Changes[0].Action != ActionCreate {
		t.Fatalf("plan: %+v", plan.Changes)
	}
	if len(plan.Outside) != 5 {
		t.Errorf("the deletion happened after the last checkpoint, outside a run: want it warned about, got %+v", plan.Outside)
	}
	res, err := s.Rewind(ctx, cp.ID)
	must(t, err)
	if d := differences(snapshot(t, root), want); len(d) != 0 || len(res.NotRestored) != 0 {
		t.Fatalf("after rewind: differs %v; not restored %v", d, res.NotRestored)
	}
	if _, err := s.Rewind(ctx, res.Undo.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(root, "src")); !os.IsNotExist(err) {
		t.Fatalf("redo left src: %v", err)
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
