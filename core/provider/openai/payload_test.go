package openai

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// The request's payload is shown to the hooks without the key (here also
// pasted into the prompt), a replacement is what the server gets, and the
// response's status and headers are told, the key taken out of them too.
func TestPayloadHooksSeeAndReplaceThePayloadWithoutSecrets(t *testing.T) {
	resp := providertest.SSEBody(textChunk("ok") + stopChunk + doneLine)
	resp.Header.Set("X-Echo", "Bearer "+testKey)
	srv := providertest.NewServer(t, resp)
	var shown string
	var status int
	var headers map[string]string
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("my key is " + testKey)}, APIKey: testKey,
		Hooks: &provider.PayloadHooks{
			BeforeSend: func(_ context.Context, payload func() (json.RawMessage, error)) (json.RawMessage, error) {
				p, err := payload()
				if err != nil {
					t.Fatal(err)
				}
				shown = string(p)
				var m map[string]any
				if err := json.Unmarshal(p, &m); err != nil {
					t.Fatal(err)
				}
				m["temperature"] = 0
				m["messages"] = []any{map[string]any{"role": "user", "content": "replaced"}}
				return json.Marshal(m)
			},
			AfterResponse: func(_ context.Context, s int, h map[string]string) { status, headers = s, h },
		}}
	msg, err := New(provider.Options{}).Stream(context.Background(), req, nil)
	if err != nil || msg.StopReason != core.StopEnd {
		t.Fatalf("%v %+v", err, msg)
	}
	if strings.Contains(shown, testKey) || !strings.Contains(shown, `"model":"gpt-4o-mini"`) {
		t.Errorf("payload shown: %s", shown)
	}
	sent := string(srv.Requests()[0].Body)
	if !strings.Contains(sent, `"temperature":0`) || !strings.Contains(sent, `"content":"replaced"`) {
		t.Errorf("sent %s", sent)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("the key was not sent: %q", got)
	}
	if status != http.StatusOK || headers["X-Echo"] == "" || strings.Contains(headers["X-Echo"], testKey) {
		t.Errorf("after response: %d %v", status, headers)
	}
}

// A replacement that is not a JSON object fails the request before
// anything is sent.
func TestPayloadHookReplacementMustBeAnObject(t *testing.T) {
	srv := providertest.NewServer(t)
	req := &provider.Request{Model: openAIModel(srv.URL + "/v1"), Messages: []core.Message{userText("hi")}, APIKey: testKey,
		Hooks: &provider.PayloadHooks{BeforeSend: func(context.Context, func() (json.RawMessage, error)) (json.RawMessage, error) {
			return json.RawMessage(`[1]`), nil
		}}}
	msg, err := New(provider.Options{}).Stream(context.Background(), req, nil)
	if err == nil || msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "not a JSON object") || len(srv.Requests()) != 0 {
		t.Fatalf("%v %+v", err, msg)
	}
}
