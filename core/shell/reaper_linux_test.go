package shell

import (
	"context"
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// leftoverLines start processes that outlive their shell in every way a
// command can: in the background, immune to hangups, in a session of their
// own, and a daemon's double fork. Each prints the pid that must not
// survive the command.
var leftoverLines = map[string]string{
	"background": `sleep 1000 & echo "pid $!"`,
	"nohup":      `nohup sleep 1000 >/dev/null 2>&1 & echo "pid $!"`,
	"setsid":     `setsid sleep 1000 & echo "pid $!"`,
	// The grandchild writes its pid to a file the shell waits for, so the
	// shell does not end before the daemon has started.
	"double fork": `f=$(mktemp); (setsid sh -c "sleep 1000 >/dev/null 2>&1 & echo \$! > $f" &); ` +
		`while [ ! -s "$f" ]; do :; done; echo "pid $(cat "$f")"; rm -f "$f"`,
}

// Whatever a foreground command started ends when it ends, however it
// left its process group: its reaper kills everything under it.
func TestLeftoversEndWithTheCommand(t *testing.T) {
	for name, line := range leftoverLines {
		t.Run(name, func(t *testing.T) {
			p, out := start(t, context.Background(), Command{Line: line})
			exit := wait(t, p)
			pids := pidsIn(t, out.Tail().Text)
			if len(pids) != 1 {
				t.Fatalf("output %q: want one pid", out.Tail().Text)
			}
			if exit.Code != 0 || exit.Err != nil {
				t.Errorf("exit %+v, want 0", exit)
			}
			shelltest.WaitGone(t, waitLimit, pids...)
		})
	}
}

// A stopped command takes with it what left its process group: SIGKILL to
// the group would have ended the reaper before it could.
func TestStopKillsWhatLeftTheGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, out := start(t, ctx, Command{Line: `setsid sleep 1000 & echo "pid $!"; echo "pid $$"; sleep 1000`})
	pids := waitPids(t, out, 2)
	cancel()
	if exit := wait(t, p); exit.Signal != "killed" || !exit.Cancelled {
		t.Errorf("exit %+v, want killed", exit)
	}
	shelltest.WaitGone(t, waitLimit, pids...)
}

// The same after SIGTERM and a grace period: the reaper passes the
// signal on to what left the group.
func TestGraceReachesWhatLeftTheGroup(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, out := start(t, ctx, Command{Line: `setsid sleep 1000 & echo "pid $!"; echo "pid $$"; sleep 1000`, Grace: waitLimit})
	pids := waitPids(t, out, 2)
	cancel()
	if exit := wait(t, p); !exit.Cancelled {
		t.Errorf("exit %+v, want cancelled", exit)
	}
	shelltest.WaitGone(t, waitLimit, pids...)
}

// The reaper exits as its shell did.
func TestReaperKeepsTheExitStatus(t *testing.T) {
	for line, want := range map[string]Exit{
		`exit 3`:         {Code: 3},
		`kill -TERM $$`:  {Code: -1, Signal: "terminated"},
		`kill -SEGV $$`:  {Code: 128 + 11},
		`setsid true; :`: {},
	} {
		p, _ := start(t, context.Background(), Command{Line: line})
		if got := wait(t, p); got != want {
			t.Errorf("%s: exit %+v, want %+v", line, got, want)
		}
	}
}

func TestSplitFields(t *testing.T) {
	got := splitFields([]byte("12 345 \n6"))
	if len(got) != 3 || got[0] != "12" || got[1] != "345" || got[2] != "6" {
		t.Errorf("splitFields = %q", got)
	}
	for _, pid := range got {
		if _, err := strconv.Atoi(pid); err != nil {
			t.Error(err)
		}
	}
}

// A stop requested while the reaper is still starting is not lost: the
// request is repeated until the reaper has exited. The window is short:
// one start in a few dozen hits it on an idle machine.
func TestStopWhileTheReaperStarts(t *testing.T) {
	for range 100 {
		ctx, cancel := context.WithCancel(context.Background())
		p, out := start(t, ctx, Command{Line: `sleep 1000; echo late`})
		cancel()
		if exit := wait(t, p); !exit.Cancelled {
			t.Errorf("exit %+v, want cancelled", exit)
		}
		if got := out.Tail().Text; got != "" {
			t.Errorf("output %q, want none", got)
		}
	}
}

// BenchmarkStart measures a whole command (`true`), started and waited
// for, under a reaper and, as before reapers, in a guarded group.
func BenchmarkStart(b *testing.B) {
	for _, mode := range []struct {
		name   string
		reaper bool
	}{{"reaper", true}, {"group+guard", false}} {
		b.Run(mode.name, func(b *testing.B) {
			defer reaperReady.Store(reaperReady.Load())
			reaperReady.Store(mode.reaper)
			b.ReportAllocs()
			for b.Loop() {
				p, err := Start(context.Background(), Command{Line: "true"})
				if err != nil {
					b.Fatal(err)
				}
				if exit := p.Wait(); exit.Code != 0 {
					b.Fatalf("exit %+v", exit)
				}
			}
		})
	}
}
