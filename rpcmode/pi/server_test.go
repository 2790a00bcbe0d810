package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/approval"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/settings"
)

// slow streams a long answer at about 200 chunks a second, time enough to
// act while it streams.
var slow = faux.Options{ChunkSize: 4, TokensPerSecond: 200}

func fauxRig(t *testing.T, opts faux.Options, responses ...faux.Response) (*rig, *faux.Provider) {
	t.Helper()
	fp := faux.New(opts, responses...)
	return newRig(t, rigConfig{faux: fp}), fp
}

// longText streams for about two seconds at the slow pace; prompts that
// are aborted use it. mediumText streams for about a second.
func longText() string   { return strings.Repeat("word ", 400) }
func mediumText() string { return strings.Repeat("word ", 150) }

func TestAbortDuringStreamAnswersAfterTheRunEnds(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: longText()})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.response("p")
	r.wait(map[string]any{"type": "message_update", "assistantMessageEvent.type": "text_delta"})
	r.send(map[string]any{"id": "a", "type": "abort"})
	end := r.wait(map[string]any{"type": "message_end", "message.role": "assistant"})
	if end.str("message.stopReason") != "aborted" {
		t.Errorf("message_end: %s", end.text)
	}
	r.wait(map[string]any{"type": "turn_end"})
	r.wait(map[string]any{"type": "agent_end"})
	r.wait(map[string]any{"type": "agent_settled"})
	// As in pi, the abort's response comes last.
	r.response("a")
	r.send(map[string]any{"id": "s", "type": "get_state"})
	if st := r.response("s"); st.get("data.isStreaming") != false {
		t.Errorf("still streaming after abort: %s", st.text)
	}
}

func TestGetStateWhileStreaming(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: longText()})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.wait(map[string]any{"type": "message_update"})
	r.send(map[string]any{"id": "s", "type": "get_state"})
	st := r.response("s")
	if st.get("data.isStreaming") != true || st.get("data.messageCount") != json.Number("1") {
		t.Errorf("get_state while streaming: %s", st.text)
	}
	r.send(map[string]any{"id": "a", "type": "abort"})
	r.response("a")
}

func TestSteerAndFollowUpAreQueuedAndDelivered(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: mediumText()}, faux.Response{Text: "after steer"}, faux.Response{Text: "after follow-up"})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.wait(map[string]any{"type": "message_update"})

	// A prompt without streamingBehavior is refused, with pi's words.
	r.send(map[string]any{"id": "busy", "type": "prompt", "message": "again"})
	busy := r.response("busy")
	if !strings.HasPrefix(busy.str("error"), "Agent is already processing.") {
		t.Errorf("busy prompt: %s", busy.text)
	}
	// queue_update comes before each queueing command's response.
	r.send(map[string]any{"id": "s", "type": "steer", "message": "s1"})
	q := r.wait(map[string]any{"type": "queue_update"})
	if !sameJSON(q.get("steering"), []any{"s1"}) {
		t.Errorf("queue_update: %s", q.text)
	}
	r.response("s")
	r.send(map[string]any{"id": "f", "type": "prompt", "message": "f1", "streamingBehavior": "followUp"})
	q = r.wait(map[string]any{"type": "queue_update"})
	if !sameJSON(q.get("followUp"), []any{"f1"}) {
		t.Errorf("queue_update: %s", q.text)
	}
	r.response("f")
	r.send(map[string]any{"id": "st", "type": "get_state"})
	if st := r.response("st"); st.get("data.pendingMessageCount") != json.Number("2") {
		t.Errorf("pendingMessageCount: %s", st.text)
	}
	// Steering first, then the follow-up, each as a user message of the
	// same run.
	r.wait(map[string]any{"type": "message_start", "message.role": "user", "message.content.0.text": "s1"})
	r.wait(map[string]any{"type": "message_end", "message.role": "assistant", "message.content.0.text": "after steer"})
	r.wait(map[string]any{"type": "message_start", "message.role": "user", "message.content.0.text": "f1"})
	r.wait(map[string]any{"type": "message_end", "message.role": "assistant", "message.content.0.text": "after follow-up"})
	r.wait(map[string]any{"type": "agent_end"})
	r.wait(map[string]any{"type": "agent_settled"})
	if n := count(r.out.all(), "agent_start"); n != 1 {
		t.Errorf("%d agent_start frames, want one run", n)
	}
}

