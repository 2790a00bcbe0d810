package pi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// diffWaitLimit bounds every wait of a differential scenario. It is
// longer than waitLimit: pi takes seconds to start, and many times that
// on a loaded machine; only a failing run waits this long.
const diffWaitLimit = time.Minute

// agentRun is one agent (pi or cairn) started as a pi host starts pi, with
// its own fake model, driven through a scenario's steps.
type agentRun struct {
	name string
	root string // holds home/, agent/ and project/ of this run
	llm  *fakeLLM
	cmd  *exec.Cmd
	out  *lineSink
	vars map[string]any // values saved by steps, for later sends

	stdin   io.WriteCloser
	stderr  bytes.Buffer
	cursor  int
	exited  chan struct{}
	waitErr error
}

// startAgent writes the run's configuration under root and starts argv
// (the agent's command followed by the scenario's flags) in root/project.
// env adds to a minimal environment: HOME, PATH and PI_OFFLINE.
func startAgent(name, root string, argv, env []string, sc *diffScenario, llm *fakeLLM) (*agentRun, error) {
	r := &agentRun{name: name, root: root, llm: llm, out: newLineSink(), vars: map[string]any{}, exited: make(chan struct{})}
	for _, d := range []string{"home", "agent", "project"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			return nil, err
		}
	}
	if err := writeAgentConfig(filepath.Join(root, "agent"), llm.srv.URL, sc.Settings); err != nil {
		return nil, err
	}
	project := filepath.Join(root, "project")
	if sc.Setup != "" {
		setup := exec.Command("bash", "-c", sc.Setup)
		setup.Dir = project
		if out, err := setup.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("setup: %v\n%s", err, out)
		}
	}
	if err := r.launch(argv, project, filepath.Join(root, "home"), env); err != nil {
		return nil, err
	}
	return r, nil
}

// launch starts argv in dir with a minimal environment (HOME, PATH,
// PI_OFFLINE) and env, its output collected in r.
func (r *agentRun) launch(argv []string, dir, home string, env []string) error {
	r.cmd = exec.Command(argv[0], argv[1:]...)
	r.cmd.Dir = dir
	r.cmd.Env = append([]string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "PI_OFFLINE=1", "NO_COLOR=1"}, env...)
	r.cmd.Stdout = r.out
	r.cmd.Stderr = &r.stderr
	r.cmd.WaitDelay = 5 * time.Second
	stdin, err := r.cmd.StdinPipe()
	if err != nil {
		return err
	}
	r.stdin = stdin
	if err := r.cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", r.name, err)
	}
	go func() {
		r.waitErr = r.cmd.Wait()
		close(r.exited)
	}()
	return nil
}

// writeAgentConfig writes the models.json both agents read, pointing at the
// fake model at url, and the scenario's settings.json. pi keeps the file's
// key order in what it reports (get_state's model), so the file is
// written as text, in the order of pi's documentation.
func writeAgentConfig(dir, url string, settings json.RawMessage) error {
	model := func(id, name string, reasoning bool, input string) string {
		return fmt.Sprintf(`{"id":%q,"name":%q,"reasoning":%t,"input":[%s],"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0},"contextWindow":128000,"maxTokens":16384}`,
			id, name, reasoning, input)
	}
	provider := func(baseURL, api string, models ...string) string {
		return fmt.Sprintf(`{"baseUrl":%q,"api":%q,"apiKey":"fake-key","models":[%s]}`, baseURL, api, strings.Join(models, ","))
	}
	models := fmt.Sprintf(`{"providers":{"fake-openai":%s,"fake-anthropic":%s,"fake-down":%s}}`,
		provider(url+"/v1", "openai-completions", model("fake-gpt", "Fake GPT", false, `"text"`), model("fake-gpt-think", "Fake GPT Thinking", true, `"text"`)),
		provider(url, "anthropic-messages", model("fake-claude", "Fake Claude", true, `"text","image"`)),
		// Port 1 on loopback refuses every connection.
		provider("http://127.0.0.1:1/v1", "openai-completions", model("down-gpt", "Down GPT", false, `"text"`)))
	if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(models), 0o644); err != nil {
		return err
	}
	if len(settings) == 0 {
		settings = json.RawMessage(`{}`)
	}
	return os.WriteFile(filepath.Join(dir, "settings.json"), settings, 0o644)
}

