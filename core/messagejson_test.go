package core_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// storedText is a core.StoredText held in memory, or failing with err.
type storedText struct {
	text  string
	err   error
	loads int
}

func (s *storedText) Load() (string, error) { s.loads++; return s.text, s.err }
func (s *storedText) Len() int              { return len(s.text) }

// wholeArray is msgs encoded the way the front ends encoded them before
// MessagesJSON: the slice at once, HTML escaping off.
func wholeArray(t *testing.T, msgs []core.Message) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(msgs); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func sampleMessages(stored core.StoredText) []core.Message {
	return []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("a <b> & \u2028 \"c\"")}, Timestamp: 1},
		&core.AssistantMessage{Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "hmm", ThinkingSignature: "sig"},
			{Type: core.ContentToolCall, ID: "1", Name: "bash", Arguments: json.RawMessage(`{"command": "ls <x>"}`)},
		}, Provider: "p", Model: "m", StopReason: core.StopToolUse, Timestamp: 2},
		&core.ToolResultMessage{ToolCallID: "1", ToolName: "bash", Content: []core.Content{
			core.TextBlock("head"), {Type: core.ContentText, Stored: stored},
		}, Details: json.RawMessage(`{"exit": 0}`), Timestamp: 3},
		&core.BashExecutionMessage{Command: "ls", Output: "x\n", Timestamp: 4},
		&core.CustomMessage{CustomType: "note", Content: []core.Content{core.TextBlock("custom")}, Display: true, Timestamp: 5},
		&core.RawMessage{Role: "future", JSON: json.RawMessage(`{"role":"future",  "x": [1, 2]}`)},
		nil,
	}
}

func TestMessagesJSONWritesWhatTheWholeEncodingWrites(t *testing.T) {
	for _, msgs := range [][]core.Message{nil, {}, sampleMessages(&storedText{text: "stored <out>\nput"})} {
		var b bytes.Buffer
		n, err := core.MessagesJSON(msgs).WriteTo(&b)
		if err != nil {
			t.Fatal(err)
		}
		want := wholeArray(t, msgs)
		if msgs == nil {
			want = "[]"
		}
		if b.String() != want || n != int64(b.Len()) {
			t.Errorf("got %d bytes %s\nwant %s", n, b.String(), want)
		}
	}
}

func TestMessagesJSONReadsStoredTextsOnlyWhenWriting(t *testing.T) {
	s := &storedText{text: "big"}
	msgs := core.MessagesJSON(sampleMessages(s))
	if err := msgs.Check(); err != nil {
		t.Fatal(err)
	}
	if s.loads != 0 {
		t.Errorf("Check read the stored text %d times", s.loads)
	}
	if _, err := msgs.WriteTo(&bytes.Buffer{}); err != nil || s.loads != 1 {
		t.Errorf("WriteTo read the stored text %d times (err %v), want once", s.loads, err)
	}
}

func TestMessagesJSONUnreadableTextIsANote(t *testing.T) {
	msgs := sampleMessages(&storedText{err: errors.New("file cut short")})
	var b bytes.Buffer
	if _, err := core.MessagesJSON(msgs).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if !json.Valid(b.Bytes()) || !strings.Contains(b.String(), `"text":"[cairn could not read this output back from the session file: file cut short]"`) {
		t.Errorf("got %s", b.String())
	}
}

func TestMessagesJSONMessageThatCannotBeEncoded(t *testing.T) {
	bad := &core.UserMessage{Content: []core.Content{{Type: "video"}}}
	msgs := core.MessagesJSON{&core.UserMessage{Content: []core.Content{core.TextBlock("ok")}}, bad, &core.UserMessage{}}
	if err := msgs.Check(); err == nil || !strings.Contains(err.Error(), `message 1: `) || !strings.Contains(err.Error(), `"video"`) {
		t.Errorf("Check: %v", err)
	}
	var b bytes.Buffer
	_, err := msgs.WriteTo(&b)
	if err == nil || !strings.Contains(err.Error(), "message 1: ") {
		t.Errorf("WriteTo: %v", err)
	}
	// What was written stays valid: the array is closed before the message.
	if want := `[{"role":"user","content":[{"type":"text","text":"ok"}],"timestamp":0}]`; b.String() != want {
		t.Errorf("got %s, want %s", b.String(), want)
	}
}

