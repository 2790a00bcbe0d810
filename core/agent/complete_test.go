package agent

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestCompleteUsesTheSessionsCredentialsAndLeavesTheConversation: an
// extension's completion is sent with the connection's key and headers
// and adds nothing to the conversation; a model that cannot be opened is
// an error naming it.
func TestCompleteUsesTheSessionsCredentialsAndLeavesTheConversation(t *testing.T) {
	var seen provider.Request
	fp := faux.New(faux.Options{})
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		seen = *req
		return faux.Response{Text: "summary"}, nil
	})
	f := newFixture(t, Config{Open: func(m core.Model) (Connection, error) {
		if m.ID == "gone" {
			return Connection{}, errors.New("no key")
		}
		return Connection{Provider: fp, APIKey: "k", Headers: map[string]string{"h": "v"}}, nil
	}})
	msg, err := f.s.Complete(t.Context(), provider.Request{Model: faux.Model, System: "sum up", Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock("x")}}}})
	if err != nil || msg.Text() != "summary" {
		t.Fatalf("complete: %v %+v", err, msg)
	}
	if seen.APIKey != "k" || seen.Headers["h"] != "v" || seen.System != "sum up" {
		t.Errorf("request %+v", seen)
	}
	if n := len(f.s.Messages()); n != 0 {
		t.Errorf("%d messages in the conversation", n)
	}
	if _, err := f.s.Complete(t.Context(), provider.Request{Model: core.Model{ID: "gone", Provider: "p"}}); err == nil || err.Error() != "cannot use p/gone: no key" {
		t.Errorf("unopenable model: %v", err)
	}
}

// TestSystemPromptIsTheNextRequests: SystemPrompt is the text the next
// request sends.
func TestSystemPromptIsTheNextRequests(t *testing.T) {
	f := newFixture(t, Config{SystemPrompt: func([]core.Tool) string { return "You are cairn." }}, faux.Response{Text: "ok"})
	if got := f.s.SystemPrompt(); got != "You are cairn." {
		t.Errorf("SystemPrompt %q", got)
	}
}
