package aionrs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// The tests follow the conformance list for aionrs json-stream in
// protocols.md §4 (numbered there 1 to 9).

// Check 1: ready comes first, with the modes and the current one.
func TestReadyComesFirst(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeAutoEdit})
	f := r.ready()
	if f.str("version") != ProtocolVersion || f.str("session_id") != "test-session" {
		t.Fatalf("ready = %v", f)
	}
	if f.get("capabilities.tool_approval") != true || f.str("capabilities.current_mode") != "auto_edit" {
		t.Fatalf("capabilities = %v", f.get("capabilities"))
	}
	modes, _ := f.get("capabilities.modes").([]any)
	var got []string
	for _, m := range modes {
		got = append(got, m.(string))
	}
	if strings.Join(got, ",") != "default,auto_edit,plan,yolo" {
		t.Fatalf("modes = %v", got)
	}
	r.noMore()
}

// Check 2: one stream_start, the deltas with the same msg_id, one
// stream_end with usage.
func TestTextTurn(t *testing.T) {
	fp := faux.New(faux.Options{ChunkSize: 4}, faux.Response{Thinking: "let me see", Text: "Hello there, friend.",
		Usage: &core.Usage{Input: 12, Output: 5, CacheRead: 3, CacheWrite: 1}})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"Hi"}`)
	fs := r.until("stream_end")
	if fs[0].str("type") != "stream_start" || fs[0].str("msg_id") != "m1" {
		t.Fatalf("first frame = %v", fs[0])
	}
	for _, f := range fs {
		if f.str("msg_id") != "m1" {
			t.Fatalf("frame without the message's id: %v", f)
		}
	}
	if text(fs) != "Hello there, friend." || countType(fs, "text_delta") < 2 {
		t.Fatalf("text = %q in %s", text(fs), types(fs))
	}
	var thinking strings.Builder
	for _, f := range fs {
		if f.str("type") == "thinking" {
			thinking.WriteString(f.str("text"))
		}
	}
	if thinking.String() != "let me see" {
		t.Fatalf("thinking = %q", thinking.String())
	}
	end := fs[len(fs)-1]
	if end.get("usage.input_tokens") != 12.0 || end.get("usage.output_tokens") != 5.0 ||
		end.get("usage.cache_read_tokens") != 3.0 || end.get("usage.cache_write_tokens") != 1.0 {
		t.Fatalf("usage = %v", end.get("usage"))
	}
	r.noMore()
}

// Check 3: tool_request blocks until tool_approve; then tool_running and
// tool_result with the same call_id; an edit's result is a diff.
func TestApprovalRunsEditWithDiff(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "edit", `{"path":"notes.txt","edits":[{"oldText":"old line","newText":"new line"}]}`),
		faux.Response{Text: "Done."})
	r := newRig(t, rigConfig{faux: fp})
	file := filepath.Join(r.dir, "notes.txt")
	if err := os.WriteFile(file, []byte("first\nold line\nlast\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.send(`{"type":"message","msg_id":"m2","input":"Fix the notes"}`)
	fs := r.until("tool_request")
	req := fs[len(fs)-1]
	if req.str("call_id") != "t1" || req.str("tool.name") != "edit" || req.str("tool.category") != "edit" ||
		req.str("tool.args.file_path") != "notes.txt" || req.get("tool.args.path") != nil || req.str("tool.description") != "edit: notes.txt" {
		t.Fatalf("tool_request = %v", req)
	}
	// Blocked: nothing runs until the host answers; a ping is answered
	// meanwhile, and the file is unchanged.
	r.send(`{"type":"ping"}`)
	r.expect("pong")
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "old line") {
		t.Fatal("the edit ran before approval")
	}
	r.send(`{"type":"tool_approve","call_id":"t1","scope":"once"}`)
	running := r.expect("tool_running")
	if running.str("call_id") != "t1" || running.str("tool_name") != "edit" || running.str("msg_id") != "m2" {
		t.Fatalf("tool_running = %v", running)
	}
	res := r.expect("tool_result")
	if res.str("call_id") != "t1" || res.str("status") != "success" || res.str("output_type") != "diff" ||
		res.str("metadata.file_path") != file || !strings.Contains(res.str("output"), "+new line") || !strings.Contains(res.str("output"), "-old line") {
		t.Fatalf("tool_result = %v", res)
	}
	rest := r.until("stream_end")
	if text(rest) != "Done." || countType(rest, "stream_end") != 1 {
		t.Fatalf("after the tool: %s", types(rest))
	}
	if b, _ := os.ReadFile(file); !strings.Contains(string(b), "new line") {
		t.Fatalf("file = %q", b)
	}
	r.noMore()
}

// A write that replaces a file is shown as AionUi shows an edit: the
// confirmation names the file in file_path (aionrs's name), and the result
// is the change as a diff.
func TestWriteOverFileSendsDiff(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "write", `{"path":"notes.txt","content":"first\nnew line\n"}`),
		faux.Response{Text: "Rewritten."})
	r := newRig(t, rigConfig{faux: fp})
	file := filepath.Join(r.dir, "notes.txt")
	if err := os.WriteFile(file, []byte("first\nold line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"rewrite the notes"}`)
	fs := r.until("tool_request")
	if req := fs[len(fs)-1]; req.str("tool.args.file_path") != "notes.txt" || req.str("tool.args.content") == "" {
		t.Fatalf("tool_request = %v", req)
	}
	r.send(`{"type":"tool_approve","call_id":"t1","scope":"once"}`)
	r.expect("tool_running")
	res := r.expect("tool_result")
	if res.str("output_type") != "diff" || res.str("metadata.file_path") != file ||
		!strings.Contains(res.str("output"), "-old line") || !strings.Contains(res.str("output"), "+new line") {
		t.Fatalf("tool_result = %v", res)
	}
	r.until("stream_end")
	r.noMore()
}