// failAfter fails every write once n bytes have been written.
type failAfter struct{ n int }

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		w := f.n
		f.n = 0
		return w, errors.New("pipe closed")
	}
	f.n -= len(p)
	return len(p), nil
}

func TestMessagesJSONStopsAtAWriteError(t *testing.T) {
	n, err := core.MessagesJSON(sampleMessages(&storedText{text: "x"})).WriteTo(&failAfter{n: 40})
	if err == nil || err.Error() != "pipe closed" || n != 40 {
		t.Errorf("got %d, %v; want 40, pipe closed", n, err)
	}
}

func FuzzMessagesJSON(f *testing.F) {
	f.Add("plain", "stored", []byte(`{"a":1}`))
	f.Add("<&>\u2028\x00\xff", "\"\\\n", []byte(`null`))
	f.Add("", "", []byte(`{"command": "x" }`))
	f.Fuzz(func(t *testing.T, text, stored string, args []byte) {
		if !json.Valid(args) {
			args = []byte(`{}`)
		}
		msgs := []core.Message{
			&core.UserMessage{Content: []core.Content{core.TextBlock(text)}},
			&core.AssistantMessage{Content: []core.Content{core.TextBlock(stored), {Type: core.ContentToolCall, ID: text, Name: "n", Arguments: args}}},
			&core.ToolResultMessage{ToolName: text, Content: []core.Content{{Type: core.ContentText, Stored: &storedText{text: stored}}}},
		}
		var b bytes.Buffer
		if _, err := core.MessagesJSON(msgs).WriteTo(&b); err != nil {
			if core.MessagesJSON(msgs).Check() == nil {
				t.Fatalf("WriteTo failed (%v) where Check passed", err)
			}
			if !json.Valid(b.Bytes()) {
				t.Fatalf("not valid JSON after an error: %q", b.String())
			}
			return
		}
		if got, want := b.String(), wholeArray(t, msgs); got != want {
			t.Fatalf("got %q\nwant %q", got, want)
		}
	})
}

// toolResultViaMarshal is how ToolResultMessage.MarshalJSON wrote a
// message before it was written by hand: json.Marshal of its fields,
// role first.
func toolResultViaMarshal(m core.ToolResultMessage) ([]byte, error) {
	type plain core.ToolResultMessage
	p := plain(m)
	if p.Content == nil {
		p.Content = []core.Content{}
	}
	body, err := json.Marshal(&p)
	if err != nil {
		return nil, err
	}
	return append([]byte(`{"role":"toolResult",`), body[1:]...), nil
}

func checkToolResultBytes(t *testing.T, m core.ToolResultMessage) {
	t.Helper()
	want, wantErr := toolResultViaMarshal(m)
	got, err := m.MarshalJSON()
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, want %v", err, wantErr)
	}
	if string(got) != string(want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestToolResultMarshalJSONIsWhatJSONMarshalWrote(t *testing.T) {
	for _, m := range []core.ToolResultMessage{
		{},
		{ToolCallID: "a<b>", ToolName: "bash&", Content: []core.Content{core.TextBlock("x <y> & \u2028 \u2029 \x00 \xff \"q\"")}, IsError: true, Timestamp: -5},
		{Content: []core.Content{{Type: core.ContentText, Text: "t", TextSignature: "<sig>"}, core.ImageBlock("AAAA", "image/png")}, Details: json.RawMessage(` { "diff" : "<a>" } `)},
		{Content: []core.Content{{Type: core.ContentText, Stored: &storedText{text: "stored <x>"}}}, Details: json.RawMessage(`null`)},
		{Content: []core.Content{{Type: "video"}}},
		{Details: json.RawMessage(`{bad`)},
	} {
		checkToolResultBytes(t, m)
	}
}

func FuzzToolResultMarshalJSON(f *testing.F) {
	f.Add("id", "bash", "out <&>", "", []byte(`{"a": [1, 2]}`), false)
	f.Add("\u2028", "\xff", "\x00\x1f\u2029", "sig", []byte(``), true)
	f.Fuzz(func(t *testing.T, id, name, text, sig string, details []byte, isError bool) {
		m := core.ToolResultMessage{ToolCallID: id, ToolName: name, Details: details, IsError: isError, Timestamp: int64(len(text)),
			Content: []core.Content{{Type: core.ContentText, Text: text, TextSignature: sig}, {Type: core.ContentText, Stored: &storedText{text: text + sig}}}}
		checkToolResultBytes(t, m)
	})
}