func count(lines []*line, typ string) int {
	n := 0
	for _, l := range lines {
		if l.str("type") == typ {
			n++
		}
	}
	return n
}

func TestBashAndAbortBash(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{})
	r.send(map[string]any{"id": "b", "type": "bash", "command": "echo started; sleep 30; echo late"})
	r.send(map[string]any{"id": "ab", "type": "abort_bash"})
	r.response("ab")
	res := r.response("b")
	if res.get("data.cancelled") != true || res.get("data.exitCode") != nil {
		t.Errorf("aborted bash: %s", res.text)
	}
	r.send(map[string]any{"id": "ok", "type": "bash", "command": "printf 'a\\r\\nb\\033[31m!\\033[0m\\n'; exit 4"})
	ok := r.response("ok")
	if ok.str("data.output") != "a\nb!\n" || ok.get("data.exitCode") != json.Number("4") {
		t.Errorf("bash: %s", ok.text)
	}
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	msgs := r.response("m")
	if msgs.str("data.messages.1.role") != "bashExecution" || msgs.str("data.messages.1.command") == "" {
		t.Errorf("bash results are not in the conversation: %s", msgs.text)
	}
}

// cancelledBash is a BashRunner whose runs last until they are cancelled
// and then end at once, so nothing but the server orders its answers.
type cancelledBash struct{}

func (cancelledBash) Run(ctx context.Context, _ string, _ func(string)) (BashResult, error) {
	<-ctx.Done()
	return BashResult{Cancelled: true}, nil
}

// TestAbortBashAnswersFirst checks pi's order: abort_bash's response comes
// before the response of the run it stopped, however fast the run ends.
func TestAbortBashAnswersFirst(t *testing.T) {
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), bash: cancelledBash{}})
	for i := range 500 {
		b, ab := fmt.Sprint("b", i), fmt.Sprint("ab", i)
		r.send(map[string]any{"id": b, "type": "bash", "command": "wait"})
		r.send(map[string]any{"id": ab, "type": "abort_bash"})
		r.response(ab) // fails when b's response came first: it is behind the cursor
		r.response(b)
	}
}

// TestBashStreamsItsOutput checks pi 0.82+'s bash_execution_update frames:
// the output, cleaned, with the command's id, before its response; none in
// pi 0.73's shapes.
func TestBashStreamsItsOutput(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{})
	r.send(map[string]any{"id": "s", "type": "bash", "command": "printf 'one\\n'; printf '\\033[32mtwo\\033[0m\\n'"})
	res := r.response("s")
	var deltas strings.Builder
	answered := false
	for _, l := range r.out.all() {
		switch l.str("type") {
		case "response":
			answered = answered || l.str("id") == "s"
		case "bash_execution_update":
			if l.str("id") != "s" || answered {
				t.Errorf("update %s: want id s, before the response", l.text)
			}
			deltas.WriteString(l.str("delta"))
		}
	}
	if got := deltas.String(); got != "one\ntwo\n" || res.str("data.output") != got {
		t.Errorf("streamed %q, response %s", got, res.text)
	}

	old := newRig(t, rigConfig{faux: faux.New(faux.Options{}), compat073: true})
	old.send(map[string]any{"id": "s", "type": "bash", "command": "echo hi"})
	old.response("s")
	for _, l := range old.out.all() {
		if l.str("type") == "bash_execution_update" {
			t.Errorf("pi 0.73 shapes hold %s", l.text)
		}
	}
}

