package compaction

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// baseRequest is what the agent would pass: its own request, tools and all.
func baseRequest() provider.Request {
	return provider.Request{
		Model:     faux.Model,
		System:    "You are cairn.",
		Messages:  []core.Message{user("the live conversation")},
		Tools:     []core.ToolSpec{{Name: "read"}},
		Thinking:  core.ThinkingHigh,
		SessionID: "s1",
		APIKey:    "key",
		Headers:   map[string]string{"X-Test": "1"},
	}
}

// promptText returns the text of a summary request's single user message.
func promptText(t *testing.T, req *provider.Request) string {
	t.Helper()
	if len(req.Messages) != 1 {
		t.Errorf("summary request has %d messages, want 1", len(req.Messages))
		return ""
	}
	u, ok := req.Messages[0].(*core.UserMessage)
	if !ok || len(u.Content) != 1 {
		t.Errorf("summary request message = %#v", req.Messages[0])
		return ""
	}
	return u.Content[0].Text
}

func TestCompact(t *testing.T) {
	msgs := session()
	p, ok := Prepare(msgs, "", settingsKeeping(40))
	if !ok {
		t.Fatal("nothing to compact")
	}
	fp := faux.New(faux.Options{})
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		if req.System != systemPrompt {
			t.Errorf("system prompt = %q", req.System)
		}
		text := promptText(t, req)
		for _, want := range []string{
			"<conversation>\nUser:\n" + strings.Repeat("abcd", 20),
			"Assistant calls tool read:\n{\"path\":\"a.go\"}",
			"Tool result (edit):\n",
			"User:\nRan `git status`",
			"## Constraints & Preferences",
			"Pay particular attention to the following: test failures",
		} {
			if !strings.Contains(text, want) {
				t.Errorf("summary request lacks %q", want)
			}
		}
		if strings.Contains(text, "<previous-summary>") {
			t.Error("first summary request carries a previous summary")
		}
		// The transcript ends with the `!` command; the kept messages after
		// it are not summarised.
		if !strings.Contains(text, "Ran `git status`\n```\n"+strings.Repeat("abcd", 30)+"\n```\n</conversation>") {
			t.Error("summary request does not end at the cut")
		}
		if req.Tools != nil || req.Thinking != core.ThinkingOff || req.MaxTokens != 13107 {
			t.Errorf("tools %v, thinking %q, max tokens %d", req.Tools, req.Thinking, req.MaxTokens)
		}
		if req.APIKey != "key" || req.SessionID != "s1" || req.Headers["X-Test"] != "1" || req.Model.ID != faux.Model.ID {
			t.Errorf("caller's settings lost: %+v", req)
		}
		return faux.Response{Text: "## Goal\nFix the tests."}, nil
	})

	summary, usage, err := Compact(context.Background(), fp, baseRequest(), p, "test failures")
	if err != nil {
		t.Fatal(err)
	}
	if usage.Input == 0 && usage.Output == 0 {
		t.Errorf("no usage reported for the summary request: %+v", usage)
	}
	want := "## Goal\nFix the tests.\n\n<read-files>\na.go\n</read-files>\n\n<modified-files>\nb.go\n</modified-files>"
	if summary != want {
		t.Fatalf("summary =\n%s\nwant\n%s", summary, want)
	}
	if fp.Calls() != 1 {
		t.Fatalf("%d model calls, want 1", fp.Calls())
	}
}

func TestCompactUpdatesPreviousSummary(t *testing.T) {
	msgs := append([]core.Message{&core.CompactionSummaryMessage{Summary: "## Goal\nOld goal.\n\n<read-files>\nold.go\n</read-files>"}}, session()...)
	p, ok := Prepare(msgs, "", settingsKeeping(40))
	if !ok {
		t.Fatal("nothing to compact")
	}
	fp := faux.New(faux.Options{})
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		text := promptText(t, req)
		if !strings.Contains(text, "</conversation>\n\n<previous-summary>\n## Goal\nOld goal.\n</previous-summary>\n\n") {
			t.Errorf("update request lacks the previous summary (without its file list):\n%s", text)
		}
		if !strings.Contains(text, "Write the updated notes") || strings.Contains(text, "pick up the work where it stopped") {
			t.Error("update request does not ask for an update")
		}
		return faux.Response{Text: "## Goal\nNew goal."}, nil
	})
	summary, _, err := Compact(context.Background(), fp, baseRequest(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary, "<read-files>\na.go\nold.go\n</read-files>") {
		t.Fatalf("files from the previous summary not carried over:\n%s", summary)
	}
}

