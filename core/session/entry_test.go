package session

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

func ptr[T any](v T) *T { return &v }

const ts = "2026-03-15T10:00:00.000Z"

// entryCases is one entry of every type and message role, with the line pi
// would write for it.
var entryCases = []struct {
	name string
	e    Entry
	want string
}{
	{"user message", Entry{Type: TypeMessage, ID: "aaaaaaa1", Timestamp: ts, Payload: &MessageEntry{&core.UserMessage{
		Content: []core.Content{core.TextBlock("hi <b> & \"co\"\n"), core.ImageBlock("QQ==", "image/png")}, Timestamp: 1}}},
		`{"type":"message","id":"aaaaaaa1","parentId":null,"timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"user","content":[{"type":"text","text":"hi <b> & \"co\"\n"},{"type":"image","data":"QQ==","mimeType":"image/png"}],"timestamp":1}}`},
	{"assistant message", Entry{Type: TypeMessage, ID: "aaaaaaa2", ParentID: ptr("aaaaaaa1"), Timestamp: ts, Payload: &MessageEntry{&core.AssistantMessage{
		Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: "sig"},
			{Type: core.ContentText, Text: "ok", TextSignature: "msg_1"},
			{Type: core.ContentToolCall, ID: "call_1", Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`), ThoughtSignature: "ts"},
		},
		API: "anthropic-messages", Provider: "anthropic", Model: "claude",
		Usage:      core.Usage{Input: 10, Output: 5, CacheRead: 2, CacheWrite: 1, TotalTokens: 18, Cost: core.Cost{Input: 0.5, Output: 0.25, Total: 0.75}},
		StopReason: core.StopError, ErrorMessage: "boom", Timestamp: 2, ResponseID: "resp_1"}}},
		`{"type":"message","id":"aaaaaaa2","parentId":"aaaaaaa1","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hmm","thinkingSignature":"sig"},{"type":"text","text":"ok","textSignature":"msg_1"},{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"ls"},"thoughtSignature":"ts"}],"api":"anthropic-messages","provider":"anthropic","model":"claude","usage":{"input":10,"output":5,"cacheRead":2,"cacheWrite":1,"totalTokens":18,"cost":{"input":0.5,"output":0.25,"cacheRead":0,"cacheWrite":0,"total":0.75}},"stopReason":"error","timestamp":2,"responseId":"resp_1","errorMessage":"boom"}}`},
	{"tool result message", Entry{Type: TypeMessage, ID: "aaaaaaa3", ParentID: ptr("aaaaaaa2"), Timestamp: ts, Payload: &MessageEntry{&core.ToolResultMessage{
		ToolCallID: "call_1", ToolName: "bash", Content: []core.Content{core.TextBlock("a.go\n")}, Details: json.RawMessage(`{"truncation":null}`), IsError: true, Timestamp: 3}}},
		`{"type":"message","id":"aaaaaaa3","parentId":"aaaaaaa2","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"toolResult","toolCallId":"call_1","toolName":"bash","content":[{"type":"text","text":"a.go\n"}],"details":{"truncation":null},"isError":true,"timestamp":3}}`},
	{"bash execution", Entry{Type: TypeMessage, ID: "aaaaaaa4", ParentID: ptr("aaaaaaa3"), Timestamp: ts, Payload: &MessageEntry{&core.BashExecutionMessage{
		Command: "make", Output: "ok\n", ExitCode: ptr(2), Truncated: true, FullOutputPath: "/tmp/out.log", Timestamp: 4, ExcludeFromContext: true}}},
		`{"type":"message","id":"aaaaaaa4","parentId":"aaaaaaa3","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"bashExecution","command":"make","output":"ok\n","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/out.log","timestamp":4,"excludeFromContext":true}}`},
	{"bash execution killed", Entry{Type: TypeMessage, ID: "aaaaaaa5", ParentID: ptr("aaaaaaa4"), Timestamp: ts, Payload: &MessageEntry{&core.BashExecutionMessage{
		Command: "sleep 9", Cancelled: true, Timestamp: 5}}},
		`{"type":"message","id":"aaaaaaa5","parentId":"aaaaaaa4","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"bashExecution","command":"sleep 9","output":"","cancelled":true,"truncated":false,"timestamp":5}}`},
	{"custom message", Entry{Type: TypeMessage, ID: "aaaaaaa6", ParentID: ptr("aaaaaaa5"), Timestamp: ts, Payload: &MessageEntry{&core.CustomMessage{
		CustomType: "ext", Content: []core.Content{core.TextBlock("note")}, Display: true, Details: json.RawMessage(`[1,2]`), Timestamp: 6}}},
		`{"type":"message","id":"aaaaaaa6","parentId":"aaaaaaa5","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"custom","customType":"ext","content":[{"type":"text","text":"note"}],"display":true,"details":[1,2],"timestamp":6}}`},
	{"branch summary message", Entry{Type: TypeMessage, ID: "aaaaaaa7", ParentID: ptr("aaaaaaa6"), Timestamp: ts, Payload: &MessageEntry{&core.BranchSummaryMessage{
		Summary: "s", FromID: "root", Timestamp: 7}}},
		`{"type":"message","id":"aaaaaaa7","parentId":"aaaaaaa6","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"branchSummary","summary":"s","fromId":"root","timestamp":7}}`},
	{"compaction summary message", Entry{Type: TypeMessage, ID: "aaaaaaa8", ParentID: ptr("aaaaaaa7"), Timestamp: ts, Payload: &MessageEntry{&core.CompactionSummaryMessage{
		Summary: "c", TokensBefore: 900, Timestamp: 8}}},
		`{"type":"message","id":"aaaaaaa8","parentId":"aaaaaaa7","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"compactionSummary","summary":"c","tokensBefore":900,"timestamp":8}}`},
	{"unknown role", Entry{Type: TypeMessage, ID: "aaaaaaa9", ParentID: ptr("aaaaaaa8"), Timestamp: ts, Payload: &MessageEntry{&core.RawMessage{
		Role: "fromTheFuture", JSON: json.RawMessage(`{"role":"fromTheFuture","x":[1,{"y":null}]}`)}}},
		`{"type":"message","id":"aaaaaaa9","parentId":"aaaaaaa8","timestamp":"2026-03-15T10:00:00.000Z","message":{"role":"fromTheFuture","x":[1,{"y":null}]}}`},
	{"model change", Entry{Type: TypeModelChange, ID: "bbbbbbb1", ParentID: ptr("aaaaaaa9"), Timestamp: ts, Payload: &ModelChangeEntry{Provider: "openai", ModelID: "gpt-5"}},
		`{"type":"model_change","id":"bbbbbbb1","parentId":"aaaaaaa9","timestamp":"2026-03-15T10:00:00.000Z","provider":"openai","modelId":"gpt-5"}`},
	{"thinking level change", Entry{Type: TypeThinkingLevelChange, ID: "bbbbbbb2", ParentID: ptr("bbbbbbb1"), Timestamp: ts, Payload: &ThinkingLevelChangeEntry{ThinkingLevel: core.ThinkingHigh}},
		`{"type":"thinking_level_change","id":"bbbbbbb2","parentId":"bbbbbbb1","timestamp":"2026-03-15T10:00:00.000Z","thinkingLevel":"high"}`},
	{"compaction", Entry{Type: TypeCompaction, ID: "bbbbbbb3", ParentID: ptr("bbbbbbb2"), Timestamp: ts, Payload: &CompactionEntry{
		Summary: "## Goal\n", FirstKeptEntryID: "aaaaaaa5", TokensBefore: 12345, Details: json.RawMessage(`{"readFiles":[],"modifiedFiles":["a.go"]}`)}},
		`{"type":"compaction","id":"bbbbbbb3","parentId":"bbbbbbb2","timestamp":"2026-03-15T10:00:00.000Z","summary":"## Goal\n","firstKeptEntryId":"aaaaaaa5","tokensBefore":12345,"details":{"readFiles":[],"modifiedFiles":["a.go"]},"fromHook":false}`},
	{"compaction from hook", Entry{Type: TypeCompaction, ID: "bbbbbbb4", ParentID: ptr("bbbbbbb3"), Timestamp: ts, Payload: &CompactionEntry{
		Summary: "x", FirstKeptEntryID: "aaaaaaa6", TokensBefore: 1, FromHook: true}},
		`{"type":"compaction","id":"bbbbbbb4","parentId":"bbbbbbb3","timestamp":"2026-03-15T10:00:00.000Z","summary":"x","firstKeptEntryId":"aaaaaaa6","tokensBefore":1,"fromHook":true}`},
	{"branch summary", Entry{Type: TypeBranchSummary, ID: "bbbbbbb5", ParentID: ptr("bbbbbbb4"), Timestamp: ts, Payload: &BranchSummaryEntry{
		FromID: "aaaaaaa9", Summary: "tried", Details: json.RawMessage(`{"k":"v"}`)}},
		`{"type":"branch_summary","id":"bbbbbbb5","parentId":"bbbbbbb4","timestamp":"2026-03-15T10:00:00.000Z","fromId":"aaaaaaa9","summary":"tried","details":{"k":"v"},"fromHook":false}`},
	{"custom with data", Entry{Type: TypeCustom, ID: "bbbbbbb6", ParentID: ptr("bbbbbbb5"), Timestamp: ts, Payload: &CustomEntry{CustomType: "ext", Data: json.RawMessage(`{"n":1}`)}},
		`{"type":"custom","customType":"ext","data":{"n":1},"id":"bbbbbbb6","parentId":"bbbbbbb5","timestamp":"2026-03-15T10:00:00.000Z"}`},
	{"custom without data", Entry{Type: TypeCustom, ID: "bbbbbbb7", ParentID: ptr("bbbbbbb6"), Timestamp: ts, Payload: &CustomEntry{CustomType: "ext"}},
		`{"type":"custom","customType":"ext","id":"bbbbbbb7","parentId":"bbbbbbb6","timestamp":"2026-03-15T10:00:00.000Z"}`},
	{"custom message entry", Entry{Type: TypeCustomMessage, ID: "bbbbbbb8", ParentID: ptr("bbbbbbb7"), Timestamp: ts, Payload: &CustomMessageEntry{
		CustomType: "ext", Content: []core.Content{core.TextBlock("look")}, Display: false, Details: json.RawMessage(`{"d":true}`)}},
		`{"type":"custom_message","customType":"ext","content":[{"type":"text","text":"look"}],"display":false,"details":{"d":true},"id":"bbbbbbb8","parentId":"bbbbbbb7","timestamp":"2026-03-15T10:00:00.000Z"}`},
	{"label", Entry{Type: TypeLabel, ID: "bbbbbbb9", ParentID: ptr("bbbbbbb8"), Timestamp: ts, Payload: &LabelEntry{TargetID: "aaaaaaa1", Label: "start"}},
		`{"type":"label","id":"bbbbbbb9","parentId":"bbbbbbb8","timestamp":"2026-03-15T10:00:00.000Z","targetId":"aaaaaaa1","label":"start"}`},
	{"label cleared", Entry{Type: TypeLabel, ID: "bbbbbbba", ParentID: ptr("bbbbbbb9"), Timestamp: ts, Payload: &LabelEntry{TargetID: "aaaaaaa1"}},
		`{"type":"label","id":"bbbbbbba","parentId":"bbbbbbb9","timestamp":"2026-03-15T10:00:00.000Z","targetId":"aaaaaaa1"}`},
	{"session info", Entry{Type: TypeSessionInfo, ID: "bbbbbbbb", ParentID: ptr("bbbbbbba"), Timestamp: ts, Payload: &SessionInfoEntry{Name: "refactor"}},
		`{"type":"session_info","id":"bbbbbbbb","parentId":"bbbbbbba","timestamp":"2026-03-15T10:00:00.000Z","name":"refactor"}`},
	{"unknown type", Entry{Type: "future", ID: "bbbbbbbc", ParentID: ptr("bbbbbbbb"), Timestamp: ts, Payload: &UnknownEntry{Type: "future",
		Raw: json.RawMessage(`{"type":"future","id":"bbbbbbbc","parentId":"bbbbbbbb","timestamp":"2026-03-15T10:00:00.000Z","z":{"a":[]}}`)}},
		`{"type":"future","id":"bbbbbbbc","parentId":"bbbbbbbb","timestamp":"2026-03-15T10:00:00.000Z","z":{"a":[]}}`},
}

func TestEntryRoundTripExactBytes(t *testing.T) {
	for _, tt := range entryCases {
		t.Run(tt.name, func(t *testing.T) {
			got, err := appendEntry(nil, &tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Fatalf("encode\n got %s\nwant %s", got, tt.want)
			}
			var d decoder
			back, err := d.entry([]byte(tt.want))
			if err != nil || d.soft != nil {
				t.Fatalf("decode: %v %v", err, d.soft)
			}
			if back.Type != tt.e.Type || back.ID != tt.e.ID || back.Timestamp != tt.e.Timestamp ||
				!reflect.DeepEqual(back.ParentID, tt.e.ParentID) {
				t.Errorf("decoded envelope %+v, want %+v", back, tt.e)
			}
			if reflect.TypeOf(back.Payload) != reflect.TypeOf(tt.e.Payload) {
				t.Fatalf("decoded payload %T, want %T", back.Payload, tt.e.Payload)
			}
			again, err := appendEntry(nil, &back)
			if err != nil {
				t.Fatal(err)
			}
			if string(again) != tt.want {
				t.Errorf("re-encode\n got %s\nwant %s", again, tt.want)
			}
			// Through encoding/json (which escapes HTML) the value is the same.
			viaJSON, err := json.Marshal(tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(jsonValue(t, viaJSON), jsonValue(t, []byte(tt.want))) {
				t.Errorf("json.Marshal = %s", viaJSON)
			}
			var viaUnmarshal Entry
			if err := json.Unmarshal([]byte(tt.want), &viaUnmarshal); err != nil {
				t.Fatal(err)
			}
			if viaUnmarshal.ID != tt.e.ID || viaUnmarshal.Payload.EntryType() != tt.e.Type {
				t.Errorf("json.Unmarshal = %+v", viaUnmarshal)
			}
		})
	}
}

func TestEncodeRejectsBrokenEntries(t *testing.T) {
	for _, e := range []Entry{
		{Type: TypeMessage, ID: "x"},
		{Type: TypeModelChange, ID: "x", Payload: &LabelEntry{}},
		{Type: TypeCustom, ID: "x", Payload: &CustomEntry{Data: json.RawMessage(`{"a":`)}},
		{Type: TypeMessage, ID: "x", Payload: &MessageEntry{&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, Arguments: json.RawMessage(`{bad}`)}}}}},
		{Type: "future", ID: "x", Payload: &UnknownEntry{Type: "future", Raw: json.RawMessage(`{"type":"future"`)}},
	} {
		if b, err := appendEntry(nil, &e); err == nil {
			t.Errorf("%+v encoded as %s", e, b)
		}
	}
}

