package acp

import "github.com/cairn-dev/cairn/core"

// The option ids of the offer to trust a project.
const (
	trustYes    = "trust_project"
	trustNotNow = "not_now"
)

// offerTrust asks the person, once per directory, whether to trust the
// project whose files cairn left out (Host.StartNotice), through
// session/request_permission, the one way an ACP client asks. The turn
// does not wait for the answer: the session was built without the files,
// and trusting records the project for the threads opened after it, as
// `cairn --trust-project` does.
func (s *server) offerTrust(t *thread) {
	h := t.b.host
	if h.Trust == nil || h.StartNotice == "" {
		return
	}
	s.mu.Lock()
	if s.trustOffered[h.Cwd] {
		s.mu.Unlock()
		return
	}
	s.trustOffered[h.Cwd] = true
	id := s.nextOut
	s.nextOut++
	s.permissions[id] = permit{t: t, trust: true}
	s.mu.Unlock()
	tc := toolCallUpdate{ToolCallID: "cairn-trust-" + t.id, Title: "Trust the project in " + h.Cwd + "?", Kind: core.KindOther, Status: "pending",
		Content: []toolContent{{Type: "content", Content: &textBlock{Type: "text", Text: h.StartNotice}}}}
	t.send(outRequest{JSONRPC: "2.0", ID: &id, Method: "session/request_permission", Params: requestPermission{SessionID: t.id, ToolCall: tc,
		Options: []permissionOption{
			{OptionID: trustYes, Name: "Trust this project (threads opened from now on use its files)", Kind: "allow_always"},
			{OptionID: trustNotNow, Name: "Not now", Kind: "reject_once"},
		}}})
}

// trustAnswered acts on the answer to offerTrust.
func (s *server) trustAnswered(p permit, optionID string) {
	if optionID != trustYes {
		return
	}
	msg := "Trusted " + p.t.b.host.Cwd + ": threads you open from now on use its files."
	if err := p.t.b.host.Trust(); err != nil {
		msg = "Could not trust " + p.t.b.host.Cwd + ": " + err.Error()
	}
	// In the agent's message, where the person reads it (a thought may
	// be folded away).
	p.t.b.sub.Mark(markNotice{core.Notice{Level: core.NotifyWarning, Message: msg}})
}
