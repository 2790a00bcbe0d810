package approval

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// pathTool is a tool declaring a path parameter, as the built-in tools do.
type pathTool struct {
	name string
	cat  core.ApprovalCategory
}

func (t pathTool) Spec() core.ToolSpec {
	return core.ToolSpec{Name: t.name, Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"},"pattern":{"type":"string"}}}`)}
}
func (t pathTool) Category() core.ApprovalCategory { return t.cat }
func (t pathTool) Kind() core.ToolKind             { return core.KindOther }
func (t pathTool) Execute(context.Context, core.ToolCall, func(core.ToolUpdate)) (core.ToolResult, error) {
	return core.ToolResult{}, nil
}

var (
	writeFile = pathTool{"write", core.CategoryEdit}
	readFile  = pathTool{"read", core.CategoryInfo}
	grepTree  = pathTool{"grep", core.CategoryInfo}
)

// machine lays out a home, a temporary directory, a cairn directory with
// keys, a project and a directory outside it, each apart from the others,
// and points HOME and TMPDIR at them. The project holds links:
//
//	hook -> .git/hooks/pre-commit, rc -> ~/.bashrc, keys -> ~/.cairn/models.json,
//	out -> <outside>/notes, up -> <outside>
type machine struct {
	home, tmp, cairn, project, outside string
}

func newMachine(t *testing.T) machine {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := machine{home: filepath.Join(base, "home"), tmp: filepath.Join(base, "tmp"), project: filepath.Join(base, "project"), outside: filepath.Join(base, "outside")}
	m.cairn = filepath.Join(m.home, ".cairn")
	for _, d := range []string{m.tmp, m.cairn, filepath.Join(m.project, ".git", "hooks"), m.outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(m.cairn, "models.json"), filepath.Join(m.outside, "notes"), filepath.Join(m.project, "main.go")} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"hook": ".git/hooks/pre-commit", "rc": filepath.Join(m.home, ".bashrc"),
		"keys": filepath.Join(m.cairn, "models.json"), "out": filepath.Join(m.outside, "notes"), "up": m.outside} {
		if err := os.Symlink(target, filepath.Join(m.project, link)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", m.home)
	t.Setenv("TMPDIR", m.tmp)
	return m
}

func (m machine) gate(t *testing.T, mode Mode, allowWrite ...string) *Gate {
	return openGate(t, Config{Mode: mode, Dir: m.project, ProtectedDirs: []string{m.cairn}, AllowWrite: allowWrite})
}

func pathCall(name, p string) core.ToolCall {
	if p == "" {
		return call(name, map[string]string{})
	}
	return call(name, map[string]string{"path": p})
}

// TestWritesAreJudgedWhereTheyLand: a path is judged as the tool will
// write it, '@' dropped and links followed, and auto_edit writes unasked
// only inside the project, the temporary directory and approval.allowWrite.
func TestWritesAreJudgedWhereTheyLand(t *testing.T) {
	m := newMachine(t)
	tests := []struct {
		name     string
		mode     Mode
		rule     bool // the session allows edits of every file in the project
		path     string
		allow    []string
		subject  string // what the question names; "" when nothing is asked
		warning  string // in the question, for a protected file
		unasked  bool   // allowed by the mode without asking
		byPolicy string // in the refusal when nobody can be asked
	}{
		{name: "mention of the rules file", mode: ModeAutoEdit, path: "@.cairn/approvals.json", subject: ".cairn/approvals.json", warning: "a file that controls cairn", byPolicy: "only --approval yolo"},
		{name: "mention of the rules file under a project rule", mode: ModeDefault, rule: true, path: "@.cairn/approvals.json", subject: ".cairn/approvals.json", warning: "a file that controls cairn"},
		{name: "link to a git hook", mode: ModeAutoEdit, path: "hook", subject: ".git/hooks/pre-commit", warning: "a git hook"},
		{name: "link to a git hook under a project rule", mode: ModeDefault, rule: true, path: "hook", subject: ".git/hooks/pre-commit", warning: "a git hook"},
		{name: "link to the user's cairn keys", mode: ModeAutoEdit, path: "keys", subject: "/home/.cairn/models.json", warning: "a file that controls cairn"},
		{name: "link out of the project", mode: ModeAutoEdit, path: "out", subject: "/outside/notes", byPolicy: "approval.allowWrite"},
		{name: "link out under a project rule", mode: ModeDefault, rule: true, path: "out", subject: "/outside/notes"},
		{name: "directory link out of the project", mode: ModeAutoEdit, path: "up/new.txt", subject: "/outside/new.txt"},
		{name: "link to the shell's start-up file", mode: ModeAutoEdit, path: "rc", subject: "/home/.bashrc"},
		{name: "shell start-up file", mode: ModeAutoEdit, path: "~/.bashrc", subject: "/home/.bashrc", byPolicy: "--approval yolo"},
		{name: "ssh keys", mode: ModeAutoEdit, path: "~/.ssh/authorized_keys", subject: "/home/.ssh/authorized_keys"},
		{name: "outside in default mode names no flag that would not help", mode: ModeDefault, path: "~/.bashrc", subject: "/home/.bashrc", byPolicy: "approval.allowWrite"},
		{name: "parent directory", mode: ModeAutoEdit, path: "../outside/x", subject: "/outside/x"},
		{name: "inside the project", mode: ModeAutoEdit, path: "src/new.go", unasked: true},
		{name: "mention inside the project", mode: ModeAutoEdit, path: "@main.go", unasked: true},
		{name: "temporary directory", mode: ModeAutoEdit, path: "/tmp-dir/x", unasked: true},
		{name: "widened by approval.allowWrite", mode: ModeAutoEdit, path: "/outside/x", allow: []string{"/outside"}, unasked: true},
		{name: "allowWrite through ~", mode: ModeAutoEdit, path: "~/notes.txt", allow: []string{"~"}, unasked: true},
		{name: "allowWrite does not open cairn's keys", mode: ModeAutoEdit, path: "~/.cairn/models.json", allow: []string{"~"}, subject: "/home/.cairn/models.json", warning: "a file that controls cairn"},
		{name: "yolo writes anywhere", mode: ModeYolo, path: "rc", unasked: true},
	}
	expand := func(s string) string {
		for short, long := range map[string]string{"/home": m.home, "/outside": m.outside, "/tmp-dir": m.tmp} {
			if s == short || strings.HasPrefix(s, short+"/") {
				return long + s[len(short):]
			}
		}
		return s
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var allow []string
			for _, a := range tt.allow {
				allow = append(allow, expand(a))
			}
			g := m.gate(t, tt.mode, allow...)
			if tt.rule {
				g.remember([]Rule{{Tool: "write", Path: "."}})
			}
			ui := newFakeUI(pick(OptionAllowOnce))
			d := g.Check(context.Background(), writeFile, pathCall("write", expand(tt.path)), ui)
			if tt.unasked {
				if !d.Allow || ui.asked() != 0 {
					t.Fatalf("decision %+v after %d questions, want allowed unasked", d, ui.asked())
				}
				return
			}
			if ui.asked() != 1 || !d.Allow {
				t.Fatalf("decision %+v after %d questions, want asked once", d, ui.asked())
			}
			q := ui.lastSelect()
			if want := "Allow write: " + filepath.ToSlash(expand(tt.subject)) + "?"; q.Title != want {
				t.Errorf("title %q, want %q", q.Title, want)
			}
			if tt.warning != "" && (!strings.Contains(q.Message, tt.warning) || slices.Contains(optionValues(q), OptionAllowSession)) {
				t.Errorf("message %q, options %v: want the warning %q and no remembering", q.Message, optionValues(q), tt.warning)
			}
			if tt.byPolicy != "" {
				d := g.Check(context.Background(), writeFile, pathCall("write", expand(tt.path)), nobody{})
				if d.Allow || d.By != ByPolicy || !strings.Contains(d.DenialText(), tt.byPolicy) {
					t.Errorf("nobody to ask: %+v, want a refusal naming %q", d, tt.byPolicy)
				}
			}
		})
	}
}