// A bash result that arrives while a prompt runs joins the conversation
// when the prompt settles, before the next one.
func TestBashDuringAPromptJoinsAfterIt(t *testing.T) {
	// The prompt's answer waits until the bash command has answered, so
	// the command runs during the prompt however long it takes to start.
	bashed := make(chan struct{})
	r, fp := fauxRig(t, slow)
	fp.PushStep(func(*providerRequest) (faux.Response, error) {
		select {
		case <-bashed:
		case <-time.After(30 * time.Second):
		}
		return faux.Response{Text: mediumText()}, nil
	})
	var seen []string
	fp.PushStep(func(req *providerRequest) (faux.Response, error) {
		for _, m := range req.Messages {
			if u, ok := m.(*core.UserMessage); ok {
				seen = append(seen, u.Content[0].Text)
			}
		}
		return faux.Response{Text: "done"}, nil
	})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.wait(map[string]any{"type": "turn_start"})
	r.send(map[string]any{"id": "b", "type": "bash", "command": "echo during"})
	r.response("b")
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	if m := r.response("m"); strings.Contains(m.text, "bashExecution") {
		t.Errorf("bash result joined a running prompt: %s", m.text)
	}
	close(bashed)
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "p2", "type": "prompt", "message": "next"})
	r.wait(map[string]any{"type": "agent_settled"})
	want := []string{"talk", "Ran `echo during`\n```\nduring\n\n```", "next"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("the model saw %q, want %q", seen, want)
	}
}

func TestCompact(t *testing.T) {
	fp := faux.New(faux.Options{}, faux.Response{Text: strings.Repeat("old answer ", 50)}, faux.Response{Text: "## Goal\nsummary"})
	r := newRig(t, rigConfig{faux: fp, compaction: agent.CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 1}})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "first question"})
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "c", "type": "compact", "customInstructions": "keep it short"})
	start := r.wait(map[string]any{"type": "compaction_start"})
	if start.text != `{"type":"compaction_start","reason":"manual"}` {
		t.Errorf("compaction_start: %s", start.text)
	}
	end := r.wait(map[string]any{"type": "compaction_end"})
	if !sameKeys(end, "type", "reason", "result", "aborted", "willRetry") || end.get("aborted") != false {
		t.Errorf("compaction_end: %s", end.text)
	}
	res := r.response("c")
	if !strings.Contains(res.str("data.summary"), "summary") || keysOf(res.get("data")) == nil ||
		strings.Join(keysOf(res.get("data")), ",") != "summary,firstKeptEntryId,tokensBefore,estimatedTokensAfter,usage,details" {
		t.Errorf("compact response: %s", res.text)
	}
	r.send(map[string]any{"id": "m", "type": "get_messages"})
	if m := r.response("m"); m.str("data.messages.0.role") != "compactionSummary" {
		t.Errorf("get_messages after compact: %s", m.text)
	}
	r.send(map[string]any{"id": "st", "type": "get_session_stats"})
	if st := r.response("st"); st.get("data.contextUsage.tokens") != nil || st.get("data.contextUsage.percent") != nil {
		t.Errorf("context usage after compaction should be unknown: %s", st.text)
	}
}

func sameKeys(l *line, keys ...string) bool {
	return strings.Join(keysOf(l.value), ",") == strings.Join(keys, ",")
}

