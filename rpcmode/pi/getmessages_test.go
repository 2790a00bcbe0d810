package pi

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// toolOutput is a tool result text of n bytes with what JSON must escape
// in it: quotes, backslashes, newlines, control bytes, <, > and &, and
// characters outside ASCII.
func toolOutput(n int) string {
	const piece = "line \"quoted\" \\ back <b>&amp;</b>\ttab \x01 é 日本 \u2028 😀\n"
	return strings.Repeat(piece, n/len(piece)+1)[:n-n%len(piece)]
}

// storedSession writes a session file with a tool call whose result is
// big bytes long (stored out of memory from SpillThreshold on) and
// returns its path.
func storedSession(t *testing.T, big int) string {
	t.Helper()
	dir := t.TempDir()
	f := session.Store{Dir: dir}.Create(dir)
	msgs := []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("run it <now> & tell me")}, Timestamp: 1},
		&core.AssistantMessage{Content: []core.Content{
			core.TextBlock("Running."),
			{Type: core.ContentToolCall, ID: "call-1", Name: "bash", Arguments: json.RawMessage(`{"command":"seq 1 <9"}`)},
		}, Provider: "faux", Model: "faux-1", StopReason: core.StopToolUse, Timestamp: 2},
		&core.ToolResultMessage{ToolCallID: "call-1", ToolName: "bash", Content: []core.Content{core.TextBlock(toolOutput(big))}, Timestamp: 3},
		&core.ToolResultMessage{ToolCallID: "call-2", ToolName: "bash", Content: []core.Content{core.TextBlock("short"), core.TextBlock(toolOutput(big / 2))}, IsError: true, Timestamp: 4},
		&core.AssistantMessage{Content: []core.Content{core.TextBlock("Done: \"it\" ran.")}, Provider: "faux", Model: "faux-1", StopReason: core.StopEnd, Timestamp: 5},
	}
	for _, m := range msgs {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	path := f.FilePath()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// resumedRig serves a new session that then switches to the session file
// at path, as a host resumes one.
func resumedRig(t *testing.T, path string, cfg rigConfig) *rig {
	t.Helper()
	dir := filepath.Dir(path)
	fresh := session.Store{Dir: dir}.Create(dir)
	t.Cleanup(func() { fresh.Close() })
	if cfg.faux == nil {
		cfg.faux = faux.New(faux.Options{})
	}
	cfg.conversations = agent.NewFileConversations(session.Store{Dir: dir}, dir, fresh)
	r := newRig(t, cfg)
	r.send(map[string]any{"id": "switch", "type": "switch_session", "sessionPath": path})
	if res := r.response("switch"); res.get("success") != true {
		t.Fatalf("switch_session: %s", res.text)
	}
	return r
}

// wholeFrame is the get_messages response as cairn wrote it before it
// streamed: the messages encoded whole, then the frame around them.
func wholeFrame(t *testing.T, id string, msgs []core.Message) string {
	t.Helper()
	if msgs == nil {
		msgs = []core.Message{}
	}
	data, err := marshal(struct {
		Messages []core.Message `json:"messages"`
	}{msgs})
	if err != nil {
		t.Fatal(err)
	}
	return string(response{id: json.RawMessage(`"` + id + `"`), command: "get_messages", data: data}.appendTo(nil))
}

func storedCount(msgs []core.Message) int {
	n := 0
	for _, m := range msgs {
		if tr, ok := m.(*core.ToolResultMessage); ok && core.HasStored(tr.Content) {
			n++
		}
	}
	return n
}

func TestGetMessagesStreamsTheSameBytes(t *testing.T) {
	cases := []struct {
		name   string
		big    int
		stored int // tool results whose text stays in the file
	}{
		{"without stored texts", 1000, 0},
		{"with stored texts", 300 << 10, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := resumedRig(t, storedSession(t, tc.big), rigConfig{})
			msgs := r.sess.Messages()
			if got := storedCount(msgs); got != tc.stored {
				t.Fatalf("%d tool results are stored in the file, want %d", got, tc.stored)
			}
			r.send(map[string]any{"id": "m", "type": "get_messages"})
			got := r.response("m").text
			if want := wholeFrame(t, "m", msgs); got != want {
				t.Errorf("streamed frame differs from the whole one (%d and %d bytes)\n got: %.300s\nwant: %.300s", len(got), len(want), got, want)
			}
			if !strings.Contains(got, `"text":"line \"quoted\" \\ back \u003cb\u003e\u0026amp;\u003c/b\u003e\ttab \u0001 é 日本`) {
				i := strings.Index(got, `"role":"toolResult"`)
				t.Errorf("the tool output is not in the frame: %.400s", got[i:])
			}
		})
	}
}

func TestGetMessagesEmptySession(t *testing.T) {
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{})})
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	if got, want := r.response("m").text, `{"id":"m","type":"response","command":"get_messages","success":true,"data":{"messages":[]}}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestGetMessagesFromCutShortFile(t *testing.T) {
	path := storedSession(t, 300<<10)
	r := resumedRig(t, path, rigConfig{})
	msgs := r.sess.Messages()
	if storedCount(msgs) == 0 {
		t.Fatal("no tool result is stored in the file")
	}
	// The file loses its second half: the stored texts can no longer be
	// read back.
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/3); err != nil {
		t.Fatal(err)
	}
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	got := r.response("m")
	var v struct {
		Success bool `json:"success"`
		Data    struct {
			Messages []json.RawMessage `json:"messages"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(got.text), &v); err != nil || !v.Success || len(v.Data.Messages) != len(msgs) {
		t.Fatalf("not a whole answer with %d messages (%v): %.300s", len(msgs), err, got.text)
	}
	const note = "[cairn could not read this output back from the session file: "
	if n := strings.Count(got.text, note); n != 2 {
		t.Errorf("%d notes of an unreadable text, want 2: %.600s", n, got.text)
	}
	if want := wholeFrame(t, "m", msgs); got.text != want {
		t.Errorf("streamed frame differs from the whole one\n got: %.600s\nwant: %.600s", got.text, want)
	}
}