// TestReadsOutsideTheProjectAsk: reading tools look inside the project
// (and the temporary directory) unasked, ask elsewhere, and always ask
// where cairn keeps its keys or processes' environments can be read.
func TestReadsOutsideTheProjectAsk(t *testing.T) {
	m := newMachine(t)
	tests := []struct {
		name     string
		tool     pathTool
		path     string
		modes    []Mode
		secret   string // the warning, for a read that always asks
		unasked  bool
		byPolicy string
	}{
		{name: "inside the project", tool: readFile, path: "main.go", unasked: true},
		{name: "the project, by default", tool: grepTree, path: "", unasked: true},
		{name: "temporary directory", tool: readFile, path: "/tmp-dir/bash-output.log", unasked: true},
		{name: "outside", tool: readFile, path: "/outside/notes", byPolicy: "--approval yolo"},
		{name: "sibling directory", tool: grepTree, path: "../outside", byPolicy: "--approval yolo"},
		{name: "parent directory, which holds the home", tool: grepTree, path: "..", secret: "which holds cairn's own files"},
		{name: "link out of the project", tool: readFile, path: "out"},
		{name: "cairn's models.json", tool: readFile, path: "~/.cairn/models.json", secret: "one of cairn's own files", byPolicy: "only --approval yolo"},
		{name: "link to cairn's keys", tool: readFile, path: "keys", secret: "one of cairn's own files"},
		{name: "search through cairn's directory", tool: grepTree, path: "~/.cairn", secret: "one of cairn's own files"},
		{name: "search through home", tool: grepTree, path: "~", secret: "which holds cairn's own files"},
		{name: "a process's environment", tool: readFile, path: "/proc/self/environ", secret: "processes' environments"},
		{name: "search from the root", tool: grepTree, path: "/", secret: "which holds"},
	}
	expand := func(s string) string {
		for short, long := range map[string]string{"/home": m.home, "/outside": m.outside, "/tmp-dir": m.tmp} {
			if s == short || strings.HasPrefix(s, short+"/") {
				return long + s[len(short):]
			}
		}
		return s
	}
	for _, tt := range tests {
		for _, mode := range []Mode{ModeDefault, ModeAutoEdit} {
			t.Run(tt.name+"/"+string(mode), func(t *testing.T) {
				g := m.gate(t, mode)
				ui := newFakeUI(pick(OptionAllowOnce))
				d := g.Check(context.Background(), tt.tool, pathCall(tt.tool.name, expand(tt.path)), ui)
				if tt.unasked {
					if !d.Allow || ui.asked() != 0 {
						t.Fatalf("decision %+v after %d questions, want allowed unasked", d, ui.asked())
					}
					return
				}
				if ui.asked() != 1 || !d.Allow {
					t.Fatalf("decision %+v after %d questions, want asked once", d, ui.asked())
				}
				q := ui.lastSelect()
				remembers := slices.Contains(optionValues(q), OptionAllowSession)
				if tt.secret != "" && (!strings.Contains(q.Message, tt.secret) || remembers) {
					t.Errorf("message %q, options %v: want %q and no remembering", q.Message, optionValues(q), tt.secret)
				}
				if tt.secret == "" && (!strings.Contains(q.Message, "reads outside the project") || !remembers) {
					t.Errorf("message %q, options %v: want the outside warning and a session rule", q.Message, optionValues(q))
				}
				if tt.byPolicy != "" {
					d := g.Check(context.Background(), tt.tool, pathCall(tt.tool.name, expand(tt.path)), nobody{})
					if d.Allow || d.By != ByPolicy || !strings.Contains(d.DenialText(), tt.byPolicy) {
						t.Errorf("nobody to ask: %+v, want a refusal naming %q", d, tt.byPolicy)
					}
				}
			})
		}
		t.Run(tt.name+"/yolo", func(t *testing.T) {
			if d := m.gate(t, ModeYolo).Check(context.Background(), tt.tool, pathCall(tt.tool.name, expand(tt.path)), newFakeUI()); !d.Allow {
				t.Errorf("yolo: %+v", d)
			}
		})
	}
}

