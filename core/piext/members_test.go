package piext

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
)

// waitStarting waits, bounded, until the manager's parts still starting
// are want.
func waitStarting(t *testing.T, m *extension.Manager, want []string) {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		changed := m.Changed()
		if got := m.Starting(); slices.Equal(got, want) {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("still starting: %q, want %q", m.Starting(), want)
		}
	}
}

// A member still loading when the host answers initialize is a part still
// starting (a run's first request waits for it); when it has loaded, the
// host says so (member_changed) after its tools are registered, and it is
// ready with them. One that is cut off while loading ends failed.
func TestLateMembersAreWaitedFor(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	h := startHostIn(t, t.TempDir(), map[string]string{"CAIRN_PI_INIT_MS": "1", "CAIRN_PI_START_MS": "30000", "LATELOAD_GATE": gate}, "print",
		filepath.Join(misbehaving, "lateload.ts"), "hello.ts")
	if got := h.m.Starting(); !slices.Contains(got, "pi:lateload") {
		t.Fatalf("starting %q: the loading member is not waited for", got)
	}
	if st := h.member(t, "lateload"); st.State != extension.Starting {
		t.Fatalf("lateload: %v", st.State)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitStarting(t, h.m, nil)
	if st := h.member(t, "lateload"); st.State != extension.Ready || len(st.Tools) != 1 || st.Tools[0].Name != "late" {
		t.Fatalf("lateload: %v %v %+v", st.State, st.Err, st.Tools)
	}
	if got := text(h.tool(t, "late", `{}`)); got != "late but here" {
		t.Errorf("late: %q", got)
	}
}

func TestLateMemberCutOffEndsFailed(t *testing.T) {
	h := startHostIn(t, t.TempDir(), map[string]string{"CAIRN_PI_INIT_MS": "1", "CAIRN_PI_START_MS": "1500"}, "print",
		filepath.Join(misbehaving, "slowload.ts"), "hello.ts")
	waitStarting(t, h.m, nil)
	if st := h.member(t, "slowload"); st.State != extension.Failed {
		t.Fatalf("slowload: %v %v", st.State, st.Err)
	}
}
