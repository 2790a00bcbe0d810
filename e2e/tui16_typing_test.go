package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTUI16TypingNeverAnswersAnApproval types a sentence at 12 keys a
// second into a real terminal while an answer streams and ends in a write
// call: the approval that appears mid-sentence takes none of the keys, the
// draft keeps every one, and the write waits until the person switches to
// the prompt (tab) and answers.
func TestTUI16TypingNeverAnswersAnApproval(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("typing", 100, 30)
	p.waitText("test-model")

	words := strings.Fields("I will write the file you asked for now, after a short look at the project layout and its tests.")
	var chunks []string
	for _, w := range words {
		chunks = append(chunks, w+" ")
	}
	h.llm.queue(
		reply{chunks: chunks, pace: 40 * time.Millisecond,
			toolCalls: []fakeToolCall{{id: "call_w", name: "write", arguments: `{"path":"typed.txt","content":"x"}`}}},
		textReply("Understood.", 4),
	)
	p.typeText("write it")
	p.keys("Enter")
	p.waitText("I will write")

	const sentence = "typing something yes no and more"
	tick := time.NewTicker(83 * time.Millisecond) // a person typing, not a wait for an event
	for _, c := range sentence {
		<-tick.C
		p.typeText(string(c))
	}
	tick.Stop()
	screen := p.waitText("Allow write", "Keys go to the editor", sentence)
	target := filepath.Join(h.project, "typed.txt")
	if _, err := os.Stat(target); err == nil {
		t.Fatalf("the write ran while the person was typing:\n%s", frame(screen))
	}
	if n := h.llm.count(); n != 1 {
		t.Fatalf("%d requests: a typed key answered the approval:\n%s", n, frame(screen))
	}

	p.keys("Tab")
	p.waitText("tab back to the editor")
	p.answerApproval("tab back to the editor", "n")
	h.llm.waitRequest(t, 1)
	p.waitText("Understood.")
	if _, err := os.Stat(target); err == nil {
		t.Fatal("the denied write ran")
	}
	if s := p.screen(); !strings.Contains(s, sentence) {
		t.Fatalf("the draft was lost:\n%s", frame(s))
	}
}