// Check 4: tool_deny gives tool_cancelled with the reason, the model is
// told, and the turn still ends with stream_end.
func TestDenialIsToldToTheModel(t *testing.T) {
	rec := &recorder{}
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"rm -rf build"}`))
	fp.PushStep(rec.step("Understood, I will not."))
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"Clean up"}`)
	req := r.until("tool_request")[1:]
	if last := req[len(req)-1]; last.str("tool.category") != "exec" || last.str("tool.description") != "bash: rm -rf build" {
		t.Fatalf("tool_request = %v", last)
	}
	r.send(`{"type":"tool_deny","call_id":"t1","reason":"Not allowed to delete the build"}`)
	c := r.expect("tool_cancelled")
	if c.str("call_id") != "t1" || c.str("reason") != "Not allowed to delete the build" || c.str("msg_id") != "m1" {
		t.Fatalf("tool_cancelled = %v", c)
	}
	fs := r.until("stream_end")
	if countType(fs, "tool_running")+countType(fs, "tool_result") != 0 || text(fs) != "Understood, I will not." {
		t.Fatalf("after the denial: %s", types(fs))
	}
	if seen := rec.request(0); !strings.Contains(seen, "Not allowed to delete the build") {
		t.Fatalf("the model was not told the reason:\n%s", seen)
	}
	r.noMore()
}

// A denial without a reason still reaches the model as a denial.
func TestDenialWithoutReason(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"make deploy"}`), faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"Deploy"}`)
	r.until("tool_request")
	r.send(`{"type":"tool_deny","call_id":"t1"}`)
	if c := r.expect("tool_cancelled"); c.str("reason") != "User denied" {
		t.Fatalf("tool_cancelled = %v", c)
	}
	r.until("stream_end")
	msgs := r.sess.Messages()
	var result string
	for _, m := range msgs {
		if tr, ok := m.(*core.ToolResultMessage); ok {
			result = tr.Text()
		}
	}
	if !approval.IsDenial(result) {
		t.Fatalf("the model's tool result is not a denial: %q", result)
	}
	r.noMore()
}

