package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestAionrsOpenAIBase(t *testing.T) {
	for root, want := range map[string]string{
		"":                           "https://api.openai.com/v1",
		"https://api.openai.com":     "https://api.openai.com/v1",
		"https://api.openai.com/v1/": "https://api.openai.com/v1",
		"https://api.deepseek.com":   "https://api.deepseek.com/v1",
		"http://localhost:11434":     "http://localhost:11434/v1",
		"https://openrouter.ai/api":  "https://openrouter.ai/api/v1",
		"https://dashscope.aliyuncs.com/compatible-mode":          "https://dashscope.aliyuncs.com/compatible-mode/v1",
		"https://ark.cn-beijing.volces.com/api/v3":                "https://ark.cn-beijing.volces.com/api/v3",
		"https://open.bigmodel.cn/api/paas/v4":                    "https://open.bigmodel.cn/api/paas/v4",
		"https://generativelanguage.googleapis.com/v1beta/openai": "https://generativelanguage.googleapis.com/v1beta/openai",
	} {
		if got, err := aionrsOpenAIBase(root); err != nil || got != want {
			t.Errorf("%q: %q, %v; want %q", root, got, err, want)
		}
	}
	if _, err := aionrsOpenAIBase("api.deepseek.com"); err == nil || !strings.Contains(err.Error(), "http or https URL") {
		t.Errorf("a root without a scheme: %v", err)
	}
}

// chatServer answers every POST with one Chat Completions stream saying
// "pong" and reports the path and key each request came with.
func chatServer(t *testing.T) (*httptest.Server, chan string) {
	t.Helper()
	seen := make(chan string, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case seen <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Authorization"):
		default: // a retry after a failure the test already reports
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range []string{
			`{"id":"c1","object":"chat.completion.chunk","model":"deepseek-chat","choices":[{"index":0,"delta":{"role":"assistant","content":"pong"},"finish_reason":null}]}`,
			`{"id":"c1","object":"chat.completion.chunk","model":"deepseek-chat","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
		fmt.Fprint(w, "data: [DONE]\n\n")
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

// startJSONStream runs cairn's --json-stream in process with args and
// returns the host's end of its pipes; the run ends when the test does.
func startJSONStream(t *testing.T, vars map[string]string, args ...string) *jsonStreamPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(context.Background(), args, IOStreams{In: inR, Out: outW, Err: io.Discard}, func(k string) string { return vars[k] })
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("json-stream did not exit after stdin ended")
		}
	})
	return newJSONStreamPeer(t, inW, outR)
}

// AionUi starts every OpenAI-compatible platform as --provider openai
// with the root of the server (a trailing /v1 stripped); the turn must
// reach that server's Chat Completions endpoint.
func TestJSONStreamOpenAICompatibleRoots(t *testing.T) {
	for _, c := range []struct{ root, path string }{
		{"", "/v1/chat/completions"},                                 // DeepSeek, Ollama: /v1 stripped by AionUi
		{"/compatible-mode", "/compatible-mode/v1/chat/completions"}, // DashScope, likewise
		{"/v1", "/v1/chat/completions"},                              // a root passed as typed
		{"/v1beta/openai", "/v1beta/openai/chat/completions"},        // Gemini's OpenAI endpoint
		{"/api/v3", "/api/v3/chat/completions"},                      // a versioned root aionrs since 2026-07 takes as is
	} {
		t.Run(c.path, func(t *testing.T) {
			t.Chdir(t.TempDir())
			srv, seen := chatServer(t)
			vars := map[string]string{"CAIRN_DIR": t.TempDir(), "OPENAI_API_KEY": "sk-test"}
			p := startJSONStream(t, vars, "--json-stream", "--provider", "openai", "--model", "deepseek-chat",
				"--max-tokens", "8192", "--session-id", "conv-1", "--base-url", srv.URL+c.root)
			if ready := p.next(); ready["type"] != "ready" {
				t.Fatalf("first frame %v", ready)
			}
			p.send(`{"type":"message","msg_id":"m1","input":"ping"}`)
			var text strings.Builder
			for {
				f := p.next()
				if f["type"] == "error" {
					t.Fatalf("error frame %v", f)
				}
				if f["type"] == "text_delta" {
					text.WriteString(f["text"].(string))
				}
				if f["type"] == "stream_end" {
					break
				}
			}
			if got := <-seen; got != "POST "+c.path+" Bearer sk-test" {
				t.Fatalf("request %q, want POST %s with the key", got, c.path)
			}
			if text.String() != "pong" {
				t.Fatalf("text %q", text.String())
			}
		})
	}
}

// AionUi passes bedrock and vertex too; cairn says at once, in the frame
// AionUi shows, what to use instead.
func TestJSONStreamBedrockVertexRefused(t *testing.T) {
	t.Chdir(t.TempDir())
	empty := ""
	for _, provider := range []string{"bedrock", "vertex"} {
		r := invoke(t, nil, &empty, "--json-stream", "--provider", provider, "--model", "anthropic.claude-sonnet-4")
		var f struct {
			Type  string `json:"type"`
			Error struct{ Code, Message string }
		}
		if r.code != exitUsage || json.Unmarshal([]byte(r.stdout), &f) != nil || f.Type != "error" || f.Error.Code != "config_error" ||
			!strings.Contains(f.Error.Message, "--provider "+provider) || !strings.Contains(f.Error.Message, "--provider anthropic") {
			t.Errorf("%s: %+v", provider, r)
		}
	}
}