func (r *agentRun) write(b []byte) error {
	_, err := r.stdin.Write(b)
	return err
}

// step performs one scenario step.
func (r *agentRun) step(st diffStep) error {
	switch {
	case st.Send != nil:
		var cmd any
		if err := json.Unmarshal(st.Send, &cmd); err != nil {
			return fmt.Errorf("send: %w", err)
		}
		b, err := json.Marshal(r.substitute(cmd))
		if err != nil {
			return err
		}
		return r.write(append(b, '\n'))
	case st.Wait != nil:
		var l *line
		for range max(st.Count, 1) {
			// A response is found by its id wherever it is, so that a
			// scenario need not know whether it comes before or after the
			// events it waits for too (the comparison checks the order).
			from := r.cursor
			if _, byID := st.Wait["id"]; byID {
				from = 0
			}
			var i int
			if l, i = r.out.waitMatch(from, st.Wait, diffWaitLimit); l == nil {
				return fmt.Errorf("no frame matching %v within %s", plainJSON(st.Wait), diffWaitLimit)
			}
			r.cursor = max(r.cursor, i+1)
		}
		for name, path := range st.Save {
			r.vars[name] = plain(l.get(path))
		}
	case st.Held != "":
		select {
		case <-r.llm.Reached(st.Held):
		case <-time.After(diffWaitLimit):
			return fmt.Errorf("no request reached gate %q within %s", st.Held, diffWaitLimit)
		case <-r.exited:
			return fmt.Errorf("exited before a request reached gate %q", st.Held)
		}
	case st.Release != "":
		r.llm.Release(st.Release)
	default:
		return fmt.Errorf("empty step")
	}
	return nil
}

// substitute replaces every string "$name" in v by the value saved as name.
func (r *agentRun) substitute(v any) any {
	switch x := v.(type) {
	case string:
		if saved, ok := r.vars[strings.TrimPrefix(x, "$")]; ok && strings.HasPrefix(x, "$") {
			return saved
		}
	case map[string]any:
		for k, e := range x {
			x[k] = r.substitute(e)
		}
	case []any:
		for i, e := range x {
			x[i] = r.substitute(e)
		}
	}
	return v
}

// finish asks for the final messages and state, ends the input and waits
// for the agent to exit (killing it if it does not).
func (r *agentRun) finish() error {
	for _, c := range []string{"get_messages", "get_state"} {
		id := "final-" + strings.TrimPrefix(c, "get_")
		if err := r.step(diffStep{Send: json.RawMessage(fmt.Sprintf(`{"id":%q,"type":%q}`, id, c))}); err != nil {
			return err
		}
		if err := r.step(diffStep{Wait: map[string]any{"type": "response", "id": id}}); err != nil {
			return err
		}
	}
	return r.stop()
}

// stop ends the input and waits for the agent to exit, killing it after
// diffWaitLimit. It may be called more than once.
func (r *agentRun) stop() error {
	r.stdin.Close()
	select {
	case <-r.exited:
	case <-time.After(diffWaitLimit):
		r.cmd.Process.Kill()
		<-r.exited
		return fmt.Errorf("did not exit within %s of its input ending", diffWaitLimit)
	}
	var exit *exec.ExitError
	if r.waitErr != nil && !errors.As(r.waitErr, &exit) {
		return r.waitErr
	}
	return nil
}

// failure ends the run and describes err with its output, for a failed
// step.
func (r *agentRun) failure(err error) error {
	select {
	case <-r.exited:
	default:
		r.cmd.Process.Kill()
		<-r.exited
	}
	r.stop()
	return fmt.Errorf("%s: %w\nstdout:\n%sstderr:\n%s", r.name, err, r.out.dump(0), clipText(r.stderr.String(), 2000))
}

func clipText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func plainJSON(v any) string {
	b, _ := json.Marshal(plain(v))
	return string(b)
}
