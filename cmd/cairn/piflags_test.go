package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// piDocumentedFlags are the flags of `pi --help` (0.87.1) that cairn's own
// flags did not cover, each with a value where it takes one.
var piDocumentedFlags = [][]string{
	{"--append-system-prompt", "Be brief."}, {"--name", "My run"}, {"-n", "My run"},
	{"--session-id", "run-1"}, {"--models", "sonnet,haiku"},
	{"--no-tools"}, {"-nt"}, {"--no-builtin-tools"}, {"-nbt"}, {"--tools", "read,bash"}, {"-t", "read"},
	{"--exclude-tools", "bash"}, {"-xt", "bash"}, {"--extension", "x.ts"}, {"-e", "x.ts"},
	{"--no-extensions"}, {"-ne"}, {"--skill", "s"}, {"--no-skills"}, {"-ns"},
	{"--prompt-template", "p.md"}, {"--no-prompt-templates"}, {"-np"}, {"--theme", "t.json"},
	{"--use-theme", "dark"}, {"--no-themes"}, {"--no-context-files"}, {"-nc"}, {"--verbose"},
	{"--tui-mode", "fullscreen"}, {"--approve"}, {"-a"}, {"--no-approve"}, {"-na"}, {"--offline"},
	{"--fork", "abc"},
}