// gate is an output that stops the first write holding marker until it is
// released, so a test can act while the server is inside a frame.
type gate struct {
	w        io.Writer
	marker   string
	once     sync.Once
	entered  chan struct{}
	released chan struct{}
}

func (g *gate) Write(p []byte) (int, error) {
	if strings.Contains(string(p), g.marker) {
		g.once.Do(func() {
			close(g.entered)
			<-g.released
		})
	}
	return g.w.Write(p)
}

func TestGetMessagesFrameIsNotInterleaved(t *testing.T) {
	g := &gate{marker: `"command":"get_messages"`, entered: make(chan struct{}), released: make(chan struct{})}
	r := resumedRig(t, storedSession(t, 300<<10), rigConfig{models: []core.Model{thinkingModel},
		out: func(w io.Writer) io.Writer { g.w = w; return g }})
	watch := r.sess.Follow()
	defer watch.Stop()

	r.send(map[string]any{"id": "m", "type": "get_messages"})
	select {
	case <-g.entered:
	case <-time.After(waitLimit):
		t.Fatal("the get_messages frame was not written")
	}
	// Inside the frame: a command publishes an event meanwhile.
	r.send(map[string]any{"id": "t", "type": "set_thinking_level", "level": "high"})
	waitEvent(t, watch, func(e core.Event) bool { _, ok := e.(core.ThinkingLevelChanged); return ok })
	close(g.released)

	frame := r.response("m")
	event := r.wait(map[string]any{"type": "thinking_level_changed"})
	r.response("t")
	if frame.str("command") != "get_messages" || event.str("level") != "high" {
		t.Fatalf("unexpected lines: %.200s / %s", frame.text, event.text)
	}
	if want := wholeFrame(t, "m", r.sess.Messages()); frame.text != want {
		t.Errorf("the frame was broken up: %d bytes, want %d", len(frame.text), len(want))
	}
	r.out.mu.Lock()
	bad := r.out.bad
	r.out.mu.Unlock()
	if len(bad) > 0 {
		t.Errorf("lines that are not JSON: %.200q", bad)
	}
}

// thinkingModel is a model set_thinking_level can set high on.
var thinkingModel = core.Model{ID: "think", Name: "Think", API: faux.API, Provider: "faux", Reasoning: true, Input: []string{"text"}}

// waitEvent waits for the first event of sub that match accepts.
func waitEvent(t *testing.T, sub *agent.Subscription, match func(core.Event) bool) {
	t.Helper()
	limit := time.After(waitLimit)
	for {
		select {
		case e, ok := <-sub.Events():
			if !ok {
				t.Fatal("the subscription ended")
			}
			if match(e) {
				return
			}
		case <-limit:
			t.Fatal("the event was not published")
		}
	}
}

// TestHeldStreamedFrame: a frame written in pieces that comes while a
// prompt is being accepted is held as its pieces and written in its
// place: before the prompt's response when it came before agent_start.
func TestHeldStreamedFrame(t *testing.T) {
	s := newServer(Host{})
	var out strings.Builder
	w := newWriter(s, &out)
	msgs := core.MessagesJSON{&core.UserMessage{Content: []core.Content{core.TextBlock("hi")}, Timestamp: 1}}
	events := make(chan core.Event, 8)
	for _, e := range []core.Event{
		mark{srv: s, kind: markHold},
		mark{srv: s, kind: markLine, line: []byte(`{"head":`), body: msgs, tail: []byte(`}`)},
		core.AgentStart{},
		mark{srv: s, kind: markRelease, line: []byte(`{"prompt":"accepted"}`)},
		mark{srv: s, kind: markEnd},
	} {
		events <- e
	}
	done := make(chan struct{})
	w.run(events, done)
	want := `{"head":[{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}]}` + "\n" +
		`{"prompt":"accepted"}` + "\n" + `{"type":"agent_start"}` + "\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

// TestStreamedFrameCutShort: a message that cannot be encoded (Check
// would have refused it) ends the array early; the line stays valid JSON
// and a notification after it says what happened.
func TestStreamedFrameCutShort(t *testing.T) {
	s := newServer(Host{})
	var out strings.Builder
	w := newWriter(s, &out)
	msgs := core.MessagesJSON{&core.UserMessage{Content: []core.Content{{Type: "video"}}}}
	events := make(chan core.Event, 2)
	events <- mark{srv: s, kind: markLine, line: []byte(`{"head":`), body: msgs, tail: []byte(`}`)}
	events <- mark{srv: s, kind: markEnd}
	w.run(events, make(chan struct{}))
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 || lines[0] != `{"head":[]}` || !json.Valid([]byte(lines[1])) ||
		!strings.Contains(lines[1], `"method":"notify"`) || !strings.Contains(lines[1], "cut short: message 0: ") {
		t.Errorf("got %q", lines)
	}
}