// Scope "always" on one command remembers the gate's rule for its root
// command, as AionUi shows it ("Yes, allow always" on `echo first`): the
// next echo runs unasked, while `touch x && ls` is asked about, and an
// edit still asks.
func TestAlwaysScopeIsTheCommandRule(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "bash", `{"command":"echo first"}`),
		toolCall("t2", "bash", `{"command":"echo second"}`),
		toolCall("t3", "bash", `{"command":"touch x && ls"}`),
		toolCall("t4", "write", `{"path":"a.txt","content":"x"}`),
		faux.Response{Text: "all done"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	r.until("tool_request")
	r.send(`{"type":"tool_approve","call_id":"t1","scope":"always"}`)
	fs := r.until("tool_request")
	// t1 runs; t2 (echo again) runs without asking; t3 asks.
	if got := types(fs); got != "tool_running,tool_result,tool_running,tool_result,tool_request" {
		t.Fatalf("frames = %s", got)
	}
	if fs[2].str("call_id") != "t2" || fs[3].str("status") != "success" || !strings.Contains(fs[3].str("output"), "second") {
		t.Fatalf("t2 = %v %v", fs[2], fs[3])
	}
	if fs[4].str("call_id") != "t3" || fs[4].str("tool.category") != "exec" {
		t.Fatalf("tool_request = %v", fs[4])
	}
	r.send(`{"type":"tool_deny","call_id":"t3","reason":"no"}`)
	fs = r.until("tool_request")
	if fs[len(fs)-1].str("call_id") != "t4" || fs[len(fs)-1].str("tool.category") != "edit" {
		t.Fatalf("frames = %s, last %v", types(fs), fs[len(fs)-1])
	}
	r.send(`{"type":"tool_approve","call_id":"t4"}`)
	fs = r.until("stream_end")
	if types(fs) != "tool_running,tool_result,text_delta,stream_end" {
		t.Fatalf("frames = %s", types(fs))
	}
	if _, err := os.Stat(filepath.Join(r.dir, "x")); err == nil {
		t.Fatal("touch x ran without being approved")
	}
	if rules := r.gate.Rules(approval.ScopeSession); len(rules) != 1 || rules[0].Command != "echo" {
		t.Fatalf("session rules = %+v, want the one for echo", rules)
	}
	r.noMore()
}

// Check 5: set_mode switches at once and says so; auto_edit lets edits
// run but asks for commands; yolo asks for nothing.
func TestSetMode(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "write", `{"path":"a.txt","content":"x"}`),
		toolCall("t2", "bash", `{"command":"echo hi"}`),
		faux.Response{Text: "one"},
		toolCall("t3", "bash", `{"command":"echo again"}`),
		faux.Response{Text: "two"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"set_mode","mode":"auto_edit"}`)
	if f := r.expect("config_changed"); f.str("capabilities.current_mode") != "auto_edit" {
		t.Fatalf("config_changed = %v", f)
	}
	if r.gate.Mode() != approval.ModeAutoEdit {
		t.Fatalf("gate mode = %s", r.gate.Mode())
	}
	r.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	fs := r.until("tool_request")
	if types(fs) != "stream_start,tool_running,tool_result,tool_request" || fs[3].str("call_id") != "t2" {
		t.Fatalf("frames = %s", types(fs))
	}
	// Switching to yolo releases the waiting request at once.
	r.send(`{"type":"set_mode","mode":"yolo"}`)
	fs = r.until("stream_end")
	if types(fs) != "config_changed,tool_running,tool_result,text_delta,stream_end" || fs[1].str("call_id") != "t2" {
		t.Fatalf("frames = %s", types(fs))
	}
	r.send(`{"type":"message","msg_id":"m2","input":"again"}`)
	fs = r.until("stream_end")
	if types(fs) != "stream_start,tool_running,tool_result,text_delta,stream_end" {
		t.Fatalf("yolo frames = %s", types(fs))
	}
	r.send(`{"type":"set_mode","mode":"reckless"}`)
	if e := r.expect("error"); e.str("error.code") != "protocol_error" || e.get("msg_id") != nil {
		t.Fatalf("error = %v", e)
	}
	r.noMore()
}

// Check 6: stop mid-stream ends the turn with stream_end and the process
// takes the next message.
func TestStopMidStream(t *testing.T) {
	fp := faux.New(faux.Options{ChunkSize: 4, TokensPerSecond: 40}, faux.Response{Text: strings.Repeat("slow words ", 500)}, faux.Response{Text: "fresh"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"talk"}`)
	r.expect("stream_start")
	r.expect("text_delta")
	r.send(`{"type":"stop"}`)
	fs := r.until("stream_end")
	if countType(fs, "error") != 0 || fs[len(fs)-1].str("msg_id") != "m1" {
		t.Fatalf("after stop: %s", types(fs))
	}
	r.send(`{"type":"message","msg_id":"m2","input":"again"}`)
	fs = r.until("stream_end")
	if text(fs) != "fresh" || fs[0].str("msg_id") != "m2" {
		t.Fatalf("next turn: %v", fs)
	}
	r.noMore()
}

