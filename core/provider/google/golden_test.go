package google

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// TestGolden decodes every recorded Gemini stream and pins the events and
// the final message.
func TestGolden(t *testing.T) {
	for _, name := range fixtureStreams(t) {
		t.Run(name, func(t *testing.T) {
			stem := strings.TrimSuffix(name, ".sse")
			base := stem
			if ext := filepath.Ext(base); len(ext) == 2 {
				base = strings.TrimSuffix(base, ext)
			}
			model := "gemini-2.5-flash"
			if c := filepath.Join(providertest.FixtureDir(t), "gemini", base+".cassette.yaml"); fileExists(c) {
				model = loadCassette(t, "gemini/"+base+".cassette.yaml").modelOf(t)
			}
			srv := providertest.NewServer(t, providertest.SSE(t, "gemini/"+name))
			msg, err, tr := run(t, srv, model, []core.Message{userText("hi")}, nil, nil)
			if err != nil {
				t.Fatalf("stream failed: %v", err)
			}
			if msg.StopReason == core.StopError || msg.StopReason == core.StopAborted {
				t.Fatalf("stop reason %s", msg.StopReason)
			}
			providertest.Golden(t, "gemini/"+stem, tr.Bytes(msg))
		})
	}
}

// TestStopStreams decodes the constructed streams in testdata/stops, each
// an answer Gemini ends without a normal stop, and checks that the message
// ends as an error saying why, once, keeping what arrived before.
func TestStopStreams(t *testing.T) {
	for _, tc := range []struct {
		name      string
		model     string
		code      string
		says      string
		text      string
		retryable bool
	}{
		{name: "malformed_function_call", model: "gemini-flash-latest", code: "MALFORMED_FUNCTION_CALL",
			says: "Gemini produced a malformed tool call: Malformed function call: print(default_api.bash(command=\"ls -la\"))", text: "I will list the files first.", retryable: true},
		{name: "safety", model: "gemini-2.5-flash", code: "SAFETY",
			says: "Gemini blocked the response for safety reasons, rated dangerous content", text: "Here is how"},
		{name: "prompt_blocked", model: "gemini-2.5-flash", code: "PROHIBITED_CONTENT",
			says: "Gemini refused the prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join("testdata", "stops", tc.name+".sse"))
			if err != nil {
				t.Fatal(err)
			}
			srv := providertest.NewServer(t, providertest.SSEBody(string(body)))
			msg, err, tr := run(t, srv, tc.model, []core.Message{userText("hi")}, nil, nil)
			pe := asProviderError(t, err)
			if msg.StopReason != core.StopError || msg.Text() != tc.text {
				t.Errorf("stop %s text %q, want error and %q", msg.StopReason, msg.Text(), tc.text)
			}
			if pe.Code != tc.code || pe.Retryable != tc.retryable {
				t.Errorf("code %s retryable %v, want %s %v", pe.Code, pe.Retryable, tc.code, tc.retryable)
			}
			if want := tc.says + " (" + tc.code + ")"; !strings.Contains(msg.ErrorMessage, want) || strings.Count(msg.ErrorMessage, tc.code) != 1 {
				t.Errorf("error message %q, want it to say %q with the code once", msg.ErrorMessage, want)
			}
			if msg.ResponseID == "" {
				t.Error("no response id")
			}
			providertest.Golden(t, "stops/"+tc.name, tr.Bytes(msg))
		})
	}
}

// toolsFromCassette turns the cassette's declarations back into ToolSpecs.
// The recording used Gemini's OpenAPI dialect (type "OBJECT"); cairn's tools
// are JSON Schema, so the type names are lowered.
func toolsFromCassette(t *testing.T, body map[string]any) []core.ToolSpec {
	t.Helper()
	decls, _ := path(body, "tools", 0, "functionDeclarations").([]any)
	var out []core.ToolSpec
	for _, d := range decls {
		m := d.(map[string]any)
		params, err := json.Marshal(lowerTypes(m["parameters"]))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, core.ToolSpec{Name: m["name"].(string), Description: m["description"].(string), Parameters: params})
	}
	return out
}

func lowerTypes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			if s, ok := val.(string); ok && k == "type" {
				out[k] = strings.ToLower(s)
				continue
			}
			out[k] = lowerTypes(val)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = lowerTypes(x[i])
		}
		return out
	}
	return v
}