func TestCompactSplitTurn(t *testing.T) {
	p, ok := Prepare(session(), "", settingsKeeping(150))
	if !ok || !p.IsSplitTurn() {
		t.Fatalf("want a split turn, got %+v", p)
	}
	var mu sync.Mutex
	limits := map[string]int{}
	answer := func(req *provider.Request) (faux.Response, error) {
		text := promptText(t, req)
		kind := "history"
		if strings.Contains(text, "beginning of a single turn") {
			kind = "prefix"
			if !strings.Contains(text, "Assistant calls tool edit:\n{\"path\":\"b.go\"}") {
				t.Errorf("turn prefix request lacks the turn's calls:\n%s", text)
			}
			if strings.Contains(text, "a.go") {
				t.Error("turn prefix request contains earlier history")
			}
		}
		mu.Lock()
		limits[kind] = req.MaxTokens
		mu.Unlock()
		return faux.Response{Text: kind + " summary"}, nil
	}
	fp := faux.New(faux.Options{})
	fp.PushStep(answer, answer)

	summary, _, err := Compact(context.Background(), fp, baseRequest(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	if want := FinishSummary(MergeSummaries("history summary", "prefix summary"), p); summary != want {
		t.Fatalf("summary =\n%s\nwant\n%s", summary, want)
	}
	if limits["history"] != 13107 || limits["prefix"] != 8192 {
		t.Fatalf("output limits = %v", limits)
	}
}

func TestCompactSplitTurnWithoutHistory(t *testing.T) {
	msgs := []core.Message{
		&core.CompactionSummaryMessage{Summary: "Earlier work."},
		user("do it"),
		assistant("", call("c1", "bash", map[string]string{"command": "make"})),
		result("c1", "bash", text(30000)),
		assistant(text(10)),
	}
	p, ok := Prepare(msgs, "", DefaultSettings())
	if !ok || !p.IsSplitTurn() || len(p.Summarize) != 0 {
		t.Fatalf("want a split of the only turn, got %+v", p)
	}
	fp := faux.New(faux.Options{}, faux.Response{Text: "Prefix."})
	summary, _, err := Compact(context.Background(), fp, baseRequest(), p, "")
	if err != nil {
		t.Fatal(err)
	}
	// The previous summary stands for the history, unchanged.
	if want := MergeSummaries("Earlier work.", "Prefix."); summary != want {
		t.Fatalf("summary = %q, want %q", summary, want)
	}
	if fp.Calls() != 1 {
		t.Fatalf("%d model calls, want 1", fp.Calls())
	}
}

func TestCompactCapsOutputAtModelLimit(t *testing.T) {
	p, _ := Prepare(session(), "", settingsKeeping(40))
	req := baseRequest()
	req.Model.MaxTokens = 4096
	fp := faux.New(faux.Options{})
	fp.PushStep(func(req *provider.Request) (faux.Response, error) {
		if req.MaxTokens != 4096 {
			t.Errorf("MaxTokens = %d, want the model's 4096", req.MaxTokens)
		}
		return faux.Response{Text: "ok"}, nil
	})
	if _, _, err := Compact(context.Background(), fp, req, p, ""); err != nil {
		t.Fatal(err)
	}
}

func TestCompactErrors(t *testing.T) {
	plain, _ := Prepare(session(), "", settingsKeeping(40))
	split, _ := Prepare(session(), "", settingsKeeping(150))
	tests := []struct {
		name      string
		p         *Preparation
		responses []faux.Response
		want      string
	}{
		{"provider error", plain, []faux.Response{{Error: "anthropic: HTTP 429 Too Many Requests: slow down"}},
			"summarize the conversation: anthropic: HTTP 429 Too Many Requests: slow down"},
		{"empty answer", plain, []faux.Response{{Thinking: "hmm"}}, ErrEmptySummary.Error()},
		{"split turn, one request fails", split, []faux.Response{{Error: "boom"}, {Error: "boom"}}, "boom"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fp := faux.New(faux.Options{}, tt.responses...)
			summary, _, err := Compact(context.Background(), fp, baseRequest(), tt.p, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) || summary != "" {
				t.Fatalf("Compact = %q, %v; want error containing %q", summary, err, tt.want)
			}
		})
	}
}

func TestCompactSplitTurnFailureCancelsTheOtherRequest(t *testing.T) {
	p, _ := Prepare(session(), "", settingsKeeping(150))
	started := make(chan struct{})
	// Whichever request comes second fails once the first is waiting; the
	// first must then be cancelled rather than left running.
	var once sync.Once
	step := func(req *provider.Request) (faux.Response, error) {
		first := false
		once.Do(func() { first = true })
		if !first {
			<-started
			return faux.Response{}, errors.New("rate limited")
		}
		close(started)
		return faux.Response{Text: strings.Repeat("slow ", 1000)}, nil
	}
	fp := faux.New(faux.Options{ChunkSize: 1, TokensPerSecond: 50}) // the long answer takes 25 s
	fp.PushStep(step, step)
	_, _, err := Compact(context.Background(), fp, baseRequest(), p, "")
	if err == nil || !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("Compact error = %v, want the failing request's", err)
	}
}

func TestCompactCancelled(t *testing.T) {
	p, _ := Prepare(session(), "", settingsKeeping(40))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fp := faux.New(faux.Options{}, faux.Response{Text: "never"})
	_, _, err := Compact(ctx, fp, baseRequest(), p, "")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Compact error = %v, want context.Canceled", err)
	}
}

func Example() {
	// An agent holding a long conversation compacts it like this.
	var conversation []core.Message
	for i := range 30 {
		conversation = append(conversation, user(fmt.Sprintf("step %d: %s", i, text(1000))), assistant("done"))
	}
	p, ok := Prepare(conversation, "", DefaultSettings())
	if !ok {
		return
	}
	model := faux.New(faux.Options{}, faux.Response{Text: "## Goal\nWalk through thirty steps."})
	summary, _, err := Compact(context.Background(), model, provider.Request{Model: faux.Model}, p, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("summarised %d messages, kept %d from index %d\n", len(p.Summarize), len(p.Kept), p.FirstKept)
	fmt.Println(summary)
	// Output:
	// summarised 20 messages, kept 40 from index 20
	// ## Goal
	// Walk through thirty steps.
}
