package core_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core"
)

func TestContentMarshalJSONExactBytes(t *testing.T) {
	tests := []struct {
		name string
		in   core.Content
		want string
	}{
		{"empty text keeps text", core.TextBlock(""), `{"type":"text","text":""}`},
		{"text", core.TextBlock("hi <b> & \"you\"\n"), `{"type":"text","text":"hi <b> & \"you\"\n"}`},
		{"text with signature", core.Content{Type: core.ContentText, Text: "a", TextSignature: "msg_1"}, `{"type":"text","text":"a","textSignature":"msg_1"}`},
		{"empty thinking", core.Content{Type: core.ContentThinking}, `{"type":"thinking","thinking":""}`},
		{"thinking signed and redacted", core.Content{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: "sig==", Redacted: true}, `{"type":"thinking","thinking":"hmm","thinkingSignature":"sig==","redacted":true}`},
		{"image", core.ImageBlock("iVBORw0K", "image/png"), `{"type":"image","data":"iVBORw0K","mimeType":"image/png"}`},
		{"empty image", core.Content{Type: core.ContentImage}, `{"type":"image","data":"","mimeType":""}`},
		{"tool call nil args", core.Content{Type: core.ContentToolCall, ID: "call_1", Name: "read"}, `{"type":"toolCall","id":"call_1","name":"read","arguments":{}}`},
		{"tool call empty args", core.Content{Type: core.ContentToolCall, ID: "c", Name: "n", Arguments: json.RawMessage{}}, `{"type":"toolCall","id":"c","name":"n","arguments":{}}`},
		{"tool call args and thought signature", core.Content{Type: core.ContentToolCall, ID: "c2", Name: "bash", Arguments: json.RawMessage(`{"z":1,"a":"x"}`), ThoughtSignature: "ts"}, `{"type":"toolCall","id":"c2","name":"bash","arguments":{"z":1,"a":"x"},"thoughtSignature":"ts"}`},
		// Fields of other block types never leak into a block's JSON.
		{"text ignores foreign fields", core.Content{Type: core.ContentText, Text: "t", Thinking: "x", Data: "d", ID: "i", Redacted: true}, `{"type":"text","text":"t"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.in.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("MarshalJSON\n got %s\nwant %s", got, tt.want)
			}
			if !json.Valid(got) {
				t.Errorf("MarshalJSON produced invalid JSON %s", got)
			}
			// Through encoding/json (which HTML-escapes) the value must be
			// the same even if the bytes differ.
			viaJSON, err := json.Marshal(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var a, b any
			if err := json.Unmarshal(viaJSON, &a); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(got, &b); err != nil {
				t.Fatal(err)
			}
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if !bytes.Equal(ja, jb) {
				t.Errorf("json.Marshal %s differs in value from MarshalJSON %s", viaJSON, got)
			}
		})
	}
}

func TestContentRoundTrip(t *testing.T) {
	blocks := []core.Content{
		core.TextBlock(""),
		core.TextBlock("héllo\u2028wörld\t\"q\""),
		{Type: core.ContentText, Text: "a", TextSignature: "s"},
		{Type: core.ContentThinking, Thinking: "why", ThinkingSignature: "sig"},
		{Type: core.ContentThinking, Redacted: true, ThinkingSignature: "opaque"},
		core.ImageBlock("AAAA", "image/jpeg"),
		{Type: core.ContentToolCall, ID: "toolu_1", Name: "edit", Arguments: json.RawMessage(`{"path":"a.go","edits":[{"old":"x","new":"y"}]}`), ThoughtSignature: "g"},
	}
	for _, want := range blocks {
		data, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var got core.Content
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("unmarshal %s: %v", data, err)
		}
		again, err := json.Marshal(got)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(data, again) {
			t.Errorf("round trip changed the block:\n first %s\nsecond %s", data, again)
		}
		if got.Type != want.Type || got.Text != want.Text || got.Thinking != want.Thinking ||
			got.ThinkingSignature != want.ThinkingSignature || got.Redacted != want.Redacted ||
			got.ID != want.ID || got.Name != want.Name || got.Data != want.Data || got.MimeType != want.MimeType ||
			got.TextSignature != want.TextSignature || got.ThoughtSignature != want.ThoughtSignature {
			t.Errorf("round trip: got %+v, want %+v", got, want)
		}
	}
}

func TestContentToolCallMissingArgumentsDecodeAsEmptyObject(t *testing.T) {
	for _, in := range []string{
		`{"type":"toolCall","id":"a","name":"b"}`,
		`{"type":"toolCall","id":"a","name":"b","arguments":null}`,
	} {
		var c core.Content
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if string(c.Arguments) != `{}` {
			t.Errorf("%s: arguments = %q, want {}", in, c.Arguments)
		}
	}
}

func TestContentUnknownType(t *testing.T) {
	if _, err := (core.Content{Type: "audio"}).MarshalJSON(); err == nil || !strings.Contains(err.Error(), `"audio"`) {
		t.Errorf("MarshalJSON of unknown type: err = %v, want one naming \"audio\"", err)
	}
	if _, err := json.Marshal(core.Content{}); err == nil {
		t.Error("json.Marshal of a block with no type succeeded")
	}
	var c core.Content
	if err := json.Unmarshal([]byte(`{"type":"audio","data":"x"}`), &c); err == nil || !strings.Contains(err.Error(), `"audio"`) {
		t.Errorf("UnmarshalJSON of unknown type: err = %v, want one naming \"audio\"", err)
	}
	if err := json.Unmarshal([]byte(`{"type":`), &c); err == nil {
		t.Error("UnmarshalJSON of truncated JSON succeeded")
	}
}

func TestUserMessageJSON(t *testing.T) {
	t.Run("string content", func(t *testing.T) {
		var m core.UserMessage
		if err := json.Unmarshal([]byte(`{"role":"user","content":"hello\nthere","timestamp":42}`), &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Content) != 1 || m.Content[0].Type != core.ContentText || m.Content[0].Text != "hello\nthere" || m.Timestamp != 42 {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("empty string content", func(t *testing.T) {
		var m core.UserMessage
		if err := json.Unmarshal([]byte(`{"role":"user","content":""}`), &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Content) != 1 || m.Content[0].Text != "" {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("block content", func(t *testing.T) {
		var m core.UserMessage
		in := `{"role":"user","content":[{"type":"text","text":"look"},{"type":"image","data":"QQ==","mimeType":"image/png"}],"timestamp":1}`
		if err := json.Unmarshal([]byte(in), &m); err != nil {
			t.Fatal(err)
		}
		if len(m.Content) != 2 || m.Content[1].Type != core.ContentImage || m.Content[1].MimeType != "image/png" {
			t.Errorf("got %+v", m)
		}
		out, err := json.Marshal(&m)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != in {
			t.Errorf("re-encoded\n got %s\nwant %s", out, in)
		}
	})
	t.Run("null content resets", func(t *testing.T) {
		m := core.UserMessage{Content: []core.Content{core.TextBlock("stale")}}
		if err := json.Unmarshal([]byte(`{"role":"user","content":null}`), &m); err != nil {
			t.Fatal(err)
		}
		if m.Content != nil {
			t.Errorf("content = %+v, want nil", m.Content)
		}
	})
	t.Run("nil content encodes as array", func(t *testing.T) {
		out, err := json.Marshal(&core.UserMessage{Timestamp: 7})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"role":"user","content":[],"timestamp":7}`; string(out) != want {
			t.Errorf("got %s, want %s", out, want)
		}
	})
	t.Run("bad content", func(t *testing.T) {
		var m core.UserMessage
		if err := json.Unmarshal([]byte(`{"role":"user","content":[{"type":"video"}]}`), &m); err == nil {
			t.Error("unknown block type accepted")
		}
		if err := json.Unmarshal([]byte(`{"role":"user","content":42}`), &m); err == nil {
			t.Error("numeric content accepted")
		}
	})
}

func TestAssistantMessageJSON(t *testing.T) {
	m := &core.AssistantMessage{
		Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "t", ThinkingSignature: "s"},
			core.TextBlock("a"),
			{Type: core.ContentToolCall, ID: "c1", Name: "read", Arguments: json.RawMessage(`{"path":"x"}`)},
		},
		API:        "anthropic-messages",
		Provider:   "anthropic",
		Model:      "claude",
		Usage:      core.Usage{Input: 1, Output: 2, TotalTokens: 3},
		StopReason: core.StopToolUse,
		Timestamp:  99,
		ResponseID: "msg_1",
		// pi 0.87's key: the provider's own reason, after responseId.
		RawStopReason: "tool_use",
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, []byte(`{"role":"assistant","content":[`)) {
		t.Errorf("JSON does not start with the role: %s", out)
	}
	if bytes.Contains(out, []byte("errorMessage")) {
		t.Errorf("empty errorMessage was written: %s", out)
	}
	for _, key := range []string{`"api":"anthropic-messages"`, `"provider":"anthropic"`, `"model":"claude"`, `"stopReason":"toolUse"`, `"totalTokens":3`, `"timestamp":99,"responseId":"msg_1","rawStopReason":"tool_use"}`} {
		if !bytes.Contains(out, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, out)
		}
	}
	got, err := core.DecodeMessage(out)
	if err != nil {
		t.Fatal(err)
	}
	am, ok := got.(*core.AssistantMessage)
	if !ok {
		t.Fatalf("decoded %T", got)
	}
	again, _ := json.Marshal(am)
	if !bytes.Equal(out, again) {
		t.Errorf("round trip changed the message:\n first %s\nsecond %s", out, again)
	}

	empty, err := json.Marshal(&core.AssistantMessage{StopReason: core.StopError, ErrorMessage: "boom"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(empty, []byte(`{"role":"assistant","content":[],`)) || !bytes.Contains(empty, []byte(`"errorMessage":"boom"`)) {
		t.Errorf("empty message: %s", empty)
	}
}

func TestAssistantMessageTextAndToolCalls(t *testing.T) {
	m := &core.AssistantMessage{Content: []core.Content{
		core.TextBlock("one "),
		{Type: core.ContentToolCall, ID: "a"},
		{Type: core.ContentThinking, Thinking: "not text"},
		core.TextBlock("two"),
		{Type: core.ContentToolCall, ID: "b"},
	}}
	if got := m.Text(); got != "one two" {
		t.Errorf("Text() = %q", got)
	}
	calls := m.ToolCalls()
	if len(calls) != 2 || calls[0].ID != "a" || calls[1].ID != "b" {
		t.Errorf("ToolCalls() = %+v", calls)
	}
	if got := (&core.AssistantMessage{}).Text(); got != "" {
		t.Errorf("empty Text() = %q", got)
	}
	single := &core.AssistantMessage{Content: []core.Content{core.TextBlock("only")}}
	if got := single.Text(); got != "only" {
		t.Errorf("single Text() = %q", got)
	}
}

func TestToolResultMessageJSON(t *testing.T) {
	m := &core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", Content: []core.Content{core.TextBlock("out"), core.TextBlock("put")}, IsError: true, Timestamp: 5}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"out"},{"type":"text","text":"put"}],"isError":true,"timestamp":5}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
	if m.Text() != "output" {
		t.Errorf("Text() = %q", m.Text())
	}
	nilContent, _ := json.Marshal(&core.ToolResultMessage{ToolCallID: "x", Details: json.RawMessage(`{"exit":1}`)})
	if !bytes.Contains(nilContent, []byte(`"content":[]`)) || !bytes.Contains(nilContent, []byte(`"details":{"exit":1}`)) {
		t.Errorf("got %s", nilContent)
	}
}

func TestDecodeMessage(t *testing.T) {
	tests := []struct {
		in    string
		role  core.Role
		check func(t *testing.T, m core.Message)
	}{
		{`{"role":"user","content":"hi","timestamp":3}`, core.RoleUser, func(t *testing.T, m core.Message) {
			u := m.(*core.UserMessage)
			if len(u.Content) != 1 || u.Content[0].Text != "hi" || u.Timestamp != 3 {
				t.Errorf("got %+v", u)
			}
		}},
		{`{"role":"assistant","content":[{"type":"text","text":"yo"}],"api":"x","provider":"p","model":"m","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":1}`, core.RoleAssistant, func(t *testing.T, m core.Message) {
			a := m.(*core.AssistantMessage)
			if a.Text() != "yo" || a.StopReason != core.StopEnd || a.Usage.Output != 2 || a.Model != "m" {
				t.Errorf("got %+v", a)
			}
		}},
		{`{"role":"toolResult","toolCallId":"c","toolName":"read","content":[{"type":"text","text":"file"}],"isError":false,"timestamp":2}`, core.RoleToolResult, func(t *testing.T, m core.Message) {
			r := m.(*core.ToolResultMessage)
			if r.ToolCallID != "c" || r.ToolName != "read" || r.Text() != "file" {
				t.Errorf("got %+v", r)
			}
		}},
	}
	for _, tt := range tests {
		m, err := core.DecodeMessage([]byte(tt.in))
		if err != nil {
			t.Fatalf("%s: %v", tt.in, err)
		}
		if m.MessageRole() != tt.role {
			t.Errorf("%s: role %q", tt.in, m.MessageRole())
		}
		tt.check(t, m)
	}

	for _, bad := range []string{
		`{"role":"system","content":"x"}`,
		`{"content":"x"}`,
		`{"role":"bashExecution"}`,
		`not json`,
		`{"role":"assistant","content":[{"type":"hologram"}]}`,
	} {
		if m, err := core.DecodeMessage([]byte(bad)); err == nil {
			t.Errorf("%s: decoded %T, want an error", bad, m)
		}
	}
	if _, err := core.DecodeMessage([]byte(`{"role":"system"}`)); err == nil || !strings.Contains(err.Error(), `"system"`) {
		t.Errorf("unknown role error %v does not name the role", err)
	}
}

// jsonStringCases are strings that exercise every escaping path.
var jsonStringCases = []string{
	"",
	"plain ascii",
	`"quoted" and \backslashed\`,
	"\x00\x01\x02\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f\x7f",
	"tab\there\nnewline\r\nCRLF",
	"<script>&amp;</script>",
	"héllo wörld ✓ 日本語 🎉",
	"\u2028line sep\u2029para sep",
	"\xff",
	"bad \xc3\x28 utf8 \xe2\x82 truncated \xf0\x9f\x98",
	"\xed\xa0\x80 surrogate half",
	"\xc0\xaf overlong",
	"\uFFFD literal replacement",
	"\U0010FFFF max rune",
	strings.Repeat("a\"b\\c\n", 100),
	"end with escape\n",
	"\"",
	"\\",
}

// stdEncode is encoding/json's encoding of s without HTML escaping.
func stdEncode(t testing.TB, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// sanitized is s with each invalid UTF-8 byte replaced by U+FFFD, which is
// what encoding/json and AppendJSONString both promise.
func sanitized(s string) string { return string([]rune(s)) }

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonStringCases {
		got := core.AppendJSONString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Errorf("%q: output %s is not valid JSON: %v", s, got, err)
			continue
		}
		if back != sanitized(s) {
			t.Errorf("%q: decodes to %q, want %q", s, back, sanitized(s))
		}
		// encoding/json writes \b and \f in short form since Go 1.22; both
		// spellings are valid JSON, so only compare bytes without them.
		if !strings.ContainsAny(s, "\b\f") {
			if want := stdEncode(t, s); !bytes.Equal(got, want) {
				t.Errorf("%q:\n got %s\nwant %s (encoding/json)", s, got, want)
			}
		}
	}
}

func TestAppendJSONStringSpecificEscapes(t *testing.T) {
	tests := map[string]string{
		"\x00":     `"\u0000"`,
		"\x1f":     `"\u001f"`,
		"\b\f":     `"\u0008\u000c"`,
		"\u2028":   `"\u2028"`,
		"\u2029":   `"\u2029"`,
		"\xff":     `"\ufffd"`,
		"<>&":      `"<>&"`,
		"\x7f":     "\"\x7f\"",
		"a\"b":     `"a\"b"`,
		"\r\n\t\\": `"\r\n\t\\"`,
	}
	for in, want := range tests {
		if got := string(core.AppendJSONString(nil, in)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

func TestAppendJSONStringAppendsToPrefix(t *testing.T) {
	dst := []byte(`{"k":`)
	got := core.AppendJSONString(dst, "v\n")
	if string(got) != `{"k":"v\n"` {
		t.Errorf("got %s", got)
	}
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		_ = core.AppendJSONString(buf[:0], "some \"text\" with\nescapes and ünïcode \u2028 \xff")
	})
	if allocs != 0 {
		t.Errorf("AppendJSONString into a large enough buffer allocated %v times", allocs)
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range jsonStringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prefix := []byte("[")
		out := core.AppendJSONString(prefix, s)
		if out[0] != '[' {
			t.Fatal("prefix overwritten")
		}
		lit := out[1:]
		if !json.Valid(lit) {
			t.Fatalf("%q: invalid JSON %s", s, lit)
		}
		if !utf8.Valid(lit) {
			t.Fatalf("%q: output is not valid UTF-8: %q", s, lit)
		}
		var back string
		if err := json.Unmarshal(lit, &back); err != nil {
			t.Fatal(err)
		}
		if want := sanitized(s); back != want {
			t.Fatalf("%q: decodes to %q, want %q", s, back, want)
		}
		// Nothing JSON or JavaScript would choke on may appear raw.
		for _, r := range string(lit) {
			if r < 0x20 || r == '\u2028' || r == '\u2029' {
				t.Fatalf("%q: raw %U in output %q", s, r, lit)
			}
		}
	})
}

func BenchmarkAppendJSONString(b *testing.B) {
	inputs := map[string]string{
		"ascii":   strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100),
		"escapes": strings.Repeat("line \"one\"\n\ttab\\slash\x01 ", 100),
		"unicode": strings.Repeat("héllo wörld ✓ 日本語 🎉 \u2028 ", 100),
	}
	for name, s := range inputs {
		b.Run(name, func(b *testing.B) {
			buf := make([]byte, 0, 4*len(s))
			b.SetBytes(int64(len(s)))
			b.ReportAllocs()
			for b.Loop() {
				buf = core.AppendJSONString(buf[:0], s)
			}
		})
	}
}

func TestUsagePriced(t *testing.T) {
	u := core.Usage{Input: 1_000_000, Output: 500_000, CacheRead: 200_000, CacheWrite: 100_000, TotalTokens: 7}
	p := core.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	got := u.Priced(p)
	if got.TotalTokens != 1_800_000 {
		t.Errorf("TotalTokens = %d, want 1800000", got.TotalTokens)
	}
	want := core.Cost{Input: 3, Output: 7.5, CacheRead: 0.06, CacheWrite: 0.375, Total: 10.935}
	near := func(name string, a, b float64) {
		if math.Abs(a-b) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, a, b)
		}
	}
	near("Cost.Input", got.Cost.Input, want.Input)
	near("Cost.Output", got.Cost.Output, want.Output)
	near("Cost.CacheRead", got.Cost.CacheRead, want.CacheRead)
	near("Cost.CacheWrite", got.Cost.CacheWrite, want.CacheWrite)
	near("Cost.Total", got.Cost.Total, want.Total)
	if got.Input != u.Input || got.Output != u.Output || got.CacheRead != u.CacheRead || got.CacheWrite != u.CacheWrite {
		t.Errorf("token counts changed: %+v", got)
	}
	if u.TotalTokens != 7 {
		t.Error("Priced modified its receiver")
	}

	free := core.Usage{Input: 10, Output: 5}.Priced(core.Price{})
	if free.Cost != (core.Cost{}) || free.TotalTokens != 15 {
		t.Errorf("free model: %+v", free)
	}

	small := core.Usage{Input: 1234, Output: 56}.Priced(core.Price{Input: 0.15, Output: 0.6})
	near("small Total", small.Cost.Total, (1234*0.15+56*0.6)/1e6)
}

func TestUsageAdd(t *testing.T) {
	p := core.Price{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4}
	a := core.Usage{Input: 10, Output: 20, CacheRead: 30, CacheWrite: 40}.Priced(p)
	b := core.Usage{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4}.Priced(p)
	sum := a.Add(b)
	want := core.Usage{Input: 11, Output: 22, CacheRead: 33, CacheWrite: 44}.Priced(p)
	if sum.Input != want.Input || sum.Output != want.Output || sum.CacheRead != want.CacheRead ||
		sum.CacheWrite != want.CacheWrite || sum.TotalTokens != want.TotalTokens {
		t.Errorf("Add tokens = %+v, want %+v", sum, want)
	}
	if math.Abs(sum.Cost.Total-want.Cost.Total) > 1e-12 || math.Abs(sum.Cost.CacheWrite-want.Cost.CacheWrite) > 1e-12 {
		t.Errorf("Add cost = %+v, want %+v", sum.Cost, want.Cost)
	}
}

func TestUsageJSONKeys(t *testing.T) {
	out, err := json.Marshal(core.Usage{Input: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"input":1,"output":0,"cacheRead":0,"cacheWrite":0,"totalTokens":0,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}`
	if string(out) != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}

// A message stored by value (a struct field, a slice element of a map value)
// must encode the same as through a pointer, or the role is silently lost.
func TestMessagesMarshalSameByValue(t *testing.T) {
	user := core.UserMessage{Content: []core.Content{core.TextBlock("hi")}, Timestamp: 1}
	asst := core.AssistantMessage{Content: []core.Content{core.TextBlock("yo")}, StopReason: core.StopEnd}
	tool := core.ToolResultMessage{ToolCallID: "c", Content: []core.Content{core.TextBlock("r")}}
	for _, tc := range []struct {
		name       string
		ptr, value any
	}{
		{"user", &user, user},
		{"assistant", &asst, asst},
		{"toolResult", &tool, tool},
	} {
		p, err := json.Marshal(tc.ptr)
		if err != nil {
			t.Fatal(err)
		}
		v, err := json.Marshal(tc.value)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(p, v) {
			t.Errorf("%s: by value encodes as\n%s\nbut by pointer as\n%s", tc.name, v, p)
		}
		type holder struct{ M any }
		h, _ := json.Marshal(holder{tc.value})
		if !bytes.Contains(h, []byte(`"role":"`+tc.name+`"`)) {
			t.Errorf("%s: struct field by value lost its role: %s", tc.name, h)
		}
	}
}

func TestSupportsXHigh(t *testing.T) {
	for id, want := range map[string]bool{
		"gpt-5.2": true, "gpt-5.4-mini": true, "openai/gpt-5.10": true, "gpt-5.1-codex-max": true,
		"claude-opus-4-6": true, "anthropic/claude-opus-4.6": true,
		"gpt-5.1": false, "gpt-5": false, "gpt-5-mini": false, "gpt-4o": false, "claude-opus-4-5": false, "gpt-5.x": false,
	} {
		if got := core.SupportsXHigh(id); got != want {
			t.Errorf("SupportsXHigh(%q) = %v, want %v", id, got, want)
		}
	}
}

func TestPlainText(t *testing.T) {
	blocks := []core.Content{core.TextBlock("one"), {Type: core.ContentImage, MimeType: "image/png"}, {Type: core.ContentThinking, Thinking: "hidden"}, core.TextBlock("two")}
	if got, want := core.PlainText(blocks), "one\n[image image/png]\ntwo"; got != want {
		t.Errorf("PlainText = %q, want %q", got, want)
	}
	if core.PlainText(nil) != "" {
		t.Error("no blocks, some text")
	}
}

// Shown hides a model's credentials from display and leaves the model used
// for requests as it was.
func TestModelShownKeepsTheOriginal(t *testing.T) {
	m := core.Model{BaseURL: "https://u:p4ssword-long@h/v1", Headers: map[string]string{"X-Api-Key": "hdr-secret-123456"}}
	shown := m.Shown()
	if shown.BaseURL != "https://h/v1" || shown.Headers["X-Api-Key"] != "[redacted]" {
		t.Fatalf("shown %+v", shown)
	}
	if m.BaseURL != "https://u:p4ssword-long@h/v1" || m.Headers["X-Api-Key"] != "hdr-secret-123456" {
		t.Fatalf("the original changed: %+v", m)
	}
}
