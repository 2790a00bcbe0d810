package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// localProviderExt registers a provider of a wire format cairn speaks
// (pi's registerProvider with api "openai-completions"); BASE_URL is the
// test's server.
const localProviderExt = `export default function (pi) {
  pi.registerProvider("local-llm", {
    baseUrl: "BASE_URL",
    api: "openai-completions",
    apiKey: "$LOCAL_LLM_KEY",
    models: [{ id: "tiny", name: "Tiny Local", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 8000, maxTokens: 1000 }],
  });
}
`

// openAIChatSSE is a short answer in OpenAI's Chat Completions stream
// format.
const openAIChatSSE = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"tiny\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi from\"}}]}\n\n" +
	"data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"tiny\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" tiny\"},\"finish_reason\":\"stop\"}]}\n\n" +
	"data: [DONE]\n\n"

// A provider a pi extension registers with a known api is chosen with
// --model, listed by rpc get_available_models, taken by set_model, and
// answers through cairn's own provider of that api with the key its
// apiKey names.
func TestPiExtensionProviderInRPC(t *testing.T) {
	needProgram(t, "node")
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.URL.Path != "/chat/completions" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, openAIChatSSE)
	}))
	defer srv.Close()
	t.Chdir(t.TempDir())
	ext := filepath.Join(t.TempDir(), "local.ts")
	if err := os.WriteFile(ext, []byte(strings.Replace(localProviderExt, "BASE_URL", srv.URL, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	home, dir := t.TempDir(), t.TempDir()
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "CAIRN_DIR": dir, "LOCAL_LLM_KEY": "sk-local"}
	c, stderr := rpcInProcess(t, vars, "--mode", "rpc", "-e", ext, "--model", "local-llm/tiny")
	c.send(`{"id":"m","type":"get_available_models"}`)
	models := c.untilFrame("response", "agent_settled")
	if !strings.Contains(fmt.Sprint(models), "Tiny Local") {
		t.Errorf("get_available_models: %v", models)
	}
	c.send(`{"id":"s","type":"set_model","provider":"local-llm","modelId":"tiny"}`)
	if set := c.untilFrame("response", "agent_settled"); set["success"] != true {
		t.Errorf("set_model: %v", set)
	}
	c.send(`{"id":"p","type":"prompt","message":"hello"}`)
	var text strings.Builder
	for {
		f := c.next(20 * time.Second)
		if f.str("type") == "message_update" {
			if ev, ok := f["assistantMessageEvent"].(map[string]any); ok && ev["type"] == "text_delta" {
				text.WriteString(fmt.Sprint(ev["delta"]))
			}
		}
		if f.str("type") == "agent_settled" {
			break
		}
	}
	if text.String() != "Hi from tiny" {
		t.Errorf("answer %q; stderr %s", text.String(), stderr.String())
	}
	c.close()

	// Resumed, the session goes on with its model, found once the
	// extension has registered its provider.
	c, stderr = rpcInProcess(t, vars, "--mode", "rpc", "-e", ext, "--continue")
	c.send(`{"id":"st","type":"get_state"}`)
	st := c.untilFrame("response", "agent_settled")
	if model, _ := st["data"].(map[string]any)["model"].(map[string]any); model["provider"] != "local-llm" || model["id"] != "tiny" {
		t.Errorf("resumed model %v; stderr %s", st["data"], stderr.String())
	}
	c.close()
	mu.Lock()
	defer mu.Unlock()
	if len(keys) != 1 || keys[0] != "Bearer sk-local" {
		t.Errorf("requests' keys %q", keys)
	}
}

// rpcInProcess runs cairn with args in process, with the environment vars;
// close ends its input and waits for it.
func rpcInProcess(t *testing.T, vars map[string]string, args ...string) (*inProcess, *strings.Builder) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &inProcess{synapsConn: &synapsConn{t: t, in: inW, frames: make(chan synapsFrame, 4096), exit: make(chan int, 1)}}
	stderr := &strings.Builder{}
	go func() {
		code := run(context.Background(), args, IOStreams{In: inR, Out: outW, Err: stderr}, func(k string) string { return vars[k] })
		// What is sent after cairn ended fails, rather than waits.
		inR.CloseWithError(fmt.Errorf("cairn exited (%d): %s", code, stderr.String()))
		outW.Close()
		c.exit <- code
	}()
	go c.readFrames(outR)
	t.Cleanup(c.close)
	return c, stderr
}

// inProcess is cairn run in process.
type inProcess struct {
	*synapsConn
	closed bool
}

func (c *inProcess) close() {
	if c.closed {
		return
	}
	c.closed = true
	c.in.Close()
	select {
	case <-c.exit:
	case <-time.After(10 * time.Second):
		c.t.Error("cairn did not exit")
	}
	for range c.frames {
	}
}