// Check 6: stop while a tool_request waits cancels the call and ends the
// turn; the conversation has a result for every call, so it can go on.
func TestStopDuringApproval(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"echo hi"}`), faux.Response{Text: "next"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"run it"}`)
	r.until("tool_request")
	r.send(`{"type":"stop"}`)
	fs := r.until("stream_end")
	if types(fs) != "tool_cancelled,stream_end" || fs[0].str("call_id") != "t1" {
		t.Fatalf("after stop: %v", fs)
	}
	// A late answer to the cancelled request is refused.
	r.send(`{"type":"tool_approve","call_id":"t1"}`)
	if e := r.expect("error"); e.str("error.code") != "protocol_error" {
		t.Fatalf("late approve = %v", e)
	}
	calls, results := 0, 0
	for _, m := range r.sess.Messages() {
		switch m := m.(type) {
		case *core.AssistantMessage:
			calls += len(m.ToolCalls())
		case *core.ToolResultMessage:
			results++
		}
	}
	if calls != 1 || results != 1 {
		t.Fatalf("calls %d, results %d: a dangling tool call", calls, results)
	}
	r.send(`{"type":"message","msg_id":"m2","input":"go on"}`)
	if fs := r.until("stream_end"); text(fs) != "next" {
		t.Fatalf("next turn: %s", types(fs))
	}
	r.noMore()
}

// Check 7: init_history before the first message reaches the model; one
// sent later is ignored, so history is not duplicated.
func TestInitHistory(t *testing.T) {
	rec := &recorder{}
	fp := faux.New(faux.Options{})
	fp.PushStep(rec.step("first"), rec.step("second"))
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"init_history","text":"User asked about otters.\nAssistant explained rafts."}`)
	r.send(`{"type":"message","msg_id":"m1","input":"And beavers?"}`)
	r.until("stream_end")
	if seen := rec.request(0); !strings.Contains(seen, "User asked about otters.") || !strings.Contains(seen, "And beavers?") {
		t.Fatalf("first request:\n%s", seen)
	}
	r.send(`{"type":"init_history","text":"User asked about otters.\nAssistant explained rafts."}`)
	r.send(`{"type":"message","msg_id":"m2","input":"Thanks"}`)
	r.until("stream_end")
	if seen := rec.request(1); strings.Count(seen, "User asked about otters.") != 1 {
		t.Fatalf("second request repeats the history:\n%s", seen)
	}
	r.noMore()
	if !strings.Contains(r.log.String(), "init_history after the conversation started is ignored") {
		t.Fatalf("log = %q", r.log.String())
	}
}

// init_history is bounded: past 1 MiB in all, a command is refused with a
// protocol_error and what came before is kept.
func TestInitHistoryIsBounded(t *testing.T) {
	rec := &recorder{}
	fp := faux.New(faux.Options{})
	fp.PushStep(rec.step("ok"))
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"init_history","text":"kept"}`)
	big := strings.Repeat("x", maxHistoryBytes)
	r.send(`{"type":"init_history","text":"` + big + `"}`)
	if e := r.expect("error"); e.str("error.code") != "protocol_error" || !strings.Contains(e.str("error.message"), "init_history") {
		t.Fatalf("error = %v", e)
	}
	r.send(`{"type":"message","msg_id":"m1","input":"hi"}`)
	r.until("stream_end")
	if seen := rec.request(0); !strings.Contains(seen, "kept") || strings.Contains(seen, "xxxx") {
		t.Fatalf("request holds %d bytes", len(seen))
	}
}

