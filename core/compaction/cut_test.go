package compaction

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// session is a coding session with tool calls: three turns and a `!`
// command. The comments give each message's estimate and, after the slash,
// the estimate of it and everything after it.
func session() []core.Message {
	read := func(id, path string) core.Content { return call(id, "read", map[string]string{"path": path}) }
	return []core.Message{
		user(text(20)),                          // 0: 20 / 974
		assistant(text(10), read("c1", "a.go")), // 1: 15 / 954
		result("c1", "read", text(300)),         // 2: 300 / 939
		assistant(text(30)),                     // 3: 30 / 639
		user(text(20)),                          // 4: 20 / 609
		assistant("", call("c2", "bash", map[string]string{"command": "go test"}), read("c3", "b.go")), // 5: 11 / 589
		result("c2", "bash", text(200)),                                            // 6: 200 / 578
		result("c3", "read", text(200)),                                            // 7: 200 / 378
		assistant(text(10), call("c4", "edit", map[string]string{"path": "b.go"})), // 8: 15 / 178
		result("c4", "edit", text(50)),                                             // 9: 50 / 163
		assistant(text(40)),                                                        // 10: 40 / 113
		&core.BashExecutionMessage{Command: "git status", Output: text(30)},        // 11: 33 / 73
		user(text(15)),      // 12: 15 / 40
		assistant(text(25)), // 13: 25 / 25
	}
}

// checkCut asserts what every cut must promise.
func checkCut(t *testing.T, messages []core.Message, c Cut) {
	t.Helper()
	if c.FirstKept < 0 || c.FirstKept >= len(messages) {
		t.Fatalf("FirstKept %d out of range", c.FirstKept)
	}
	if r := messages[c.FirstKept].MessageRole(); r == core.RoleToolResult {
		t.Fatalf("cut at a tool result (index %d) in %s", c.FirstKept, roles(messages))
	}
	calls := map[string]bool{}
	for _, m := range messages[c.FirstKept:] {
		switch m := m.(type) {
		case *core.AssistantMessage:
			for _, tc := range m.ToolCalls() {
				calls[tc.ID] = true
			}
		case *core.ToolResultMessage:
			if !calls[m.ToolCallID] {
				t.Fatalf("cut at %d keeps result %s without its call", c.FirstKept, m.ToolCallID)
			}
		}
	}
	if c.IsSplitTurn() {
		if c.SplitTurnStart >= c.FirstKept || !startsTurn(messages[c.SplitTurnStart]) {
			t.Fatalf("split turn start %d for cut %d", c.SplitTurnStart, c.FirstKept)
		}
		for _, m := range messages[c.SplitTurnStart+1 : c.FirstKept+1] {
			if startsTurn(m) {
				t.Fatalf("split turn %d..%d contains another turn start", c.SplitTurnStart, c.FirstKept)
			}
		}
	} else if c.SplitTurnStart != -1 {
		t.Fatalf("SplitTurnStart = %d, want -1", c.SplitTurnStart)
	}
}

func keptTokens(messages []core.Message, from int) int {
	n := 0
	for _, m := range messages[from:] {
		n += EstimateTokens(m)
	}
	return n
}

func TestFindCutPointNeverStrandsToolResults(t *testing.T) {
	msgs := session()
	total := keptTokens(msgs, 0)
	for budget := 0; budget <= total+10; budget += 5 {
		c := FindCutPoint(msgs, budget)
		checkCut(t, msgs, c)
		// Less than the budget is kept only when the budget was reached
		// inside tool results, which the kept part cannot start with.
		kept := keptTokens(msgs, c.FirstKept)
		if kept < budget && c.FirstKept != 0 && msgs[c.FirstKept-1].MessageRole() != core.RoleToolResult {
			t.Fatalf("budget %d: kept only %d tokens from %d", budget, kept, c.FirstKept)
		}
	}
}

func TestFindCutPoint(t *testing.T) {
	msgs := session()
	tests := []struct {
		budget int
		want   Cut
	}{
		// The newest message alone fills the budget.
		{1, Cut{FirstKept: 13, SplitTurnStart: 12}},
		// Reached at the user message: a clean cut.
		{40, Cut{FirstKept: 12, SplitTurnStart: -1}},
		// Reached at the `!` command, which starts a turn of its own.
		{60, Cut{FirstKept: 11, SplitTurnStart: -1}},
		// Reached at edit's result (index 9): the next place to cut is the
		// assistant message after it, inside the turn that began at 4.
		{150, Cut{FirstKept: 10, SplitTurnStart: 4}},
		// Reached inside the results of the parallel calls (index 7): cut at
		// the assistant message after them.
		{200, Cut{FirstKept: 8, SplitTurnStart: 4}},
		// Reached at the assistant message that made two calls.
		{585, Cut{FirstKept: 5, SplitTurnStart: 4}},
		// Reached inside the first turn's read result: cut after it.
		{700, Cut{FirstKept: 3, SplitTurnStart: 0}},
		// Everything fits: keep it all.
		{100000, Cut{FirstKept: 0, SplitTurnStart: -1}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.budget), func(t *testing.T) {
			got := FindCutPoint(msgs, tt.budget)
			if got != tt.want {
				t.Fatalf("FindCutPoint(%d) = %+v, want %+v (kept %d tokens)", tt.budget, got, tt.want, keptTokens(msgs, got.FirstKept))
			}
			checkCut(t, msgs, got)
		})
	}
}

func TestFindCutPointHugeToolResultAtTheEnd(t *testing.T) {
	// The budget is reached at the newest message, a tool result, and no
	// message after it may start the kept part: cut at its call instead of
	// keeping everything.
	msgs := []core.Message{
		user(text(100)),
		assistant(text(100)),
		user(text(10)),
		assistant("", call("c1", "bash", map[string]string{"command": "cat big.log"})),
		result("c1", "bash", text(50000)),
	}
	got := FindCutPoint(msgs, 20000)
	if want := (Cut{FirstKept: 3, SplitTurnStart: 2}); got != want {
		t.Fatalf("FindCutPoint = %+v, want %+v", got, want)
	}
	checkCut(t, msgs, got)
}

func TestFindCutPointKeepsLateResultsWithTheirCall(t *testing.T) {
	// A result that arrives after a user message still belongs to the call
	// before it; cutting at the user message would strand it.
	msgs := []core.Message{
		user(text(100)),
		assistant("", call("c1", "bash", map[string]string{"command": "make"})),
		user(text(10)),
		result("c1", "bash", text(100)),
		assistant(text(10)),
	}
	got := FindCutPoint(msgs, 115)
	if want := (Cut{FirstKept: 1, SplitTurnStart: 0}); got != want {
		t.Fatalf("FindCutPoint = %+v, want %+v", got, want)
	}
	checkCut(t, msgs, got)
}

func TestFindCutPointWithoutPlacesToCut(t *testing.T) {
	msgs := []core.Message{result("c1", "bash", text(100)), result("c2", "bash", text(100))}
	if got := FindCutPoint(msgs, 10); got != (Cut{FirstKept: 0, SplitTurnStart: -1}) {
		t.Fatalf("FindCutPoint = %+v", got)
	}
	if got := FindCutPoint(nil, 10); got != (Cut{FirstKept: 0, SplitTurnStart: -1}) {
		t.Fatalf("FindCutPoint(nil) = %+v", got)
	}
}
