package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// piWrapper finds pi 0.87.1's wrapper as rpcmode/pi's differential tests
// do (CAIRN_PI, else the cache of ../shared/tools/pi-install.sh); in CI a
// missing pi fails the test.
func piWrapper(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CAIRN_PI"); p != "" {
		return p
	}
	cache := os.Getenv("PI_CACHE")
	if cache == "" {
		home, _ := os.UserHomeDir()
		cache = filepath.Join(home, ".cache", "cairn-pi")
	}
	w := filepath.Join(cache, "pi-0.87.1", "pi")
	if _, err := os.Stat(w); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("pi 0.87.1 is not installed (%v); install it with ../shared/tools/pi-install.sh", err)
		}
		t.Skip("pi 0.87.1 is not installed: ../shared/tools/pi-install.sh installs it")
	}
	return w
}

// uiRequestID is the random id of an extension_ui_request, the one part
// of its frame that differs from run to run.
var uiRequestID = regexp.MustCompile(`"id":"[0-9a-f-]{36}"`)

// uiFrames are the extension_ui_request lines of an rpc transcript, ids
// made equal.
func uiFrames(stdout string) []string {
	var out []string
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, `{"type":"extension_ui_request"`) {
			out = append(out, uiRequestID.ReplaceAllString(l, `"id":"ID"`))
		}
	}
	return out
}

// The frames a pi extension's UI makes in --mode rpc are pi 0.87.1's,
// byte for byte but for their random ids: both run the same examples,
// which set a title, status lines (coloured with pi's theme) and widgets
// at session start.
func TestPiExtensionRPCFramesAsPi(t *testing.T) {
	needProgram(t, "node")
	pi := piWrapper(t)
	for _, name := range []string{"rpc-demo.ts", "widget-placement.ts", "status-line.ts"} {
		t.Run(name, func(t *testing.T) {
			ext := filepath.Join(piExamples, name)
			dir := t.TempDir()
			stdin := `{"type":"get_commands"}` + "\n"
			cmd := exec.Command(pi, "--mode", "rpc", "--no-session", "-e", ext)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "PI_CODING_AGENT_DIR="+t.TempDir())
			cmd.Stdin = strings.NewReader(stdin)
			piOut, err := cmd.Output()
			if err != nil {
				t.Fatalf("pi: %v", err)
			}
			t.Chdir(dir)
			vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
			r := invoke(t, vars, &stdin, "--mode", "rpc", "--no-session", "--provider", "faux", "-e", ext)
			want, got := uiFrames(string(piOut)), uiFrames(r.stdout)
			if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("cairn's frames:\n%s\npi's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