// A resumed conversation already holds its history: init_history does
// not add it again.
func TestInitHistoryIgnoredWhenResumed(t *testing.T) {
	rec := &recorder{}
	fp := faux.New(faux.Options{})
	fp.PushStep(rec.step("ok"))
	earlier := []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("earlier question")}},
		&core.AssistantMessage{Content: []core.Content{core.TextBlock("earlier answer")}, StopReason: core.StopEnd}}
	r := newRig(t, rigConfig{faux: fp, history: earlier})
	r.ready()
	r.send(`{"type":"init_history","text":"duplicated summary"}`)
	r.send(`{"type":"message","msg_id":"m1","input":"continue"}`)
	r.until("stream_end")
	if seen := rec.request(0); strings.Contains(seen, "duplicated summary") || !strings.Contains(seen, "earlier question") {
		t.Fatalf("request:\n%s", seen)
	}
	r.noMore()
}

// Check 8: bad input gets protocol_error with msg_id null and the process
// stays up; ping gets pong.
func TestBadInput(t *testing.T) {
	r := newRig(t, rigConfig{maxFrame: 1024})
	r.ready()
	for _, in := range []string{
		`{not json`,
		`[1,2]`,
		`null`,
		`{"type":"foo"}`,
		`{"msg_id":"m1"}`,
		`{"type":7}`,
		`{"type":"message","input":"no id"}`,
		`{"type":"tool_approve","call_id":"nope"}`,
		`{"type":"tool_approve","call_id":"x","scope":"forever"}`,
		`{"type":"tool_deny"}`,
		`{"type":"init_history"}`,
		`{"type":"add_mcp_server","name":"x"}`,
		`{"type":"message","msg_id":"m1","input":"` + strings.Repeat("a", 2000) + `"}`,
	} {
		r.send(in)
		e := r.expect("error")
		if e.str("error.code") != "protocol_error" || e.get("msg_id") != nil || e.get("error.retryable") != false || e.str("error.message") == "" {
			t.Fatalf("for %.40q: %v", in, e)
		}
		r.send(`{"type":"ping"}`)
		r.expect("pong")
	}
	r.send(`{"type":"message","msg_id":"m9","input":""}`)
	if e := r.expect("error"); e.str("msg_id") != "m9" || e.str("error.code") != "protocol_error" {
		t.Fatalf("empty message: %v", e)
	}
	r.noMore()
}

// A second message while one is in flight is refused with its own msg_id;
// the first still ends with exactly one stream_end.
func TestMessageWhileBusy(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"echo hi"}`), faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"one"}`)
	r.until("tool_request")
	r.send(`{"type":"message","msg_id":"m2","input":"two"}`)
	if e := r.expect("error"); e.str("msg_id") != "m2" || e.str("error.code") != "protocol_error" {
		t.Fatalf("busy: %v", e)
	}
	r.send(`{"type":"tool_approve","call_id":"t1"}`)
	fs := r.until("stream_end")
	if countType(fs, "stream_start") != 0 || fs[len(fs)-1].str("msg_id") != "m1" {
		t.Fatalf("frames = %v", fs)
	}
	r.noMore()
}

