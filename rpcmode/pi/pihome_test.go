package pi

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// piHomeModels is the models.json a pi user keeps in ~/.pi/agent, with its
// key in a variable as real files have it (written as a person writes it:
// pi reads models.json but never writes it).
const piHomeModels = `{
  "providers": {
    "crof": {
      "baseUrl": "%s/v1",
      "api": "openai-completions",
      "apiKey": "$CROFAI_API_KEY",
      "models": [
        {"id": "crof-small", "name": "Crof Small"},
        {"id": "crof-large", "name": "Crof Large"}
      ]
    }
  }
}
`

// piHomeKey is the value of CROFAI_API_KEY in every run.
const piHomeKey = "sk-crof-from-the-environment"

// TestPiHomeWorksForCairn is a pi user switching: pi 0.87.1 itself sets up
// a fresh HOME (it writes its settings and a session), then cairn runs there with no ~/.cairn and no
// configuration of its own. cairn's rpc host sees pi's default model at
// its first get_state; the model is asked with the key from the variable
// pi's models.json names; --continue continues pi's session (the earlier
// messages reach the model); and pi, continuing again, reads back what
// cairn appended. Nothing of pi's configuration is written by cairn.
func TestPiHomeWorksForCairn(t *testing.T) {
	piCmd := findPi(t)
	cairnCmd := []string{buildCairnForDiff(t)}
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	piDir := filepath.Join(home, ".pi", "agent")
	for _, d := range []string{piDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	llm := newFakeLLM(t, []byte(`{"turns": [
	  {"when": "heron", "text": "Noted: heron."},
	  {"when": "Which bird", "text": "The bird was a heron."},
	  {"when": "Say it again", "text": "Heron, again."}
	]}`))
	if err := os.WriteFile(filepath.Join(piDir, "models.json"), fmt.Appendf(nil, piHomeModels, llm.srv.URL), 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"CROFAI_API_KEY=" + piHomeKey}

	// 1. The default model as pi's /model leaves it in settings.json; pi
	// starts on it, writes a setting of its own into the file and answers
	// once (writing the session). pi's rpc set_model does not save a
	// default, so the test writes that part.
	if err := os.WriteFile(filepath.Join(piDir, "settings.json"), []byte(`{"defaultProvider": "crof", "defaultModel": "crof-large"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	pi := startInHome(t, "pi", append(piCmd, "--mode", "rpc"), home, project, env, llm)
	piState := pi.must(t, `{"id":"s","type":"get_state"}`, map[string]any{"type": "response", "id": "s"})
	if got := piState.str("data.model.provider") + "/" + piState.str("data.model.id"); got != "crof/crof-large" {
		t.Fatalf("pi itself starts on %s, not on its settings' default crof/crof-large", got)
	}
	pi.must(t, `{"id":"m","type":"set_steering_mode","mode":"all"}`, map[string]any{"type": "response", "id": "m", "success": true})
	pi.must(t, `{"id":"p","type":"prompt","message":"Remember the bird: heron."}`, map[string]any{"type": "agent_end"})
	pi.end(t)
	settingsBefore := readFile(t, filepath.Join(piDir, "settings.json"))
	modelsBefore := readFile(t, filepath.Join(piDir, "models.json"))
	if !strings.Contains(settingsBefore, `"steeringMode": "all"`) || !strings.Contains(settingsBefore, `"crof-large"`) {
		t.Fatalf("pi did not write its settings as expected:\n%s", settingsBefore)
	}
	sessions, _ := filepath.Glob(filepath.Join(piDir, "sessions", "*", "*.jsonl"))
	if len(sessions) != 1 {
		t.Fatalf("pi wrote %d session files, want 1: %v", len(sessions), sessions)
	}

	// 2. cairn's first get_state names pi's default model.
	c := startInHome(t, "cairn", append(cairnCmd, "--mode", "rpc"), home, project, env, llm)
	state := c.must(t, `{"id":"s","type":"get_state"}`, map[string]any{"type": "response", "id": "s"})
	if got := state.str("data.model.provider") + "/" + state.str("data.model.id"); got != "crof/crof-large" {
		t.Errorf("cairn's first get_state names model %s, want pi's default crof/crof-large\n%s", got, state.text)
	}
	if got := state.str("data.steeringMode"); got != "all" {
		t.Errorf("cairn's get_state has steeringMode %q, want %q from pi's settings.json", got, "all")
	}
	c.end(t)

	// 3. cairn --continue goes on with pi's session, asking with the key.
	c = startInHome(t, "cairn", append(cairnCmd, "--mode", "rpc", "--continue"), home, project, env, llm)
	c.must(t, `{"id":"p","type":"prompt","message":"Which bird did I name?"}`, map[string]any{"type": "agent_end"})
	c.end(t)
	reqs := llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests after cairn's turn, want 2", len(reqs))
	}
	if reqs[1].Key != piHomeKey {
		t.Errorf("cairn's request carried key %q, want the value of $CROFAI_API_KEY", reqs[1].Key)
	}
	if conv := strings.Join(conversation(reqs[1].Body), "\n"); !strings.Contains(conv, "Remember the bird: heron.") || !strings.Contains(conv, "Noted: heron.") {
		t.Errorf("pi's earlier messages did not reach the model with cairn --continue:\n%s", conv)
	}
	if _, err := os.Stat(filepath.Join(home, ".cairn", "sessions")); err == nil {
		t.Error("cairn kept the continued session in ~/.cairn/sessions, not in pi's session")
	}
	after, _ := filepath.Glob(filepath.Join(piDir, "sessions", "*", "*.jsonl"))
	if !slices.Equal(after, sessions) {
		t.Errorf("cairn --continue made session files %v, want pi's own %v only", after, sessions)
	}

	// 4. pi reads back what cairn appended.
	pi = startInHome(t, "pi", append(piCmd, "--mode", "rpc", "--continue"), home, project, env, llm)
	msgs := pi.must(t, `{"id":"g","type":"get_messages"}`, map[string]any{"type": "response", "id": "g"})
	if !strings.Contains(msgs.text, "Which bird did I name?") || !strings.Contains(msgs.text, "The bird was a heron.") {
		t.Errorf("pi --continue does not see cairn's turn:\n%s", msgs.text)
	}
	pi.must(t, `{"id":"p","type":"prompt","message":"Say it again."}`, map[string]any{"type": "agent_end"})
	pi.end(t)
	reqs = llm.Requests()
	if conv := strings.Join(conversation(reqs[len(reqs)-1].Body), "\n"); !strings.Contains(conv, "The bird was a heron.") {
		t.Errorf("cairn's answer did not reach the model from pi:\n%s", conv)
	}
	if got := readFile(t, filepath.Join(piDir, "settings.json")); got != settingsBefore {
		t.Errorf("pi's settings.json changed:\nbefore %s\nafter  %s", settingsBefore, got)
	}
	if got := readFile(t, filepath.Join(piDir, "models.json")); got != modelsBefore {
		t.Errorf("pi's models.json changed")
	}
}

// startInHome starts argv in project with HOME set to home (and nothing
// else of the agents' configuration), on the fake model llm.
func startInHome(t *testing.T, name string, argv []string, home, project string, env []string, llm *fakeLLM) *agentRun {
	t.Helper()
	r := &agentRun{name: name, root: home, llm: llm, out: newLineSink(), vars: map[string]any{}, exited: make(chan struct{})}
	if err := r.launch(argv, project, home, env); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.stop() })
	return r
}

// must sends cmd and waits for a frame matching want after it, failing the
// test with the agent's output if none comes.
func (r *agentRun) must(t *testing.T, cmd string, want map[string]any) *line {
	t.Helper()
	from := len(r.out.all())
	if err := r.step(diffStep{Send: json.RawMessage(cmd)}); err != nil {
		t.Fatal(r.failure(err))
	}
	l, _ := r.out.waitMatch(from, want, diffWaitLimit)
	if l == nil {
		t.Fatal(r.failure(fmt.Errorf("no frame matching %v after %s", plainJSON(want), cmd)))
	}
	if ok, isBool := l.get("success").(bool); isBool && !ok {
		t.Fatal(r.failure(fmt.Errorf("%s failed: %s", cmd, l.text)))
	}
	return l
}

// end closes the agent's input and waits for it to exit.
func (r *agentRun) end(t *testing.T) {
	t.Helper()
	if err := r.stop(); err != nil {
		t.Fatal(r.failure(err))
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// piACPDir holds pi-acp from npm (npm ci --prefix rpcmode/pi/testdata/piacp).
const piACPDir = "testdata/piacp"

// TestPiACPListsCairnSessions: pi-acp, the ACP adapter written for pi,
// runs cairn in pi's place on a machine set up for pi only (no ~/.cairn);
// its session/list, which reads pi's session directory itself, shows the
// session cairn wrote. It needs Node 20+ and pi-acp's node_modules;
// without them it is skipped, unless CI is set: then it fails.
func TestPiACPListsCairnSessions(t *testing.T) {
	node := os.Getenv("PI_NODE")
	if node == "" {
		node, _ = exec.LookPath("node")
	}
	adapter := filepath.Join(piACPDir, "node_modules", "pi-acp", "package.json")
	if _, err := os.Stat(adapter); node == "" || err != nil {
		const how = "install Node.js (20 or newer) and run: npm ci --prefix rpcmode/pi/testdata/piacp"
		if os.Getenv("CI") != "" {
			t.Fatalf("node or pi-acp is missing; CI is set, so this test may not be skipped: %s", how)
		}
		t.Skipf("node or pi-acp is missing; to run pi-acp against cairn, %s", how)
	}
	cairn := buildCairnForDiff(t)
	root := t.TempDir()
	home, project := filepath.Join(root, "home"), filepath.Join(root, "project")
	piDir := filepath.Join(home, ".pi", "agent")
	for _, d := range []string{piDir, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	llm := newFakeLLM(t, []byte(`{"loop": true, "turns": [{"text": "Noted."}]}`))
	if err := os.WriteFile(filepath.Join(piDir, "models.json"), fmt.Appendf(nil, piHomeModels, llm.srv.URL), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(piDir, "settings.json"), []byte(`{"defaultProvider": "crof", "defaultModel": "crof-small"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join(piACPDir, "list.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, project)
	cmd.Dir = project
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "PI_OFFLINE=1", "NO_COLOR=1",
		"CROFAI_API_KEY=" + piHomeKey, "PI_ACP_PI_COMMAND=" + cairn}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("pi-acp with cairn: %v\n%s", err, stderr.String())
	}
	var got struct {
		SessionID  string `json:"sessionId"`
		StopReason string `json:"stopReason"`
		Sessions   []struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("list.mjs printed %q: %v\n%s", out, err, stderr.String())
	}
	if got.StopReason != "end_turn" {
		t.Errorf("the prompt ended with %q, want end_turn\n%s", got.StopReason, stderr.String())
	}
	if len(got.Sessions) != 1 || got.Sessions[0].SessionID != got.SessionID || got.Sessions[0].Cwd != project {
		t.Errorf("pi-acp's session/list = %+v, want the one session cairn wrote (%s in %s)", got.Sessions, got.SessionID, project)
	}
	if _, err := os.Stat(filepath.Join(home, ".cairn", "sessions")); err == nil {
		t.Error("cairn wrote its session into ~/.cairn/sessions on a machine set up for pi only")
	}
}
