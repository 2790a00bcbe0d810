package extension

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/catalog"
)

// providerExtension is a version 2 extension, ready, whose providers go to
// a real catalog.
func providerExtension(t testing.TB, name string) (*extension, *catalog.Catalog) {
	cat, err := catalog.Load(catalog.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	m := New(nil, Options{Mode: "tui", Providers: cat, Now: func() time.Time { return time.Unix(0, 0) }})
	e := &extension{m: m, cfg: Config{Name: name}, state: Ready, version: 2, updates: map[string]func(core.ToolUpdate){},
		ops: map[*opCtx]struct{}{}, exited: make(chan struct{})}
	return e, cat
}

func request(method, params string) jsonrpc2.Message {
	return jsonrpc2.Message{Kind: jsonrpc2.Request, ID: json.RawMessage(`1`), Method: method, Params: json.RawMessage(params)}
}

// register_provider: a known api adds the models; an unknown one without
// a stream of its own is refused saying which apis cairn speaks; another
// extension cannot take the name; version 1 has no providers; the
// provider goes when its extension ends.
func TestRegisterProvider(t *testing.T) {
	e, cat := providerExtension(t, "one")
	good := `{"name":"local","config":{"baseUrl":"http://127.0.0.1:9","api":"openai-completions","models":[{"id":"m1"}]}}`
	if _, err := e.serve(request(MethodRegisterProvider, good)); err != nil {
		t.Fatal(err)
	}
	if m, err := cat.Find("local", "m1"); err != nil || m.API != "openai-completions" || m.ContextWindow != 128000 {
		t.Errorf("local/m1: %+v %v", m, err)
	}
	_, err := e.serve(request(MethodRegisterProvider, `{"name":"odd","config":{"baseUrl":"http://x","api":"odd-api","models":[{"id":"m"}]}}`))
	if err == nil || !strings.Contains(err.Message, `uses api "odd-api"; cairn speaks`) {
		t.Errorf("odd api: %v", err)
	}
	other := &extension{m: e.m, cfg: Config{Name: "two"}, state: Ready, version: 2, exited: make(chan struct{})}
	if _, err := other.serve(request(MethodRegisterProvider, good)); err == nil || !strings.Contains(err.Message, `registered by extension "one"`) {
		t.Errorf("taken name: %v", err)
	}
	if _, err := other.serve(request(MethodUnregisterProvider, `{"name":"local"}`)); err == nil {
		t.Error("another extension unregistered local")
	}
	v1 := &extension{m: e.m, cfg: Config{Name: "old"}, state: Ready, version: 1, exited: make(chan struct{})}
	if _, err := v1.serve(request(MethodRegisterProvider, good)); err == nil || err.Code != jsonrpc2.MethodNotFound {
		t.Errorf("version 1: %v", err)
	}
	if _, err := e.serve(request(MethodRegisterProvider, `{"name":"bad name","config":{}}`)); err == nil {
		t.Error("a name with a space was taken")
	}
	e.dropProviders()
	if _, err := cat.Find("local", "m1"); err == nil {
		t.Error("local/m1 outlived its extension")
	}
}

// FuzzProviderFrames feeds arbitrary bytes as a version 2 extension's
// output, with a stream of its provider running, so register_provider,
// unregister_provider, stream_event and cancel_stream reach their
// handlers; nothing may panic, and the stream's message stays whole.
func FuzzProviderFrames(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"register_provider","params":{"name":"p","config":{"baseUrl":"http://x","api":"anthropic-messages","models":[{"id":"m"}]}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"register_provider","params":{"name":"s","config":{"api":"mine","models":[{"id":"m","cost":{"input":1}}]},"stream":true}}`,
		`{"jsonrpc":"2.0","id":3,"method":"unregister_provider","params":{"name":"p"}}`,
		`{"jsonrpc":"2.0","method":"stream_event","params":{"streamId":"s1","events":[{"type":"start","contentIndex":0},{"type":"text_start","contentIndex":0},{"type":"text_delta","contentIndex":0,"delta":"hi"},{"type":"text_end","contentIndex":0}]}}`,
		`{"jsonrpc":"2.0","method":"stream_event","params":{"streamId":"s1","events":[{"type":"toolcall_start","contentIndex":3,"id":"c","name":"t"},{"type":"toolcall_delta","contentIndex":3,"delta":"{\"a\":"},{"type":"toolcall_end","contentIndex":3},{"type":"text_delta","contentIndex":9,"delta":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"stream_event","params":{"streamId":"nope","events":[]}}`,
		`{"jsonrpc":"2.0","method":"cancel_stream","params":{"streamId":"x"}}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, _ := providerExtension(t, "fuzz")
		var got []provider.Event
		model := core.Model{ID: "m", Provider: "s"}
		s := &stream{e: e, b: provider.NewBuilder(&model, func(ev provider.Event) { got = append(got, ev) }), blocks: map[int]int{}, touch: make(chan struct{}, 1)}
		e.m.streams = map[string]*stream{"s1": s}
		var out bytes.Buffer
		c := newConn(nopCloser{&out}, func(msg jsonrpc2.Message) (any, *jsonrpc2.Error) { return e.serve(msg) })
		c.dispatchSync = true
		c.read(newGuard(bytes.NewReader(data), e.m.opts.Now))
		msg := s.b.Finish(core.StopEnd)
		for _, ev := range got {
			if b := ev.Block(); ev.Type != provider.EventStart && ev.Type != provider.EventDone && ev.Type != provider.EventUsage && b == nil {
				t.Fatalf("event %v about no block of %+v", ev.Type, msg)
			}
		}
	})
}

// quietProvider is a fake extension (version 2) that registers a provider
// it streams itself, then never answers a stream: it tells cairn of each
// cancel it gets with a notice.
func quietProvider() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		switch m.Method {
		case MethodInitialize:
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{"protocolVersion":2,"providers":[{"name":"quiet","config":{"api":"quiet-api","models":[{"id":"q"}]},"stream":true}]}}`+"\n", m.ID)
		case MethodCancel:
			fmt.Println(`{"jsonrpc":"2.0","id":"n1","method":"ui","params":{"method":"notify","message":"stream cancelled"}}`)
		}
	}
}

// A stream of an extension's provider that falls silent ends after the
// idle limit, saying so, and the extension is told to cancel it.
func TestProviderStreamIdleLimit(t *testing.T) {
	defer func(d time.Duration) { streamIdle = d }(streamIdle)
	streamIdle = 300 * time.Millisecond
	cat, err := catalog.Load(catalog.Options{Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	m, host, _ := testManager(t, Options{Providers: cat, UI: allUI}, "quiet-provider")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	m.WaitStarted(ctx)
	model, err := cat.Find("quiet", "q")
	if err != nil {
		t.Fatal(err)
	}
	p, err := cat.Open(model, provider.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	msg, err := p.Stream(context.Background(), &provider.Request{Model: model}, func(provider.Event) {})
	if err == nil || msg.StopReason != core.StopError || !strings.Contains(msg.ErrorMessage, "no event for 300ms") {
		t.Errorf("%v %+v", err, msg)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("ended after %v", d)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case ev := <-host.showCh:
			if n, ok := ev.(core.Notice); ok && n.Message == "stream cancelled" {
				return
			}
		case <-deadline:
			t.Fatal("the extension was not told to cancel")
		}
	}
}