// TestCassetteTurns replays each two-turn recording: turn 1 is streamed from
// the recorded answer, then turn 2 is built from cairn's own message and a
// tool result, and checked against what the recording sent: the same turns
// and roles, function calls with their thoughtSignature echoed byte for byte,
// and the function responses paired with the calls.
func TestCassetteTurns(t *testing.T) {
	for _, base := range []string{"tool_call", "parallel_function_calls", "thinking_tool_call", "gemini3_thinking_tool_call"} {
		t.Run(base, func(t *testing.T) {
			cas := loadCassette(t, "gemini/"+base+".cassette.yaml")
			if len(cas.bodies) != 2 {
				t.Fatalf("want 2 recorded requests, got %d", len(cas.bodies))
			}
			model := cas.modelOf(t)
			rec0, rec1 := cas.bodies[0], cas.bodies[1]
			tools := toolsFromCassette(t, rec0)
			prompt := path(rec0, "contents", 0, "parts", 0, "text").(string)
			system := path(rec0, "systemInstruction", "parts", 0, "text").(string)
			thinking := core.ThinkingOff
			if path(rec0, "generationConfig", "thinkingConfig") != nil {
				thinking = core.ThinkingHigh
			}
			mut := func(r *provider.Request) { r.System = system; r.Thinking = thinking }

			srv := providertest.NewServer(t, providertest.SSE(t, "gemini/"+base+".0.sse"), providertest.SSE(t, "gemini/"+base+".1.sse"))
			history := []core.Message{userText(prompt)}
			first, err, _ := run(t, srv, model, history, tools, mut)
			if err != nil {
				t.Fatal(err)
			}
			if first.StopReason != core.StopToolUse {
				t.Fatalf("turn 1 stop reason %s, want toolUse", first.StopReason)
			}
			history = append(history, first)
			recResponses, _ := path(rec1, "contents", 2, "parts").([]any)
			for i, call := range first.ToolCalls() {
				result := path(recResponses[i], "functionResponse", "response", "result").(string)
				history = append(history, &core.ToolResultMessage{ToolCallID: call.ID, ToolName: call.Name, Content: []core.Content{core.TextBlock(result)}})
			}
			second, err, _ := run(t, srv, model, history, tools, mut)
			if err != nil || second.StopReason != core.StopEnd {
				t.Fatalf("turn 2: %v (stop %s)", err, second.StopReason)
			}

			reqs := srv.Requests()
			checkTurn1(t, decodeJSON(t, reqs[0].Body), rec0)
			compareTurn2(t, decodeJSON(t, reqs[1].Body), rec1, first)
		})
	}
}

// checkTurn1 compares the first request with the recording where cairn and
// the recorder agree on the wire: the prompt, the system instruction and the
// tool declarations (as parametersJsonSchema, since cairn sends JSON Schema).
func checkTurn1(t *testing.T, got, rec map[string]any) {
	t.Helper()
	if g, w := mustJSON(got["contents"]), mustJSON(rec["contents"]); g != w {
		t.Errorf("contents:\n got %s\nwant %s", g, w)
	}
	if g, w := path(got, "systemInstruction", "parts", 0, "text"), path(rec, "systemInstruction", "parts", 0, "text"); g != w {
		t.Errorf("system instruction %v, want %v", g, w)
	}
	gotDecls, _ := path(got, "tools", 0, "functionDeclarations").([]any)
	recDecls, _ := path(rec, "tools", 0, "functionDeclarations").([]any)
	if len(gotDecls) != len(recDecls) {
		t.Fatalf("%d function declarations, want %d", len(gotDecls), len(recDecls))
	}
	for i := range gotDecls {
		g, w := gotDecls[i].(map[string]any), recDecls[i].(map[string]any)
		if g["name"] != w["name"] || g["description"] != w["description"] {
			t.Errorf("declaration %d: %v", i, g)
		}
		if !reflect.DeepEqual(g["parametersJsonSchema"], lowerTypes(w["parameters"])) {
			t.Errorf("declaration %d schema %v, want %v", i, mustJSON(g["parametersJsonSchema"]), mustJSON(lowerTypes(w["parameters"])))
		}
		if _, ok := g["parameters"]; ok {
			t.Errorf("declaration %d also sends parameters", i)
		}
	}
	if tc := path(rec, "generationConfig", "thinkingConfig"); tc != nil {
		gtc, _ := path(got, "generationConfig", "thinkingConfig").(map[string]any)
		if gtc["includeThoughts"] != true {
			t.Errorf("thinkingConfig %v lacks includeThoughts", gtc)
		}
		if lvl, ok := tc.(map[string]any)["thinkingLevel"]; ok && gtc["thinkingLevel"] != lvl {
			t.Errorf("thinkingLevel %v, want %v", gtc["thinkingLevel"], lvl)
		}
		if _, ok := tc.(map[string]any)["thinkingBudget"]; ok && gtc["thinkingBudget"] == nil {
			t.Errorf("thinkingConfig %v has no budget", gtc)
		}
	}
}

