package piext

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
)

// misbehaving are our own pi extensions that crash, hang, flood or never
// load (testdata/misbehaving).
var misbehaving, _ = filepath.Abs("testdata/misbehaving")

// TestOneExtensionCutOffAlone: a crash, a busy loop, a flood (with stray
// console output, which must stay off the protocol) or running out of
// memory in one pi extension fails its own call with why and withdraws
// its tools; the host, and hello beside it, go on.
func TestOneExtensionCutOffAlone(t *testing.T) {
	// The hang limit is short where a busy loop is the point, and long
	// elsewhere: a busy machine must not turn a crash or a collector
	// thrashing before running out of memory into a silence.
	for _, tc := range []struct{ file, tool, why, hangMS string }{
		{"crash.ts", "crash", "it exited (code 3)", "60000"},
		{"hang.ts", "hang", "stopped responding", "1500"},
		{"flood.ts", "flood", "flooded the host", "60000"},
		{"hog.ts", "hog", "ran out of memory (64 MiB)", "60000"},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			h := startHostIn(t, t.TempDir(), map[string]string{"CAIRN_PI_HANG_MS": tc.hangMS, "CAIRN_PI_HEAP_MB": "64"}, "tui",
				filepath.Join(misbehaving, tc.file), "hello.ts")
			tool := h.m.Find(tc.tool)
			if tool == nil {
				t.Fatalf("no tool %s: %+v", tc.tool, h.m.Statuses())
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			res, err := tool.Execute(ctx, core.ToolCall{ID: "c", Name: tc.tool, Arguments: json.RawMessage(`{}`)}, func(core.ToolUpdate) {})
			if err == nil && !res.IsError {
				t.Fatalf("%s succeeded: %+v", tc.tool, res)
			}
			got := text(res)
			if err != nil {
				got = err.Error()
			}
			if !strings.Contains(got, "cut off") || !strings.Contains(got, tc.why) {
				t.Errorf("%s failed with %q, want it cut off: %s", tc.tool, got, tc.why)
			}
			h.host.waitFor(t, "the notice", func(shown []core.Event, _ []string, _ []core.Question) bool {
				return strings.Contains(notices(shown), "pi extension "+tc.tool+" stopped")
			})
			for h.m.Find(tc.tool) != nil {
				<-h.m.Changed()
			}
			if got := text(h.tool(t, "hello", `{"name": "Bo"}`)); got != "Hello, Bo!" {
				t.Errorf("hello after the cut-off: %q", got)
			}
			if st := h.m.Statuses()[0]; st.State != extension.Ready {
				t.Errorf("host: %v %v", st.State, st.Err)
			}
		})
	}
}

// TestBrokenExtensionsSayWhy: one that never finishes loading, one without
// a factory and one that throws are reported each with why, and the
// others load.
func TestBrokenExtensionsSayWhy(t *testing.T) {
	h := startHostIn(t, t.TempDir(), map[string]string{"CAIRN_PI_START_MS": "10000"}, "print",
		filepath.Join(misbehaving, "slowload.ts"), filepath.Join(misbehaving, "noexport.ts"), "hello.ts")
	for name, why := range map[string]string{
		"slowload": "did not load within 10 s",
		"noexport": "does not export a valid factory function",
	} {
		st := h.member(t, name)
		if st.State != extension.Failed || !strings.Contains(st.Err.Error(), why) {
			t.Errorf("%s: %v %v, want %q", name, st.State, st.Err, why)
		}
	}
	if st := h.member(t, "hello"); st.State != extension.Ready {
		t.Errorf("hello: %v %v", st.State, st.Err)
	}
	var failures []string
	for _, f := range h.m.Failures() {
		failures = append(failures, f.Name)
	}
	if strings.Join(failures, ",") != "pi:slowload,pi:noexport" {
		t.Errorf("failures %q", failures)
	}
}

// TestNoNodeSaysWhatToInstall: without node, the host is a failed
// extension whose error says what to install.
func TestNoNodeSaysWhatToInstall(t *testing.T) {
	configs := Host([]Entry{{Path: filepath.Join(examples, "hello.ts"), Source: "user"}}, Options{
		CacheDir: t.TempDir(),
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
	})
	if len(configs) != 1 || configs[0].Err != ErrNoNode || !strings.Contains(configs[0].Err.Error(), "install Node.js") {
		t.Fatalf("%+v", configs)
	}
}