// --max-turns stops a message once the model is asked for more turns
// than allowed. The adapter sees the extra turn start only as an event, so
// the stop is prompt but not instant (the core has no turn limit yet): the
// slow third answer is cut off, not finished.
func TestMaxTurns(t *testing.T) {
	long := strings.Repeat("never finished ", 200)
	fp := faux.New(faux.Options{ChunkSize: 4, TokensPerSecond: 40}, toolCall("t1", "ls", `{}`), toolCall("t2", "ls", `{}`), faux.Response{Text: long})
	r := newRig(t, rigConfig{faux: fp, maxTurns: 2})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"look around"}`)
	fs := r.until("stream_end")
	if countType(fs, "tool_result") != 2 || countType(fs, "info") != 1 || countType(fs, "error") != 0 || text(fs) == long {
		t.Fatalf("frames = %s", types(fs))
	}
	r.noMore()
}

// EOF in the middle of a message cancels it; its stream_end is written
// before Serve returns.
func TestEOFMidMessage(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"echo hi"}`))
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"one"}`)
	r.until("tool_request")
	r.in.Close()
	fs := r.until("stream_end")
	if types(fs) != "tool_cancelled,stream_end" {
		t.Fatalf("frames = %s", types(fs))
	}
	r.noMore()
}

// Check 6: stop while a tool runs kills it, reports it cancelled and ends
// the turn long before the command would have.
func TestStopDuringRunningTool(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"sleep 30"}`), faux.Response{Text: "after"})
	r := newRig(t, rigConfig{faux: fp, mode: approval.ModeYolo})
	r.ready()
	start := time.Now()
	r.send(`{"type":"message","msg_id":"m1","input":"wait"}`)
	if fs := r.until("tool_running"); types(fs) != "stream_start,tool_running" {
		t.Fatalf("frames = %s", types(fs))
	}
	r.send(`{"type":"stop"}`)
	fs := r.until("stream_end")
	if types(fs) != "tool_cancelled,stream_end" || fs[0].str("call_id") != "t1" {
		t.Fatalf("after stop: %s", types(fs))
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("stop took %s", d)
	}
	r.send(`{"type":"message","msg_id":"m2","input":"go on"}`)
	if fs := r.until("stream_end"); text(fs) != "after" {
		t.Fatalf("next turn: %s", types(fs))
	}
	r.noMore()
}

// "always" for edits does not cover files that control cairn or git: the
// gate asks about those in every mode but yolo, and so does the adapter.
func TestAlwaysDoesNotCoverProtectedFiles(t *testing.T) {
	fp := faux.New(faux.Options{},
		toolCall("t1", "write", `{"path":"a.txt","content":"x"}`),
		toolCall("t2", "write", `{"path":"AGENTS.md","content":"obey"}`),
		faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	r.until("tool_request")
	r.send(`{"type":"tool_approve","call_id":"t1","scope":"always"}`)
	fs := r.until("tool_request")
	if types(fs) != "tool_running,tool_result,tool_request" || fs[2].str("call_id") != "t2" {
		t.Fatalf("frames = %s", types(fs))
	}
	// auto_edit does not release it either.
	r.send(`{"type":"set_mode","mode":"auto_edit"}`)
	r.expect("config_changed")
	r.send(`{"type":"tool_deny","call_id":"t2","reason":"leave AGENTS.md alone"}`)
	fs = r.until("stream_end")
	if types(fs) != "info,tool_cancelled,text_delta,stream_end" { // the info is the gate's warning
		t.Fatalf("frames = %s", types(fs))
	}
	if _, err := os.Stat(filepath.Join(r.dir, "AGENTS.md")); err == nil {
		t.Fatal("AGENTS.md was written")
	}
	r.noMore()
}

// auto_edit does not release a waiting command: exec still needs the host.
func TestAutoEditKeepsCommandsWaiting(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"echo hi"}`), faux.Response{Text: "ok"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	r.until("tool_request")
	r.send(`{"type":"set_mode","mode":"auto_edit"}`)
	r.expect("config_changed")
	r.send(`{"type":"ping"}`)
	r.expect("pong") // nothing ran in between
	r.send(`{"type":"tool_approve","call_id":"t1"}`)
	if fs := r.until("stream_end"); types(fs) != "tool_running,tool_result,text_delta,stream_end" {
		t.Fatalf("frames = %s", types(fs))
	}
	r.noMore()
}

// A failed model request ends the turn with provider_error and its
// stream_end; the next message works.
func TestProviderErrorEndsTheTurn(t *testing.T) {
	fp := faux.New(faux.Options{}, faux.Response{Text: "partial", Error: "upstream exploded"}, faux.Response{Text: "recovered"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"try"}`)
	fs := r.until("stream_end")
	var e frame
	for _, f := range fs {
		if f.str("type") == "error" {
			e = f
		}
	}
	if e == nil || e.str("msg_id") != "m1" || e.str("error.code") != "provider_error" || !strings.Contains(e.str("error.message"), "upstream exploded") {
		t.Fatalf("frames = %v", fs)
	}
	r.send(`{"type":"message","msg_id":"m2","input":"again"}`)
	if fs := r.until("stream_end"); text(fs) != "recovered" {
		t.Fatalf("next turn: %v", fs)
	}
	r.noMore()
}