// compareTurn2 checks the replayed conversation against the recording.
func compareTurn2(t *testing.T, got, rec map[string]any, first *core.AssistantMessage) {
	t.Helper()
	gc, _ := got["contents"].([]any)
	rc, _ := rec["contents"].([]any)
	if len(gc) != len(rc) {
		t.Fatalf("%d turns, want %d:\n%s", len(gc), len(rc), mustJSON(gc))
	}
	for i := range gc {
		if g, w := path(gc[i], "role"), path(rc[i], "role"); g != w {
			t.Errorf("turn %d role %v, want %v", i, g, w)
		}
	}
	if g, w := mustJSON(gc[0]), mustJSON(rc[0]); g != w {
		t.Errorf("user turn:\n got %s\nwant %s", g, w)
	}

	// The model turn: every recorded function call, in order, with the same
	// name, arguments and signature. cairn also replays thought summaries,
	// which the recorder dropped, so those parts are checked on their own.
	var gotCalls []map[string]any
	for _, p := range path(gc[1], "parts").([]any) {
		pm := p.(map[string]any)
		if fc, ok := pm["functionCall"]; ok {
			gotCalls = append(gotCalls, pm)
			_ = fc
			continue
		}
		if pm["thought"] != true || pm["text"] == "" {
			t.Errorf("unexpected model part %s", mustJSON(pm))
		}
	}
	recParts := path(rc[1], "parts").([]any)
	if len(gotCalls) != len(recParts) {
		t.Fatalf("%d function calls replayed, want %d", len(gotCalls), len(recParts))
	}
	calls := first.ToolCalls()
	for i, rp := range recParts {
		g, w := gotCalls[i], rp.(map[string]any)
		if g["thoughtSignature"] != w["thoughtSignature"] {
			t.Errorf("call %d thoughtSignature %v, want %v", i, g["thoughtSignature"], w["thoughtSignature"])
		}
		if g, w := path(g, "functionCall", "name"), path(w, "functionCall", "name"); g != w {
			t.Errorf("call %d name %v, want %v", i, g, w)
		}
		if g, w := mustJSON(path(g, "functionCall", "args")), mustJSON(path(w, "functionCall", "args")); g != w {
			t.Errorf("call %d args %s, want %s", i, g, w)
		}
		if id := path(g, "functionCall", "id"); id != calls[i].ID {
			t.Errorf("call %d id %v, want %s", i, id, calls[i].ID)
		}
	}

	// The responses: one user turn, one functionResponse per call, paired by
	// name and id, the tool's text under "output".
	recResp := path(rc[2], "parts").([]any)
	gotResp := path(gc[2], "parts").([]any)
	if len(gotResp) != len(recResp) {
		t.Fatalf("%d function responses, want %d", len(gotResp), len(recResp))
	}
	for i := range recResp {
		g, w := path(gotResp[i], "functionResponse").(map[string]any), path(recResp[i], "functionResponse").(map[string]any)
		if g["name"] != w["name"] || g["id"] != calls[i].ID {
			t.Errorf("response %d: %s, want name %v id %s", i, mustJSON(g), w["name"], calls[i].ID)
		}
		if out := path(g, "response", "output"); out != path(w, "response", "result") {
			t.Errorf("response %d output %v, want %v", i, out, path(w, "response", "result"))
		}
	}
}

// TestRequestWire checks the HTTP request itself: method, endpoint, the key
// in its header and nowhere else, the SSE flag, configured headers and the
// generation config.
func TestRequestWire(t *testing.T) {
	srv := providertest.NewServer(t, providertest.SSE(t, "gemini/text.0.sse"))
	temp := 0.5
	_, err, _ := run(t, srv, "gemini-2.5-flash", []core.Message{userText("hi")}, nil, func(r *provider.Request) {
		r.Model.Headers = map[string]string{"X-Model": "m", "X-Both": "model"}
		r.Headers = map[string]string{"X-Req": "r", "X-Both": "request"}
		r.Temperature = &temp
		r.MaxTokens = 4000
		r.Thinking = core.ThinkingMedium
	})
	if err != nil {
		t.Fatal(err)
	}
	got := srv.Requests()[0]
	if got.Method != "POST" || got.Path != "/models/gemini-2.5-flash:streamGenerateContent" || got.Query != "alt=sse" {
		t.Errorf("request %s %s?%s", got.Method, got.Path, got.Query)
	}
	if got.Header.Get("x-goog-api-key") != testKey {
		t.Errorf("x-goog-api-key header %q", got.Header.Get("x-goog-api-key"))
	}
	if strings.Contains(got.Query, testKey) || strings.Contains(got.Path, testKey) {
		t.Error("the API key is in the URL")
	}
	for k, want := range map[string]string{"Content-Type": "application/json", "X-Model": "m", "X-Req": "r", "X-Both": "request"} {
		if v := got.Header.Get(k); v != want {
			t.Errorf("header %s = %q, want %q", k, v, want)
		}
	}
	body := decodeJSON(t, got.Body)
	want := `{"maxOutputTokens":4000,"temperature":0.5,"thinkingConfig":{"includeThoughts":true,"thinkingBudget":8192}}`
	if g := mustJSON(body["generationConfig"]); g != want {
		t.Errorf("generationConfig %s, want %s", g, want)
	}
	if g := mustJSON(body["systemInstruction"]); g != `{"parts":[{"text":"You are a helpful assistant"}]}` {
		t.Errorf("systemInstruction %s", g)
	}
	if _, ok := body["tools"]; ok {
		t.Error("tools sent without tools")
	}
}