func TestSetEventFilterDeltaOnly(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{ChunkSize: 4}, faux.Response{Text: "one two three"})
	r.send(map[string]any{"id": "f", "type": "set_event_filter", "messageUpdates": "delta", "events": []string{"message_update", "agent_settled"}})
	r.response("f")
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hi"})
	r.response("p")
	r.wait(map[string]any{"type": "agent_settled"})
	var text string
	responded := false
	for _, l := range r.out.all() {
		switch l.str("type") {
		case "message_update":
			if !responded {
				// The response comes before the run's events, even with
				// agent_start filtered out.
				t.Errorf("an update before the prompt's response: %s", l.text)
			}
			if l.get("message") != nil || l.get("assistantMessageEvent.partial") != nil {
				t.Errorf("delta-only update carries the message: %s", l.text)
			}
			if l.str("assistantMessageEvent.type") == "text_delta" {
				text += l.str("assistantMessageEvent.delta")
			}
		case "response":
			responded = responded || l.str("id") == "p"
		case "agent_settled":
		default:
			t.Errorf("filtered event written: %s", l.text)
		}
	}
	if text != "one two three" {
		t.Errorf("deltas add up to %q", text)
	}
}

// With delta-only updates, output grows linearly with the answer.
func TestDeltaOnlyOutputIsLinear(t *testing.T) {
	size := func(chunks int) int {
		r, _ := fauxRig(t, faux.Options{ChunkSize: 4}, faux.Response{Text: strings.Repeat("tok ", chunks)})
		r.send(map[string]any{"id": "f", "type": "set_event_filter", "messageUpdates": "delta"})
		r.send(map[string]any{"id": "p", "type": "prompt", "message": "go"})
		r.wait(map[string]any{"type": "agent_settled"})
		if err := r.close(); err != nil {
			t.Fatal(err)
		}
		return r.out.bytes
	}
	small, big := size(1000), size(4000)
	if ratio := float64(big) / float64(small); ratio > 4.4 {
		t.Errorf("4x the chunks took %.1fx the bytes (%d vs %d)", ratio, big, small)
	}
}

func TestOversizedLineIsAnsweredAndSkipped(t *testing.T) {
	fp := faux.New(faux.Options{})
	r := newRig(t, rigConfig{faux: fp, maxFrame: 100})
	r.raw(`{"id":"big","type":"prompt","message":"` + strings.Repeat("x", 500) + "\"}\n")
	r.send(map[string]any{"id": "after", "type": "get_state"})
	big := r.response("big")
	if big.str("command") != "parse" || !strings.Contains(big.str("error"), "longer than 100 bytes") {
		t.Errorf("oversized line: %s", big.text)
	}
	r.response("after")
}

func TestFramingAcceptsCRLFAndALastLineWithoutNewline(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{})
	r.raw("{\"id\":\"a\",\"type\":\"set_session_name\",\"name\":\"x\u2028y\"}\r\n{\"id\":\"b\",\"type\":\"get_state\"}")
	if err := r.close(); err != nil {
		t.Fatal(err)
	}
	r.response("a")
	if b := r.response("b"); b.str("data.sessionName") != "x\u2028y" {
		t.Errorf("get_state: %s", b.text)
	}
}

func TestSessionNameEventPrecedesResponse(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{})
	r.send(map[string]any{"id": "n", "type": "set_session_name", "name": "  demo "})
	ev := r.wait(map[string]any{"type": "session_info_changed"})
	if ev.str("name") != "demo" {
		t.Errorf("session_info_changed: %s", ev.text)
	}
	r.response("n")
	r.send(map[string]any{"id": "e", "type": "set_session_name", "name": " "})
	expectError(t, r.response("e"), "Session name cannot be empty")
}

