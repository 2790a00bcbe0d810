package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// chatStream is a Chat Completions stream of one answer: a call of tool
// with args, or text when tool is "".
func chatStream(t *testing.T, tool string, args map[string]string, text string) providertest.Response {
	t.Helper()
	delta := map[string]any{"role": "assistant", "content": text}
	finish := "stop"
	if tool != "" {
		a, err := json.Marshal(args)
		if err != nil {
			t.Fatal(err)
		}
		delta = map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"index": 0, "id": "call_1", "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(a)}}}}
		finish = "tool_calls"
	}
	var b strings.Builder
	for _, chunk := range []any{
		map[string]any{"id": "c1", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": delta}}},
		map[string]any{"id": "c1", "object": "chat.completion.chunk", "choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}},
			"usage": map[string]any{"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}},
	} {
		j, err := json.Marshal(chunk)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("data: " + string(j) + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	return providertest.SSEBody(b.String())
}

// TestSkillBodyReachesTheModelOnlyWhenRead: a skill in ~/.claude/skills is
// listed to the model by name, description and path; its body is not in
// the request until the model reads the file, which needs no approval
// even where nobody can be asked (print mode).
func TestSkillBodyReachesTheModelOnlyWhenRead(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir())
	// Reads in the temporary directory need no approval: put the home
	// outside it.
	t.Setenv("TMPDIR", t.TempDir())
	skill := filepath.Join(home, ".claude", "skills", "x", "SKILL.md")
	writeFile(t, skill, "---\nname: x\ndescription: Explains the x format.\n---\nSKILL-BODY-42: do it this way.\n")
	vars := map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, ".cairn")}

	srv := providertest.NewServer(t, chatStream(t, "read", map[string]string{"path": skill}, ""), chatStream(t, "", nil, "done"))
	r := invoke(t, vars, nil, "--base-url", srv.URL+"/v1", "--model", "local-model", "-p", "use x")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	first, second := string(reqs[0].Body), string(reqs[1].Body)
	for _, want := range []string{`\u003cname\u003ex\u003c/name\u003e`, "Explains the x format.", filepath.ToSlash(skill)} {
		if !strings.Contains(first, want) && !strings.Contains(first, strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(want)) {
			t.Errorf("first request lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "SKILL-BODY-42") {
		t.Errorf("the skill's body was sent before it was read:\n%s", first)
	}
	if !strings.Contains(second, "SKILL-BODY-42") {
		t.Errorf("the read skill's body is not in the next request (approval refused?):\n%s\n%s", second, r.stdout)
	}

	// With otherAgentDirs off, or --no-skills, the skill is not offered.
	writeFile(t, filepath.Join(home, ".cairn", "settings.json"), `{"otherAgentDirs": false}`)
	for _, extra := range [][]string{nil, {"--no-skills"}} {
		if extra != nil {
			writeFile(t, filepath.Join(home, ".cairn", "settings.json"), `{}`)
		}
		srv := providertest.NewServer(t, chatStream(t, "", nil, "done"))
		r := invoke(t, vars, nil, append([]string{"--base-url", srv.URL + "/v1", "--model", "local-model", "-p", "hi"}, extra...)...)
		if reqs := srv.Requests(); r.code != 0 || len(reqs) != 1 || strings.Contains(string(reqs[0].Body), "Explains the x format.") {
			t.Errorf("%v: the skill was offered: %+v", extra, r)
		}
	}
}

// TestSkillsCommand: `cairn skills` lists name, description, source and
// path, the hidden duplicate and the file that could not be used; a
// project's skills only once it is trusted.
func TestSkillsCommand(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(home, ".cairn", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Mine.\n---\nb\n")
	writeFile(t, filepath.Join(project, ".claude", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: The project's.\n---\nb\n")
	writeFile(t, filepath.Join(project, ".claude", "skills", "lint", "SKILL.md"), "---\nname: lint\ndescription: Lints.\nallowed-tools: Bash(npm run lint:*), Read\n---\nb\n")
	writeFile(t, filepath.Join(home, ".pi", "agent", "skills", "bad", "SKILL.md"), "---\nname: bad\n---\n")
	vars := map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, ".cairn")}

	r := invoke(t, vars, nil, "skills")
	if r.code != 0 || !strings.Contains(r.stdout, "review") || strings.Contains(r.stdout, "lint") || !strings.Contains(r.stderr, "not trusted") {
		t.Errorf("untrusted: %+v", r)
	}
	r = invoke(t, vars, nil, "skills", "--trust-project")
	for _, want := range []string{"NAME", "review", "~/.cairn/skills", "Mine.", "lint", ".claude/skills", "Lints.",
		"Hidden", `skill "review" of .claude/skills`, "Problems:", "description is required",
		"allowed-tools (usable without asking by the prompt that runs the skill", "lint: Bash(npm run lint:*), Read"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("cairn skills lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := invoke(t, vars, nil, "skills", "--bogus"); r.code != exitUsage || !strings.Contains(r.stderr, "unknown argument --bogus") {
		t.Errorf("unknown argument: %+v", r)
	}
}

// TestHiddenSkillIsSaidAtStart: a run says which skill a duplicate name
// hid, and which file it skipped (the TUI shows these lines as notices).
func TestHiddenSkillIsSaidAtStart(t *testing.T) {
	home, project := t.TempDir(), t.TempDir()
	t.Chdir(project)
	writeFile(t, filepath.Join(home, ".cairn", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Mine.\n---\nb\n")
	writeFile(t, filepath.Join(home, ".claude", "skills", "review", "SKILL.md"), "---\nname: review\ndescription: Claude's.\n---\nb\n")
	writeFile(t, filepath.Join(home, ".claude", "skills", "bad", "SKILL.md"), "---\nname: bad\ndescription: d\n- x\n---\n")
	vars := map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, ".cairn"), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
	stdin := `{"id":"s","type":"get_state"}` + "\n"
	r := invoke(t, vars, &stdin, "--provider", "faux", "--no-session", "--mode", "rpc")
	for _, want := range []string{`skill "review" of ~/.claude/skills`, "is hidden by the one of ~/.cairn/skills",
		"skipped: front matter: line 3: did not find expected key"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// TestSkillFlag: --skill adds a skill by its SKILL.md (also with
// --no-skills, which leaves out the directories), and a missing path is
// said.
func TestSkillFlag(t *testing.T) {
	home := t.TempDir()
	t.Chdir(t.TempDir())
	writeFile(t, filepath.Join(home, ".cairn", "skills", "mine", "SKILL.md"), "---\nname: mine\ndescription: Mine.\n---\nb\n")
	extra := filepath.Join(t.TempDir(), "lint", "SKILL.md")
	writeFile(t, extra, "---\nname: lint\ndescription: Lints.\n---\nb\n")
	vars := map[string]string{"HOME": home, "CAIRN_DIR": filepath.Join(home, ".cairn"), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": []}`)}
	stdin := `{"id":"c","type":"get_commands"}` + "\n"
	r := invoke(t, vars, &stdin, "--provider", "faux", "--no-session", "--mode", "rpc", "--no-skills", "--skill", extra, "--skill", "nowhere")
	if !strings.Contains(r.stdout, `"name":"skill:lint"`) || strings.Contains(r.stdout, `"skill:mine"`) {
		t.Errorf("get_commands:\n%s", r.stdout)
	}
	if !strings.Contains(r.stderr, "--skill: no such file or directory") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}
