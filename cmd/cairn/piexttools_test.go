package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// narrowExt is a pi extension whose tool lists the session's tools and
// then keeps read and itself only, as pi's setActiveTools does.
const narrowExt = `import { Type } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerTool({
    name: "narrow", label: "Narrow", description: "Keeps read only.", parameters: Type.Object({}),
    async execute() {
      const all = pi.getAllTools().map((t) => t.name + ":" + t.sourceInfo.source);
      pi.setActiveTools(["read", "narrow"]);
      return { content: [{ type: "text", text: "all " + all.join(",") + " active " + pi.getActiveTools().join(",") }] };
    },
  });
}
`

// A pi extension lists cairn's own tools and switches a built-in one off:
// the next call of it finds no tool.
func TestPiExtensionSwitchesBuiltInTools(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	ext := filepath.Join(t.TempDir(), "narrow.ts")
	if err := os.WriteFile(ext, []byte(narrowExt), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "narrow", "arguments": {}}]},
  {"content": [{"type": "toolCall", "id": "c2", "name": "bash", "arguments": {"command": "echo hi"}}]},
  {"text": "Done."}
]}`
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, script)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-e", ext, "-p", "go")
	for _, want := range []string{"read:builtin", "bash:builtin", "narrow:local", "active read,narrow", "Tool bash not found"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\nstdout %.4000s\nstderr %s", want, r.stdout, r.stderr)
		}
	}
}