func TestSessionCommandsInMemory(t *testing.T) {
	r, _ := fauxRig(t, faux.Options{}, faux.Response{Text: "hi"})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hello"})
	r.wait(map[string]any{"type": "agent_settled"})
	r.send(map[string]any{"id": "fm", "type": "get_branch_messages"})
	fm := r.response("fm")
	if fm.str("data.messages.0.text") != "hello" || len(fm.str("data.messages.0.entryId")) != 8 {
		t.Errorf("get_branch_messages: %s", fm.text)
	}
	for _, cmd := range []map[string]any{
		{"id": "sw", "type": "switch_session", "sessionPath": "/tmp/x.jsonl"},
		{"id": "ex", "type": "export_html"},
	} {
		r.send(cmd)
		if res := r.response(cmd["id"].(string)); !strings.Contains(res.str("error"), "kept in memory") {
			t.Errorf("%s: %s", cmd["type"], res.text)
		}
	}
	// Fork works from memory, as in pi 0.87.
	r.send(map[string]any{"id": "fk", "type": "fork", "entryId": fm.str("data.messages.0.entryId")})
	if res := r.response("fk"); res.get("success") != true || res.str("data.text") != "hello" {
		t.Errorf("fork: %s", res.text)
	}
	r.send(map[string]any{"id": "st", "type": "get_state"})
	before := r.response("st").str("data.sessionId")
	r.send(map[string]any{"id": "n", "type": "new_session"})
	if n := r.response("n"); n.text != `{"id":"n","type":"response","command":"new_session","success":true,"data":{"cancelled":false}}` {
		t.Errorf("new_session: %s", n.text)
	}
	r.send(map[string]any{"id": "st2", "type": "get_state"})
	st := r.response("st2")
	if st.get("data.messageCount") != json.Number("0") || st.str("data.sessionId") == before {
		t.Errorf("get_state after new_session: %s", st.text)
	}
}

func TestSettersPersistOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	global := filepath.Join(dir, "settings.json")
	st, err := settings.Load(global, "")
	if err != nil {
		t.Fatal(err)
	}
	fp := faux.New(faux.Options{})
	r := newRig(t, rigConfig{faux: fp, settings: st})
	r.send(map[string]any{"id": "a", "type": "set_steering_mode", "mode": "all"})
	r.response("a")
	if _, err := os.Stat(global); !os.IsNotExist(err) {
		t.Fatalf("a setter without persist wrote %s", global)
	}
	r.send(map[string]any{"id": "b", "type": "set_follow_up_mode", "mode": "all", "persist": true})
	r.response("b")
	data, err := os.ReadFile(global)
	if err != nil || !strings.Contains(string(data), `"followUpMode": "all"`) || strings.Contains(string(data), "steeringMode") {
		t.Errorf("settings file after persist: %s %v", data, err)
	}
	r.send(map[string]any{"id": "c", "type": "set_auto_retry", "enabled": "yes"})
	expectError(t, r.response("c"), `field "enabled" must be true or false, not a string`)
	r.send(map[string]any{"id": "d", "type": "set_steering_mode", "mode": "some"})
	expectError(t, r.response("d"), `field "mode" must be "one-at-a-time" or "all", not "some"`)
}

// failingStore is a session store whose disk is full.
type failingStore struct{}

func (failingStore) AppendMessage(core.Message) (string, error) {
	return "", errors.New("no space left on device")
}
func (failingStore) AppendModelChange(string, string) error       { return nil }
func (failingStore) AppendThinkingLevel(core.ThinkingLevel) error { return nil }
func (failingStore) AppendCompaction(core.CompactionResult) (string, error) {
	return "", nil
}

func TestNoticeBecomesNotifyFrame(t *testing.T) {
	fp := faux.New(faux.Options{}, faux.Response{Text: "hi"})
	r := newRig(t, rigConfig{faux: fp, conversations: agent.NewMemoryConversations(failingStore{})})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "hello"})
	l := r.wait(map[string]any{"type": "extension_ui_request"})
	want := `"method":"notify","message":"could not save the session: no space left on device","notifyType":"error"}`
	if !strings.HasPrefix(l.text, `{"type":"extension_ui_request","id":"`) || !strings.HasSuffix(l.text, want) {
		t.Errorf("got %s, want …%s", l.text, want)
	}
}

