package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/shell"
	"go.uber.org/goleak"

	"github.com/cairn-dev/cairn/core/provider/providertest"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// TestMain lets the test binary stand in for cairn in sandboxed commands
// and in the background-commands test.
func TestMain(m *testing.M) {
	sandbox.RunIfChild()
	shell.RunIfReaper()
	if f := os.Getenv(stdioMCPEnv); f != "" {
		os.Exit(runStdioMCP(f)) // mcpshare_test.go
	}
	if os.Getenv(asCairnEnv) != "" {
		os.Exit(runAsCairn()) // background_test.go
	}
	goleak.VerifyTestMain(m)
}

type result struct {
	code   int
	stdout string
	stderr string
}

// invoke runs cairn in-process with the given environment and stdin (nil
// stdin means an interactive terminal).
func invoke(t *testing.T, vars map[string]string, stdin *string, args ...string) result {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	if _, ok := vars["CAIRN_DIR"]; !ok {
		vars["CAIRN_DIR"] = t.TempDir()
	}
	var out, errb bytes.Buffer
	streams := IOStreams{Out: &out, Err: &errb, InIsTerminal: stdin == nil, OutIsTerminal: stdin == nil}
	if stdin != nil {
		streams.In = strings.NewReader(*stdin)
	}
	code := run(context.Background(), args, streams, func(k string) string { return vars[k] })
	return result{code, out.String(), errb.String()}
}

func writeScript(t testing.TB, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersionAndHelpGoToStdout(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"-v"}} {
		r := invoke(t, nil, nil, args...)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "cairn ") || r.stderr != "" {
			t.Errorf("%v: %+v", args, r)
		}
	}
	for _, args := range [][]string{{"--help"}, {"-h"}} {
		r := invoke(t, nil, nil, args...)
		if r.code != 0 || !strings.Contains(r.stdout, "Usage:") || !strings.Contains(r.stdout, "--thinking") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}

func TestBadUsageExitsTwoWithAClearMessage(t *testing.T) {
	cases := map[string][]string{
		"unknown flag":  {"--frobnicate"},
		"missing value": {"-p", "hi", "--model"},
		"bad mode":      {"--mode", "xml", "-p", "hi"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			r := invoke(t, nil, nil, args...)
			if r.code != exitUsage || !strings.HasPrefix(r.stderr, "cairn: ") || r.stdout != "" {
				t.Fatalf("%+v", r)
			}
		})
	}
}

func TestNoCredentialsNamesTheVariables(t *testing.T) {
	r := invoke(t, nil, nil, "-p", "hello")
	if r.code != exitFailure {
		t.Fatalf("exit %d, want 1: %+v", r.code, r)
	}
	for _, want := range []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "models.json"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr %q does not mention %s", r.stderr, want)
		}
	}
}

