//go:build unix

package pi

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/shell/shelltest"
)

// get_state counts the running background processes, list_processes lists
// them and kill_process stops one, saying clearly what it cannot stop.
func TestProcessCommands(t *testing.T) {
	table := background.New(background.Options{TempDir: t.TempDir()})
	r := newRig(t, rigConfig{faux: faux.New(faux.Options{}), processes: table})
	info, err := table.Start(background.Command{Line: "exec sleep 1000"})
	if err != nil {
		t.Fatal(err)
	}

	r.send(map[string]any{"id": "s1", "type": "get_state"})
	if got := fmt.Sprint(r.response("s1").get("data.backgroundProcesses")); got != "1" {
		t.Errorf("get_state backgroundProcesses = %v, want 1", got)
	}
	r.send(map[string]any{"id": "l1", "type": "list_processes"})
	l := r.response("l1")
	if l.str("data.processes.0.id") != info.ID || l.get("data.processes.0.running") != true ||
		l.str("data.processes.0.command") != "exec sleep 1000" || fmt.Sprint(l.get("data.processes.0.pid")) != fmt.Sprint(info.Pid) {
		t.Errorf("list_processes gave %s", l.text)
	}

	r.send(map[string]any{"id": "k0", "type": "kill_process"})
	expectError(t, r.response("k0"), `field "processId" is required: a string`)
	r.send(map[string]any{"id": "k1", "type": "kill_process", "processId": "bash_9"})
	expectError(t, r.response("k1"), `no background process has id "bash_9" (list_processes lists them)`)
	r.send(map[string]any{"id": "k2", "type": "kill_process", "processId": info.ID})
	k := r.response("k2")
	if k.str("data.status") != "killed" || k.get("data.running") != false {
		t.Errorf("kill_process gave %s", k.text)
	}
	shelltest.WaitGone(t, waitLimit, info.Pid)
	r.send(map[string]any{"id": "k3", "type": "kill_process", "processId": info.ID})
	expectError(t, r.response("k3"), "background process bash_1 has already ended (killed)")

	r.send(map[string]any{"id": "s2", "type": "get_state"})
	if got := r.response("s2").get("data.backgroundProcesses"); got != nil {
		t.Errorf("get_state backgroundProcesses = %v with none running, want it left out", got)
	}
}