// AionUi ends a turn after 15 s without a frame: while a tool runs,
// tool_running is sent again at every keep-alive tick, and never after the
// call's result.
func TestToolRunningIsResentWhileAToolRuns(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"sleep 30"}`), faux.Response{Text: "never"})
	ticks := make(chan time.Time)
	r := newRig(t, rigConfig{faux: fp, mode: approval.ModeYolo, ticks: ticks})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"wait"}`)
	r.until("tool_running")
	for range 2 {
		ticks <- time.Now()
		if f := r.expect("tool_running"); f.str("call_id") != "t1" || f.str("tool_name") != "bash" || f.str("msg_id") != "m1" {
			t.Fatalf("keep-alive = %v", f)
		}
	}
	r.send(`{"type":"stop"}`)
	if fs := r.until("stream_end"); types(fs) != "tool_cancelled,stream_end" {
		t.Fatalf("after stop: %s", types(fs))
	}
	// Nothing is running now: a tick sends nothing.
	ticks <- time.Now()
	r.send(`{"type":"ping"}`)
	r.expect("pong")
	r.noMore()
}

// set_config, as AionUi sends it when the person picks another model or
// turns thinking off: applied at once, reported in an info (aionrs's
// "config updated: ...") and a config_changed naming the model. A model id
// cairn does not list keeps the current server under the new id.
func TestSetConfigSwitchesModel(t *testing.T) {
	r := newRig(t, rigConfig{})
	r.ready()
	r.send(`{"type":"set_config","model":"deepseek-reasoner","thinking":"disabled"}`)
	info := r.expect("info")
	if msg := info.str("message"); !strings.HasPrefix(msg, "config updated: ") || !strings.Contains(msg, "model: faux-1 → deepseek-reasoner") || !strings.Contains(msg, "thinking: ") {
		t.Fatalf("info = %v", info)
	}
	changed := r.expect("config_changed")
	if changed.str("capabilities.current_model") != "deepseek-reasoner" {
		t.Fatalf("config_changed = %v", changed)
	}
	if m := r.sess.State().Model; m.ID != "deepseek-reasoner" || m.Provider != faux.Model.Provider {
		t.Fatalf("model = %s/%s", m.Provider, m.ID)
	}
	r.noMore()
}

// While a message is in flight set_config waits for its stream_end, as
// aionrs queues it, and says so.
func TestSetConfigWaitsForTheMessage(t *testing.T) {
	fp := faux.New(faux.Options{}, toolCall("t1", "bash", `{"command":"echo hi"}`), faux.Response{Text: "done"})
	r := newRig(t, rigConfig{faux: fp})
	r.ready()
	r.send(`{"type":"message","msg_id":"m1","input":"go"}`)
	r.until("tool_request")
	r.send(`{"type":"set_config","model":"other-model"}`)
	if info := r.expect("info"); info.str("message") != "set_config: queued, will apply after current response" {
		t.Fatalf("info = %v", info)
	}
	if r.sess.State().Model.ID != faux.Model.ID {
		t.Fatal("the model changed during the message")
	}
	r.send(`{"type":"tool_approve","call_id":"t1"}`)
	r.until("stream_end")
	if info := r.expect("info"); !strings.Contains(info.str("message"), "config applied: model: faux-1 → other-model") {
		t.Fatalf("info after stream_end = %v", info)
	}
	if changed := r.expect("config_changed"); changed.str("capabilities.current_model") != "other-model" {
		t.Fatalf("config_changed = %v", changed)
	}
	r.noMore()
}