// TestDecodeMatchesCore decodes every message pi produced in the
// conformance transcripts with this package's decoder and with
// core.DecodeAgentMessage: both must agree.
func TestDecodeMatchesCore(t *testing.T) {
	msgs := conformanceMessages(t)
	if len(msgs) < 20 {
		t.Fatalf("only %d messages found in the conformance transcripts", len(msgs))
	}
	roles := map[core.Role]bool{}
	for _, raw := range msgs {
		ours, err := decodeMessage(raw)
		if err != nil {
			t.Fatalf("decodeMessage(%s): %v", raw, err)
		}
		theirs, err := core.DecodeAgentMessage(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ours, theirs) {
			t.Errorf("decoders disagree on %s\n ours %+v\ncore %+v", raw, ours, theirs)
		}
		roles[ours.MessageRole()] = true
		b, err := appendMessage(nil, ours)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(jsonValue(t, b), jsonValue(t, raw)) {
			t.Errorf("re-encoded\n got %s\nwant %s", b, raw)
		}
	}
	if !roles[core.RoleBashExecution] || !roles[core.RoleToolResult] {
		t.Errorf("roles seen: %v", roles)
	}
}

func TestDecodeEdgeCases(t *testing.T) {
	// Shapes encoding/json accepts for core's types: null fields, escaped
	// keys, unknown keys, surrogate pairs, invalid UTF-8.
	for _, in := range []string{
		`{"role":"user","content":null,"timestamp":null}`,
		`{"role":"user","content":"plain string","extra":{"a":[1,2,3]}}`,
		`{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"b"}],"usage":null,"stopReason":null}`,
		`{"role":"assistant","content":[{"type":"text","text":"\ud83d\ude00 \ud800 x \u00e9\n\/"}],"api":"x"}`,
		"{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"bad \xff utf8\"}]}",
		`{"role":"toolResult","toolCallId":"c","content":[],"details":null,"isError":null}`,
		`{"role":"user","timestamp":1.5e3}`,
		`{"role":"bashExecution","command":"x","exitCode":null,"cancelled":true}`,
		`{"role":"custom","customType":"t","content":"as a string","display":true,"details":null}`,
		`{"role":"compactionSummary","summary":"s","tokensBefore":5}`,
		`{"role":"branchSummary","summary":"s","fromId":"root","timestamp":9}`,
		`{"role":"somethingNew","a":[1, 2]}`,
	} {
		ours, err := decodeMessage([]byte(in))
		if err != nil {
			t.Errorf("decodeMessage(%s): %v", in, err)
			continue
		}
		theirs, err := core.DecodeAgentMessage([]byte(in))
		if err != nil {
			// encoding/json refuses a float for an int; we accept it.
			continue
		}
		if !reflect.DeepEqual(ours, theirs) {
			t.Errorf("decoders disagree on %s\n ours %#v\ncore %#v", in, ours, theirs)
		}
	}
	// A known role with a wrong shape is kept as raw JSON, not lost.
	m, err := decodeMessage([]byte(`{"role":"user","content":42}`))
	if u, ok := m.(*core.RawMessage); err != nil || !ok || u.Role != core.RoleUser {
		t.Errorf("wrong-shaped user message: %#v, %v", m, err)
	}
	if _, err := decodeMessage([]byte(`{"role":"user"`)); err == nil {
		t.Error("truncated JSON decoded")
	}
}
