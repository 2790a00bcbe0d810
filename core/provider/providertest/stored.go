package providertest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/session"
)

// StoredHistory writes msgs to a session file and reads them back, so the
// large tool results come back held in the file (core.Content.Stored), as
// a long session holds them. It returns those messages, the same messages
// with every stored text read back into memory (what a request replayed
// before texts were read while it is written), and the file's path.
func StoredHistory(t testing.TB, msgs []core.Message) (stored, loaded []core.Message, path string) {
	t.Helper()
	f := session.Store{Dir: t.TempDir()}.Create("/work")
	for _, m := range msgs {
		if _, err := f.AppendMessage(m); err != nil {
			t.Fatal(err)
		}
	}
	path = f.FilePath()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := session.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	stored = g.Context().Messages
	held := 0
	for _, m := range stored {
		if tr, ok := m.(*core.ToolResultMessage); ok {
			if core.HasStored(tr.Content) {
				held++
			}
			cp := *tr
			cp.Content = core.LoadedContent(tr.Content)
			m = &cp
		}
		loaded = append(loaded, m)
	}
	if held == 0 {
		t.Fatal("providertest: no tool result of the history is held in the session file")
	}
	return stored, loaded, path
}

// CutShort truncates the session file at path to half its size, so the
// texts held in its second half can no longer be read.
func CutShort(t testing.TB, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, fi.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// LargeResults is Conversation with the tool results a long session has:
// every other one large enough to be held in the session file, with text
// that tests every escape (quotes, backslashes, control characters, HTML,
// U+2028, emoji), one result that is an error and one that has an image
// beside its text.
func LargeResults(model core.Model, turns int) []core.Message {
	const tricky = "line \"quoted\" \\ back\tslash <b>&amp;</b> \x01\x1f\u2028 é 😀\n"
	msgs := Conversation(model, turns)
	n := 0
	for _, m := range msgs {
		tr, ok := m.(*core.ToolResultMessage)
		if !ok {
			continue
		}
		if n%2 == 0 {
			text := fmt.Sprintf("result %d\n", n) + strings.Repeat(tricky, (core.SpillThreshold/len(tricky))*(1+n%3)+1)
			tr.Content = []core.Content{core.TextBlock(text)}
		}
		switch n {
		case 1:
			tr.IsError = true
		case 3, 4:
			tr.Content = append(tr.Content, core.ImageBlock("iVBORw0KGgo=", "image/png"), core.TextBlock("after the image"))
		}
		n++
	}
	return msgs
}

// ReplayBodies is what CheckReplayBodies needs of one wire format.
type ReplayBodies struct {
	// Name prefixes the golden files: testdata/replay/<Name>.<case>.golden.
	Name string
	// Model is the model asked, at baseURL.
	Model func(baseURL string) core.Model
	// Provider streams one request.
	Provider provider.Provider
	// Answer is a recorded answer of the wire format.
	Answer func() Response
}

// CheckReplayBodies sends long histories whose large tool results are held
// in a session file and checks the bodies the server receives, byte for
// byte, against golden files written by the encoder that held the whole
// conversation in memory (a small history in full, one above the streamed
// body threshold as its SHA-256): a wire format must send exactly what it
// sent before. It also cuts a session file short under a history and checks
// that the body is still valid JSON, carrying the note that stands for a
// text that can no longer be read.
func CheckReplayBodies(t *testing.T, r ReplayBodies) {
	for _, tc := range []struct {
		name  string
		turns int
	}{{"small", 4}, {"large", 120}} {
		t.Run(tc.name, func(t *testing.T) {
			body, req := sendReplay(t, r, tc.turns, false)
			if !json.Valid(body) {
				t.Fatalf("body is not valid JSON: %.200s", body)
			}
			streamed := len(body) > provider.StreamedBodyThreshold
			if chunked := req.ContentLength < 0; chunked != streamed {
				t.Errorf("%d-byte body sent with Content-Length %d", len(body), req.ContentLength)
			}
			got := body
			if tc.name == "large" {
				sum := sha256.Sum256(body)
				got = fmt.Appendf(nil, "sha256 %x bytes %d\n", sum, len(body))
			}
			Golden(t, "replay/"+r.Name+"."+tc.name, got)
		})
	}
	t.Run("cut short", func(t *testing.T) {
		body, _ := sendReplay(t, r, 4, true)
		if !json.Valid(body) {
			t.Fatalf("body is not valid JSON: %.200s", body)
		}
		if !bytes.Contains(body, []byte("could not read this output back from the session file")) {
			t.Errorf("body does not say a result could not be read: %.300s", body)
		}
		if !bytes.Contains(body, []byte("result 0")) {
			t.Errorf("body lost a result that could still be read")
		}
	})
}

// sendReplay streams a history of turns from a session file (cut short
// first, when cut is set) and returns the request the server received.
func sendReplay(t *testing.T, r ReplayBodies, turns int, cut bool) ([]byte, Request) {
	t.Helper()
	srv := NewServer(t, r.Answer())
	model := r.Model(srv.URL)
	stored, _, path := StoredHistory(t, LargeResults(model, turns))
	if cut {
		CutShort(t, path)
	}
	req := &provider.Request{
		Model: model, System: "You are a test <harness> & friend.", Messages: stored, APIKey: "test-key",
		Tools: []core.ToolSpec{{Name: "read", Description: "Read a file.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)}},
	}
	if _, err := r.Provider.Stream(context.Background(), req, nil); err != nil {
		t.Fatalf("Stream: %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server saw %d requests, want 1", len(reqs))
	}
	return reqs[0].Body, reqs[0]
}
