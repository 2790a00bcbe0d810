package compaction

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Fatalf("%s differs from the golden file; got:\n%s", name, got)
	}
}

// render shows a request as the model would read it.
func render(system string, messages []core.Message) string {
	var b strings.Builder
	b.WriteString("=== system\n")
	b.WriteString(system)
	for _, m := range messages {
		b.WriteString("\n=== " + string(m.MessageRole()) + "\n")
		for _, c := range m.(*core.UserMessage).Content {
			b.WriteString(c.Text)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// transcript has one message of every kind a summary may meet.
func transcript() []core.Message {
	exit := 2
	return []core.Message{
		&core.BranchSummaryMessage{Summary: "Tried a cache; it did not help."},
		&core.UserMessage{Content: []core.Content{core.TextBlock("Why does the build fail? Screenshot:"), core.ImageBlock("AAAA", "image/png")}},
		&core.AssistantMessage{Content: []core.Content{
			{Type: core.ContentThinking, Thinking: "Start with the build output."},
			core.TextBlock("Let me run it."),
			call("c1", "bash", map[string]string{"command": "go build ./..."}),
		}, StopReason: core.StopToolUse},
		&core.ToolResultMessage{ToolCallID: "c1", ToolName: "bash", IsError: true,
			Content: []core.Content{core.TextBlock("main.go:3:2: undefined: foo\n\nCommand exited with code 1")}},
		assistant("", call("c2", "read", map[string]string{"path": "main.go"})),
		result("c2", "read", "package main\n\nfunc main() { foo() }"),
		assistant("`foo` is not defined anywhere. Should I add it?"),
		&core.BashExecutionMessage{Command: "git log -1 --oneline", Output: "abc123 remove foo", ExitCode: &exit},
		&core.CustomMessage{CustomType: "note", Content: []core.Content{core.TextBlock("Reminder: keep the API stable.")}},
		user("Yes, add it back in util.go."),
	}
}

func TestSummaryRequestFirst(t *testing.T) {
	p := &Preparation{Summarize: transcript()}
	golden(t, "first.golden", render(SummaryRequest(p, "")))
}

func TestSummaryRequestUpdate(t *testing.T) {
	p := &Preparation{Summarize: transcript(), PreviousSummary: "## Goal\nFix the build."}
	golden(t, "update.golden", render(SummaryRequest(p, "  the public API  ")))
}

func TestTurnPrefixRequest(t *testing.T) {
	p := &Preparation{TurnPrefix: transcript()[1:6]}
	golden(t, "turn_prefix.golden", render(TurnPrefixRequest(p, "the build")))
}

func TestSerializeConversationCutsLongToolResults(t *testing.T) {
	long := strings.Repeat("é", toolResultLimit+500)
	got := SerializeConversation([]core.Message{result("c", "read", long), result("d", "bash", "")})
	want := "Tool result (read):\n" + strings.Repeat("é", toolResultLimit) + "\n[500 more characters left out]\n\nTool result (bash):\n(no output)"
	if got != want {
		t.Fatalf("SerializeConversation = %.80q…, want %.80q…", got, want)
	}
}

func TestMergeSummaries(t *testing.T) {
	got := MergeSummaries("History.", "Prefix.")
	if !strings.HasPrefix(got, "History.\n\n---\n\n") || !strings.HasSuffix(got, "\n\nPrefix.") {
		t.Fatalf("MergeSummaries = %q", got)
	}
	if got := MergeSummaries("", "Prefix."); !strings.HasPrefix(got, noHistory) {
		t.Fatalf("MergeSummaries without history = %q", got)
	}
}
