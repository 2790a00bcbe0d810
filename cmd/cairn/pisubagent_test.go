package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pi's subagent example runs "the agent it runs in" again for each
// subagent (`node <process.argv[1]> --mode json -p --no-session ...`): in
// cairn that is cairn, with pi's command line. The parent's model calls the
// subagent tool; the subagent, a second cairn in another directory (whose
// relative faux script is its own), answers; its answer is the tool's
// result in the parent.
func TestPiSubagentRunsCairn(t *testing.T) {
	needProgram(t, "node")
	ext, err := filepath.Abs("../../core/piext/testdata/pi-examples/subagent")
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	agents := filepath.Join(home, ".pi", "agent", "agents")
	if err := os.MkdirAll(agents, 0o700); err != nil {
		t.Fatal(err)
	}
	agent := "---\nname: scout\ndescription: Looks around\ntools: read, ls\n---\n\nYou are a scout.\n"
	if err := os.WriteFile(filepath.Join(agents, "scout.md"), []byte(agent), 0o600); err != nil {
		t.Fatal(err)
	}
	parent, sub := t.TempDir(), t.TempDir()
	t.Chdir(parent)
	const script = "faux.json"
	write := func(dir, body string) {
		if err := os.WriteFile(filepath.Join(dir, script), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	call := `{"agent": "scout", "task": "what is here?", "cwd": ` + quoteJSON(sub) + `}`
	write(parent, `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "subagent", "arguments": `+call+`}]},
  {"text": "The scout is back."}
]}`)
	write(sub, `{"responses": [{"text": "scouted: three files"}]}`)
	// The subagent's cairn is this test binary, run as cairn with the faux
	// model (an extension is given no CAIRN_ variable but CAIRN_DIR).
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(t.TempDir(), "cairn")
	wrapper := "#!/bin/sh\n" + asCairnEnv + "=1 CAIRN_FAUX_SCRIPT=" + script + " exec '" + self + "' \"$@\"\n"
	if err := os.WriteFile(cli, []byte(wrapper), 0o700); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": home, "CAIRN_FAUX_SCRIPT": script, "CAIRN_PI_CLI": cli}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-e", ext, "-p", "send the scout")
	if r.code != 0 || !strings.Contains(r.stdout, "scouted: three files") || !strings.Contains(r.stdout, "The scout is back.") {
		t.Fatalf("exit %d\nstdout (the end) %s\nstderr %s", r.code, r.stdout[max(0, len(r.stdout)-6000):], r.stderr)
	}
}

func quoteJSON(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