func TestReadOutsideRememberedForTheSession(t *testing.T) {
	m := newMachine(t)
	g := m.gate(t, ModeDefault)
	ui := newFakeUI(pick(OptionAllowSession))
	notes := pathCall("read", filepath.Join(m.outside, "notes"))
	if d := g.Check(context.Background(), readFile, notes, ui); !d.Allow || d.Scope != ScopeSession {
		t.Fatalf("first read: %+v", d)
	}
	if d := g.Check(context.Background(), readFile, notes, ui); !d.Allow || d.By != ByRule || ui.asked() != 1 {
		t.Fatalf("second read: %+v after %d questions", d, ui.asked())
	}
	// The rule is for that file and that tool.
	ui = newFakeUI(pick(OptionDeny))
	if d := g.Check(context.Background(), grepTree, pathCall("grep", m.outside), ui); d.Allow || ui.asked() != 1 {
		t.Fatalf("grep of the directory: %+v after %d questions", d, ui.asked())
	}
}

// TestGateRefusesAmbiguousArguments: the gate reads the arguments a tool
// will run with, so arguments that could read two ways are refused unasked.
func TestGateRefusesAmbiguousArguments(t *testing.T) {
	g := openGate(t, Config{Mode: ModeDefault, Dir: t.TempDir()})
	g.remember([]Rule{{Tool: "bash", Command: "git status"}, {Tool: "write", Path: "."}})
	for _, c := range []struct {
		tool core.Tool
		args string
	}{
		{bashTool, `{"command":"git status","Command":"touch x"}`},
		{bashTool, `{"command":"git status","command":"touch x"}`},
		{writeFile, `{"path":"a.txt","Path":".cairn/settings.json"}`},
		{writeFile, `{"path":"a.txt","file":"x"}`},
		{readFile, `{"path":"a.txt","PATH":"/proc/self/environ"}`},
	} {
		ui := newFakeUI()
		d := g.Check(context.Background(), c.tool, core.ToolCall{Name: c.tool.Spec().Name, Arguments: json.RawMessage(c.args)}, ui)
		if d.Allow || d.By != ByArguments || !strings.Contains(d.DenialText(), "was not run") || ui.asked() != 0 {
			t.Errorf("%s: %+v after %d questions, want refused unasked", c.args, d, ui.asked())
		}
	}
}

// In auto (where --mode rpc starts, as pi runs tools) reads anywhere run
// unasked, but reading cairn's keys or a process's environment still asks.
func TestAutoModeReadsAnywhereButSecrets(t *testing.T) {
	m := newMachine(t)
	for _, tt := range []struct {
		tool    pathTool
		path    string
		unasked bool
	}{
		{readFile, filepath.Join(m.outside, "notes"), true},
		{grepTree, m.outside, true},
		{readFile, filepath.Join(m.home, ".cairn", "models.json"), false},
		{readFile, "/proc/self/environ", false},
		{grepTree, m.home, false},
	} {
		g := m.gate(t, ModeAuto)
		ui := newFakeUI(pick(OptionDeny))
		d := g.Check(context.Background(), tt.tool, pathCall(tt.tool.name, tt.path), ui)
		if tt.unasked && (!d.Allow || ui.asked() != 0) || !tt.unasked && (d.Allow || ui.asked() != 1) {
			t.Errorf("%s %s: decision %+v after %d questions, want unasked=%v", tt.tool.name, tt.path, d, ui.asked(), tt.unasked)
		}
	}
}