func TestThinkingAndModelCommands(t *testing.T) {
	think := core.Model{ID: "think", Name: "Think", API: faux.API, Provider: "faux", Reasoning: true, Input: []string{"text"}}
	xhigh := core.Model{ID: "gpt-5.2", Name: "X", API: faux.API, Provider: "faux", Reasoning: true, Input: []string{"text"}}
	// pi 0.73 turned thinking on when switching to a reasoning model; pi 0.87
	// leaves it off (the pi087 d-state transcript checks that).
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), models: []core.Model{faux.Model, think, xhigh}, compat073: true})
	r.send(map[string]any{"id": "1", "type": "set_thinking_level", "level": "high"})
	r.response("1") // clamped to off, no event
	r.send(map[string]any{"id": "2", "type": "set_model", "provider": "faux", "modelId": "think"})
	if ev := r.wait(map[string]any{"type": "thinking_level_changed"}); ev.str("level") != "medium" {
		t.Errorf("thinking after switching to a reasoning model: %s", ev.text)
	}
	r.response("2")
	r.send(map[string]any{"id": "3", "type": "set_thinking_level", "level": "xhigh"})
	r.wait(map[string]any{"type": "thinking_level_changed", "level": "high"})
	r.response("3")
	r.send(map[string]any{"id": "4", "type": "cycle_thinking_level"})
	if c := r.response("4"); c.str("data.level") != "off" {
		t.Errorf("cycle from high without xhigh: %s", c.text)
	}
	r.send(map[string]any{"id": "5", "type": "cycle_model"})
	if c := r.response("5"); c.str("data.model.id") != "gpt-5.2" || c.get("data.isScoped") != false {
		t.Errorf("cycle_model: %s", c.text)
	}
	r.send(map[string]any{"id": "6", "type": "set_thinking_level", "level": "xhigh"})
	r.wait(map[string]any{"type": "thinking_level_changed", "level": "xhigh"})
	r.response("6")
	r.send(map[string]any{"id": "7", "type": "set_model", "provider": "faux", "modelId": "nope"})
	expectError(t, r.response("7"), "Model not found: faux/nope")
	r.send(map[string]any{"id": "8", "type": "set_interrupt_mode", "mode": "wait"})
	r.response("8")
	r.send(map[string]any{"id": "9", "type": "get_state"})
	if st := r.response("9"); st.str("data.interruptMode") != "wait" || st.str("data.thinkingLevel") != "xhigh" {
		t.Errorf("get_state: %s", st.text)
	}
	r.send(map[string]any{"id": "10", "type": "get_last_assistant_text"})
	if l := r.response("10"); l.text != `{"id":"10","type":"response","command":"get_last_assistant_text","success":true,"data":{}}` {
		t.Errorf("get_last_assistant_text with no answer: %s", l.text)
	}
}

func TestAbortAndPrompt(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: longText()}, faux.Response{Text: "second"})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "first"})
	r.wait(map[string]any{"type": "message_update"})
	r.send(map[string]any{"id": "ap", "type": "abort_and_prompt", "message": "instead"})
	r.wait(map[string]any{"type": "message_end", "message.stopReason": "aborted"})
	r.wait(map[string]any{"type": "agent_settled"})
	r.response("ap")
	r.wait(map[string]any{"type": "agent_start"})
	r.wait(map[string]any{"type": "message_end", "message.content.0.text": "second"})
	r.wait(map[string]any{"type": "agent_settled"})
}

// Input ending mid-stream aborts the prompt; its last events are still
// written before Serve returns.
func TestEOFMidStreamWindsDown(t *testing.T) {
	r, _ := fauxRig(t, slow, faux.Response{Text: longText()})
	r.send(map[string]any{"id": "p", "type": "prompt", "message": "talk"})
	r.wait(map[string]any{"type": "message_update"})
	if err := r.close(); err != nil {
		t.Fatal(err)
	}
	r.wait(map[string]any{"type": "agent_end"})
	r.wait(map[string]any{"type": "agent_settled"})
}