// TestPiFlagsAreAccepted: every flag pi 0.87 documents parses (before,
// 25 of them ended cairn with exit code 2 before it answered).
func TestPiFlagsAreAccepted(t *testing.T) {
	for _, args := range piDocumentedFlags {
		if _, err := parseArgs(append([]string{"--mode", "rpc"}, args...)); err != nil {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// textScript is the environment of a run whose model answers "ok".
func textScript(t *testing.T) map[string]string {
	return map[string]string{"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
}

// TestPiFlagsWithoutEffectSaySo: a pi flag cairn cannot apply is accepted
// and named on stderr, never ignored silently; the run answers as usual.
func TestPiFlagsWithoutEffectSaySo(t *testing.T) {
	stdin := `{"id":"s","type":"get_state"}` + "\n"
	for _, flag := range []string{"--models", "--theme", "--use-theme", "--no-themes", "--verbose", "--tui-mode"} {
		args := []string{"--provider", "faux", "--no-session", "--mode", "rpc", flag}
		if findFlag(flag).value {
			args = append(args, "x")
		}
		r := invoke(t, textScript(t), &stdin, args...)
		if r.code != 0 || !strings.Contains(r.stdout, `"command":"get_state","success":true`) {
			t.Errorf("%s: exit %d\n%s\n%s", flag, r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "cairn: "+flag+" has no effect in cairn") {
			t.Errorf("%s: stderr does not say it has no effect: %q", flag, r.stderr)
		}
	}
}

// TestPiNameSetsTheSessionName: --name is get_state's sessionName, as in pi.
func TestPiNameSetsTheSessionName(t *testing.T) {
	stdin := `{"id":"s","type":"get_state"}` + "\n"
	for _, flag := range []string{"--name", "-n"} {
		r := invoke(t, textScript(t), &stdin, "--provider", "faux", "--no-session", "--mode", "rpc", flag, "Refactor auth")
		if !strings.Contains(r.stdout, `"sessionName":"Refactor auth"`) {
			t.Errorf("%s: get_state:\n%s\n%s", flag, r.stdout, r.stderr)
		}
	}
}

// namedTool is a tool that is only a name.
type namedTool struct{ core.Tool }

func (n namedTool) Spec() core.ToolSpec { return core.ToolSpec{Name: n.Tool.(nameOnly).name} }

type nameOnly struct {
	core.Tool
	name string
}

func toolsNamed(names ...string) []core.Tool {
	out := make([]core.Tool, len(names))
	for i, n := range names {
		out[i] = namedTool{nameOnly{name: n}}
	}
	return out
}

// TestToolSelection: pi's --tools allowlist wins over --no-tools and
// --no-builtin-tools, --exclude-tools always removes, --no-builtin-tools
// keeps MCP tools, and names no tool has are reported.
func TestToolSelection(t *testing.T) {
	all := toolsNamed("read", "bash", "edit", "mcp__gh__search")
	tests := []struct {
		sel          ToolSelection
		want, absent []string
	}{
		{ToolSelection{}, []string{"read", "bash", "edit", "mcp__gh__search"}, nil},
		{ToolSelection{None: true}, nil, nil},
		{ToolSelection{NoBuiltin: true}, []string{"mcp__gh__search"}, nil},
		{ToolSelection{Allow: []string{"read", "grep"}, AllowSet: true}, []string{"read"}, []string{"grep"}},
		{ToolSelection{None: true, Allow: []string{"bash"}, AllowSet: true}, []string{"bash"}, nil},
		{ToolSelection{Exclude: []string{"bash", "mcp__gh__search"}}, []string{"read", "edit"}, nil},
		{ToolSelection{Allow: []string{"read", "bash"}, AllowSet: true, Exclude: []string{"bash"}}, []string{"read"}, nil},
	}
	for _, tt := range tests {
		kept, unknown := tt.sel.Apply(all, 3)
		var names []string
		for _, k := range kept {
			names = append(names, k.Spec().Name)
		}
		if !slices.Equal(names, tt.want) || !slices.Equal(unknown, tt.absent) {
			t.Errorf("%+v: kept %v unknown %v, want %v and %v", tt.sel, names, unknown, tt.want, tt.absent)
		}
	}
}

// TestPiToolsReachTheModel: --tools narrows what the model is offered, in
// the request cairn sends.
func TestPiToolsReachTheModel(t *testing.T) {
	script := writeScript(t, `{"responses": [{"text": "ok"}]}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--provider", "faux", "--no-session", "--mode", "json", "--tools", "read,ls", "-p", "hi")
	for _, line := range strings.Split(r.stdout, "\n") {
		if !strings.Contains(line, `"role":"system"`) || !strings.HasPrefix(line, `{"type":"message_end"`) {
			continue
		}
		var ev struct {
			Message struct {
				Sections struct {
					Tools string `json:"tools"`
				} `json:"sections"`
			} `json:"message"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		if got := ev.Message.Sections.Tools; !strings.Contains(got, "\n- read:") || !strings.Contains(got, "\n- ls:") || strings.Count(got, "\n- ") != 2 {
			t.Errorf("tools offered:\n%s", got)
		}
		return
	}
	t.Fatalf("no system message:\n%s\n%s", r.stdout, r.stderr)
}

// TestPiSessionIDAndFork: --session-id starts a session with exactly that
// id and continues it on the next start; --fork copies it into a new one.
func TestPiSessionIDAndFork(t *testing.T) {
	t.Chdir(t.TempDir())
	vars := map[string]string{"CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "one"}]}`)}
	if r := invoke(t, vars, nil, "--provider", "faux", "--session-id", "run-1", "-p", "hi"); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	state := func(args ...string) map[string]any {
		stdin := `{"id":"s","type":"get_state"}` + "\n"
		r := invoke(t, vars, &stdin, append([]string{"--provider", "faux", "--mode", "rpc"}, args...)...)
		var resp struct {
			Data map[string]any `json:"data"`
		}
		if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &resp); err != nil {
			t.Fatalf("%v: %v\n%s\n%s", args, err, r.stdout, r.stderr)
		}
		return resp.Data
	}
	if st := state("--session-id", "run-1"); st["sessionId"] != "run-1" || st["messageCount"] == float64(0) {
		t.Errorf("--session-id run-1 did not continue the session: %v", st)
	}
	if st := state("--fork", "run-1"); st["sessionId"] == "run-1" || st["messageCount"] == float64(0) {
		t.Errorf("--fork run-1 did not copy the session into a new one: %v", st)
	}
	if st := state("--session-id", "run-2"); st["sessionId"] != "run-2" || st["messageCount"] != float64(0) {
		t.Errorf("--session-id run-2 did not start a new session: %v", st)
	}
}

// TestPiApproveTrustsForOneRun: pi's --approve trusts the project's files
// for this run only, and --no-approve ignores them even once trusted.
func TestPiApproveTrustsForOneRun(t *testing.T) {
	project, script, _ := hostileProject(t)
	t.Chdir(project)
	vars := map[string]string{"CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": script}
	stdin := `{"id":"s","type":"get_state"}` + "\n"
	mode := func(args ...string) (string, string) {
		r := invoke(t, vars, &stdin, append([]string{"--provider", "faux", "--no-session", "--mode", "rpc"}, args...)...)
		_, rest, _ := strings.Cut(r.stdout, `"approvalMode":"`)
		m, _, _ := strings.Cut(rest, `"`)
		return m, r.stderr
	}
	if m, _ := mode("--approve"); m != "yolo" {
		t.Errorf("--approve: approvalMode %q, want the project's yolo", m)
	}
	if m, _ := mode(); m != "auto" {
		t.Errorf("after --approve: approvalMode %q, want auto (trust lasted past the run)", m)
	}
	mode("--trust-project")
	if m, stderr := mode("--no-approve"); m != "auto" || !strings.Contains(stderr, "--no-approve") {
		t.Errorf("--no-approve on a trusted project: approvalMode %q, stderr %q", m, stderr)
	}
}

// TestPiPromptTemplateFlags: --prompt-template adds a template from a
// file; --no-prompt-templates leaves out those of ~/.cairn/prompts.
func TestPiPromptTemplateFlags(t *testing.T) {
	home := t.TempDir()
	writeFile(t, filepath.Join(home, "prompts", "mine.md"), "Mine.")
	extra := filepath.Join(t.TempDir(), "review.md")
	if err := os.WriteFile(extra, []byte("Review $1."), 0o644); err != nil {
		t.Fatal(err)
	}
	opts, err := parseArgs([]string{"--prompt-template", extra, "-np"})
	if err != nil {
		t.Fatal(err)
	}
	got, errs := loadPrompts(environment{dir: home}, opts, t.TempDir(), projectTrust{})
	if len(errs) != 0 || len(got) != 1 || got[0].Name != "review" {
		t.Errorf("templates %+v, errors %v; want review alone", got, errs)
	}
	opts, _ = parseArgs([]string{"--prompt-template", extra})
	if got, _ := loadPrompts(environment{dir: home}, opts, t.TempDir(), projectTrust{}); len(got) != 2 {
		t.Errorf("templates %+v, want mine and review", got)
	}
}