func TestFauxPrintModeSaysItIsScripted(t *testing.T) {
	script := writeScript(t, `{"chunkSize": 3, "responses": [{"thinking": "plan", "text": "Scripted hello."}]}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--provider", "faux", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if r.stdout != "Scripted hello.\n" {
		t.Fatalf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "scripted") {
		t.Fatalf("stderr %q does not say the answer is scripted", r.stderr)
	}
}

func TestFauxScriptExhaustedFails(t *testing.T) {
	script := writeScript(t, `{"responses": []}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--provider", "faux", "-p", "hi")
	if r.code != exitFailure || !strings.Contains(r.stderr, "no more scripted responses") {
		t.Fatalf("%+v", r)
	}
}

func TestJSONModeWritesPiEvents(t *testing.T) {
	// pi 0.87's delta-only frames by default; pi 0.73's cumulative ones on
	// request.
	t.Run("0.87", func(t *testing.T) {
		testJSONMode(t, "message_start message_end ", `{"type":"message_update","usage":{`, `"partial"`)
	})
	t.Run("0.73", func(t *testing.T) {
		testJSONMode(t, "", `{"type":"message_update","assistantMessageEvent":`, `"message_update","usage"`, "--rpc-compat", "0.73")
	})
}

// testJSONMode runs json mode and checks the events (system is what pi
// 0.87's system message adds to them), the prefix of every message_update
// frame, and that no such frame holds absent.
func testJSONMode(t *testing.T, system, prefix, absent string, extra ...string) {
	script := writeScript(t, `{"chunkSize": 4, "responses": [{"text": "Hello there"}]}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, append([]string{"--provider", "faux", "--mode", "json", "-p", "hi"}, extra...)...)
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	var types []string
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(nil, 1<<20)
	var last map[string]any
	for sc.Scan() {
		var ev map[string]any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			t.Fatalf("line %q is not JSON: %v", sc.Text(), err)
		}
		typ := ev["type"].(string)
		if typ == "message_update" {
			typ += ":" + ev["assistantMessageEvent"].(map[string]any)["type"].(string)
			if !strings.HasPrefix(sc.Text(), prefix) || strings.Contains(sc.Text(), absent) {
				t.Fatalf("message_update keys out of pi's order, or holding %s: %s", absent, sc.Text())
			}
		}
		types = append(types, typ)
		if typ == "agent_end" {
			last = ev
		}
	}
	want := "session agent_start turn_start " + system + "message_start message_end message_start " +
		"message_update:text_start message_update:text_delta message_update:text_delta message_update:text_delta message_update:text_end " +
		"message_end turn_end agent_end agent_settled"
	if got := strings.Join(types, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	msgs := last["messages"].([]any)
	if system != "" {
		// pi 0.87: the run's system message comes first.
		if len(msgs) == 0 || msgs[0].(map[string]any)["role"] != "system" {
			t.Fatalf("agent_end messages = %v, want the system message first", msgs)
		}
		msgs = msgs[1:]
	}
	if len(msgs) != 2 || msgs[1].(map[string]any)["stopReason"] != "stop" {
		t.Fatalf("agent_end messages = %v", msgs)
	}
	if r.stderr != "" {
		t.Fatalf("json mode wrote to stderr: %q", r.stderr)
	}
}

func TestPrintAgainstLocalOpenAICompatibleServerWithBaseURL(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, "openai-chat/text.0.sse"))
	stdin := "line from stdin\n"
	r := invoke(t, nil, &stdin, "--base-url", srv.URL+"/v1", "--model", "local-model", "-p", "summarise:")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if strings.TrimSpace(r.stdout) == "" {
		t.Fatal("no answer on stdout")
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/chat/completions" {
		t.Fatalf("requests = %+v", reqs)
	}
	body := string(reqs[0].Body)
	// pi 0.87.1's order: stdin (trimmed), then the message, nothing between.
	if !strings.Contains(body, `"line from stdinsummarise:"`) || !strings.Contains(body, `"local-model"`) {
		t.Fatalf("request body does not carry stdin then the prompt, as pi sends them: %s", body)
	}
	if h := reqs[0].Header.Get("Authorization"); h != "" {
		t.Fatalf("a key-less local server got Authorization %q", h)
	}
}

func TestPrintAgainstAnthropicCompatibleServerFromModelsJSON(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, "anthropic/text.0.sse"))
	dir := t.TempDir()
	modelsJSON := `{"providers": {"local-claude": {"baseUrl": "` + srv.URL + `", "api": "anthropic-messages", "apiKey": "$LOCAL_KEY",
	  "models": [{"id": "claude-local", "reasoning": true}]}}}`
	if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(modelsJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"CAIRN_DIR": dir, "LOCAL_KEY": "secret-local-key"}, nil, "--model", "local-claude/claude-local", "--thinking", "off", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if strings.TrimSpace(r.stdout) == "" {
		t.Fatal("no answer on stdout")
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || reqs[0].Path != "/v1/messages" || reqs[0].Header.Get("X-Api-Key") != "secret-local-key" {
		t.Fatalf("requests = %+v", reqs)
	}
}

func TestProviderErrorGoesToStderrWithoutTheKey(t *testing.T) {
	srv := providertest.NewServer(t, providertest.Response{Status: 401, Body: []byte(`{"error":{"message":"Incorrect API key provided: sk-test-secret-123","type":"invalid_request_error","code":"invalid_api_key"}}`)})
	r := invoke(t, map[string]string{"OPENAI_API_KEY": "sk-test-secret-123"}, nil,
		"--provider", "openai", "--model", "gpt-4o-mini", "--base-url", srv.URL+"/v1", "-p", "hi")
	if r.code != exitFailure {
		t.Fatalf("%+v", r)
	}
	if strings.Contains(r.stderr, "sk-test-secret-123") {
		t.Fatalf("the API key leaked into stderr: %q", r.stderr)
	}
	if !strings.Contains(r.stderr, "401") {
		t.Fatalf("stderr %q does not give the status", r.stderr)
	}
}

func TestListModels(t *testing.T) {
	r := invoke(t, map[string]string{"ANTHROPIC_API_KEY": "k"}, nil, "--list-models", "haiku")
	if r.code != 0 || !strings.Contains(r.stdout, "claude-haiku-4-5") || strings.Contains(r.stdout, "gpt-4o") {
		t.Fatalf("%+v", r)
	}
}

func TestPrintModeRunsToolsAndRefusesWhatNeedsApproval(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	script := writeScript(t, `{"responses": [
	  {"content": [
	    {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "notes.txt"}},
	    {"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"command": "touch made-by-bash"}}
	  ]},
	  {"text": "Done."}
	]}`)
	r := invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--provider", "faux", "--mode", "json", "-p", "go")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "made-by-bash")); err == nil {
		t.Fatal("bash ran without approval in print mode")
	}
	// Ends come as calls finish (the refused one first), so look them up
	// by call: c1 read, c2 bash.
	results := map[int]map[string]any{}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, `{"type":"tool_execution_end"`) {
			var ev map[string]any
			if err := json.Unmarshal([]byte(line), &ev); err != nil {
				t.Fatal(err)
			}
			results[map[string]int{"c1": 0, "c2": 1}[ev["toolCallId"].(string)]] = ev
		}
	}
	if len(results) != 2 {
		t.Fatalf("tool results = %d\n%s", len(results), r.stdout)
	}
	readText := results[0]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"]
	if readText != "remember the milk\n" || results[0]["isError"] != false {
		t.Fatalf("read result = %v", results[0])
	}
	bashText := results[1]["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"].(string)
	if results[1]["isError"] != true || !strings.Contains(bashText, "--approval yolo") {
		t.Fatalf("bash result = %v", results[1])
	}

	script = writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "touch made-by-bash"}}]},
	  {"text": "Done."}
	]}`)
	r = invoke(t, map[string]string{"CAIRN_FAUX_SCRIPT": script}, nil, "--provider", "faux", "--approval", "yolo", "-p", "go")
	if r.code != 0 || r.stdout != "Done.\n" {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "made-by-bash")); err != nil {
		t.Fatal("bash did not run with --approval yolo")
	}
}

// openAIChunk is one chat.completion.chunk event carrying text, or the
// finish reason when text is empty.
func openAIChunk(text string) string {
	quoted, _ := json.Marshal(text)
	delta := `{"content":` + string(quoted) + `}`
	finish := `null`
	if text == "" {
		delta, finish = `{}`, `"stop"`
	}
	return `data: {"id":"c1","object":"chat.completion.chunk","created":1700000000,"model":"local-model","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + finish + `}]}` + "\n\n"
}

// TestPrintModeLeavesAFailedAttemptsTextOffStdout: a provider that drops
// the connection mid-answer is retried, and only the answer of the attempt
// that succeeds reaches stdout; the failed attempt's partial text must not
// be glued in front of it.
func TestPrintModeLeavesAFailedAttemptsTextOffStdout(t *testing.T) {
	broken := providertest.SSEBody(openAIChunk("Half of a fir"))
	broken.Drop = true
	srv := providertest.NewServer(t, broken,
		providertest.SSEBody(openAIChunk("The whole ")+openAIChunk("answer.")+openAIChunk("")+"data: [DONE]\n\n"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(`{"retry": {"baseDelayMs": 1}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"CAIRN_DIR": dir}, nil, "--base-url", srv.URL+"/v1", "--model", "local-model", "-p", "hi")
	if r.code != exitOK {
		t.Fatalf("%+v", r)
	}
	if len(srv.Requests()) != 2 {
		t.Fatalf("%d requests, want the failed one and its retry", len(srv.Requests()))
	}
	if r.stdout != "The whole answer.\n" {
		t.Fatalf("stdout = %q, want only the retried answer", r.stdout)
	}
	if !strings.Contains(r.stderr, "retrying") {
		t.Fatalf("stderr %q does not say the attempt was retried", r.stderr)
	}
}

