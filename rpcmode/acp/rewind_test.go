package acp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestRewindExtensionMethod: `rm -rf src` through bash, then
// _cairn/rewind brings src back and says what it restored; bad params
// are refused.
func TestRewindExtensionMethod(t *testing.T) {
	r := newRig(t, rigConfig{mode: approval.ModeYolo, checkpoints: true, responses: []faux.Response{
		toolCallResponse("call_1", "bash", `{"command":"rm -rf src"}`),
		{Text: "removed"},
	}})
	src := filepath.Join(r.cwd, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sid := r.newSession()
	r.response(r.prompt(sid, "delete src"))
	if _, err := os.Stat(src); !os.IsNotExist(err) {
		t.Fatalf("bash did not remove src: %v", err)
	}
	bad := r.response(r.call(rewindMethod, map[string]any{"sessionId": sid, "restore": "files"}))
	if !strings.Contains(bad.str("error.message"), `"restore" must be`) {
		t.Errorf("bad restore: %s", bad.text)
	}
	res := r.result(rewindMethod, map[string]any{"sessionId": sid, "steps": 1})
	if res["code"] != true || res["conversation"] != true || res["text"] != "delete src" {
		t.Fatalf("rewind result: %v", res)
	}
	if b, err := os.ReadFile(filepath.Join(src, "a.go")); err != nil || string(b) != "package a\n" {
		t.Fatalf("src/a.go after rewind: %q, %v", b, err)
	}
}