func TestAppendAssistantMatchesMarshalJSON(t *testing.T) {
	m := &core.AssistantMessage{
		Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "hmm <b>&\u2028", ThinkingSignature: "sig", Redacted: true},
			core.TextBlock("text \"quoted\"\n\x01 é"),
			{Type: core.ContentToolCall, ID: "c1", Name: "bash", Arguments: json.RawMessage(`{"command": "ls  -l"}`)},
			core.ImageBlock("AAAA", "image/png"),
		},
		API: "x", Provider: "p", Model: "m", StopReason: core.StopToolUse, ErrorMessage: "e", Timestamp: 42, ResponseID: "r",
		Usage: core.Usage{Input: 1, Output: 2, TotalTokens: 3, Cost: core.Cost{Input: 1e-7, Total: 0.5}},
	}
	want, err := marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	// core's MarshalJSON escapes <, > and & (encoding/json does inside
	// json.Marshal); pi, like appendAssistant, leaves them as they are.
	want = []byte(strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(string(want)))
	got, err := appendAssistant(nil, m)
	if err != nil || string(got) != string(want) {
		t.Errorf("appendAssistant:\n got %s\nwant %s (%v)", got, want, err)
	}
}

func TestSetApprovalMode(t *testing.T) {
	gate, _ := approval.Open(approval.Config{})
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), approvals: gate})
	r.send(map[string]any{"id": "a", "type": "set_approval_mode", "mode": "yolo"})
	if resp := r.response("a"); resp.get("success") != true || gate.Mode() != approval.ModeYolo {
		t.Fatalf("response = %s, mode = %s", resp.text, gate.Mode())
	}
	r.send(map[string]any{"id": "b", "type": "set_approval_mode", "mode": "sometimes"})
	if resp := r.response("b"); resp.get("success") != false || !strings.Contains(resp.str("error"), "mode") {
		t.Fatalf("response = %s", resp.text)
	}
	// get_state reports the mode in force, so a front end can show it.
	r.send(map[string]any{"id": "c", "type": "get_state"})
	if resp := r.response("c"); !strings.Contains(resp.text, `"approvalMode":"yolo"`) {
		t.Fatalf("get_state = %s, want approvalMode yolo", resp.text)
	}
}

// A base URL's user:password@ and ?key=, and header values (models.json may
// hold credentials in them) never reach the host: get_available_models,
// set_model, cycle_model and get_state show the models without them.
func TestModelsShownWithoutCredentials(t *testing.T) {
	gw := core.Model{ID: "gw", Name: "Gateway", API: faux.API, Provider: "faux", Input: []string{"text"},
		BaseURL: "https://bob:hunter2-secret@gw.example.com/v1?key=AIzaSECRET123&alt=sse", Headers: map[string]string{"X-Api-Key": "hdr-secret-123456"}}
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), models: []core.Model{faux.Model, gw}})
	const shownURL = "https://gw.example.com/v1?key=[redacted]&alt=sse"
	check := func(what string, l *line, path string) {
		t.Helper()
		for _, secret := range []string{"hunter2-secret", "bob", "AIzaSECRET123", "hdr-secret-123456"} {
			if strings.Contains(l.text, secret) {
				t.Errorf("%s shows %q: %s", what, secret, l.text)
			}
		}
		if got := l.str(path + ".baseUrl"); got != shownURL {
			t.Errorf("%s: baseUrl %q, want %q", what, got, shownURL)
		}
	}
	r.send(map[string]any{"id": "1", "type": "get_available_models"})
	check("get_available_models", r.response("1"), "data.models.1")
	r.send(map[string]any{"id": "2", "type": "set_model", "provider": "faux", "modelId": "gw"})
	check("set_model", r.response("2"), "data")
	r.send(map[string]any{"id": "3", "type": "get_state"})
	check("get_state", r.response("3"), "data.model")
	r.send(map[string]any{"id": "4", "type": "set_model", "provider": "faux", "modelId": faux.Model.ID})
	r.response("4")
	r.send(map[string]any{"id": "5", "type": "cycle_model"})
	check("cycle_model", r.response("5"), "data.model")
}