// A header from models.json (here a gateway's token) echoed by the server
// in its error is not shown either.
func TestProviderErrorGoesToStderrWithoutConfiguredHeaders(t *testing.T) {
	const token = "tok-gateway-SECRET-123"
	srv := providertest.NewServer(t, providertest.Response{Status: 401, Body: []byte(`{"error":{"message":"gateway token ` + token + ` is not valid","type":"invalid_request_error"}}`)})
	dir := t.TempDir()
	modelsJSON := `{"providers": {"gw": {"baseUrl": "` + srv.URL + `/v1", "api": "openai-completions", "apiKey": "none",
	  "headers": {"X-Gateway-Token": "$GW_TOKEN"}, "models": [{"id": "m"}]}}}`
	if err := os.WriteFile(filepath.Join(dir, "models.json"), []byte(modelsJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	r := invoke(t, map[string]string{"CAIRN_DIR": dir, "GW_TOKEN": token}, nil, "--model", "gw/m", "-p", "hi")
	if r.code != exitFailure {
		t.Fatalf("%+v", r)
	}
	if got := srv.Requests(); len(got) == 0 || got[0].Header.Get("X-Gateway-Token") != token {
		t.Fatalf("the header was not sent: %+v", got)
	}
	if strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, "gateway token [redacted] is not valid") {
		t.Fatalf("stderr %q", r.stderr)
	}
}
