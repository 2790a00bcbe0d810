package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// askModelExt is a pi extension whose tool asks the session's model, with
// pi-ai's complete, and answers what it said and which model it was.
const askModelExt = `import { complete } from "@earendil-works/pi-ai";
import { Type } from "@earendil-works/pi-ai";
export default function (pi) {
  pi.registerTool({
    name: "ask_model", label: "Ask", description: "Asks the model.", parameters: Type.Object({}),
    async execute(_id, _params, signal, _onUpdate, ctx) {
      const r = await complete(ctx.model, { systemPrompt: "inner", messages: [{ role: "user", content: [{ type: "text", text: "hi" }], timestamp: Date.now() }] }, { signal });
      const text = r.content.filter((c) => c.type === "text").map((c) => c.text).join("");
      return { content: [{ type: "text", text: "asked " + ctx.model.provider + ": " + text + " (" + r.stopReason + ")" }] };
    },
  });
}
`

// A pi extension's completion runs through the session's own provider:
// the faux model answers the extension's request between the session's.
func TestPiExtensionCompletesThroughSession(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	ext := filepath.Join(t.TempDir(), "ask.ts")
	if err := os.WriteFile(ext, []byte(askModelExt), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "ask_model", "arguments": {}}]},
  {"text": "inner answer"},
  {"text": "Done."}
]}`
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, script)}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-e", ext, "-p", "ask")
	if !strings.Contains(r.stdout, "asked faux: inner answer (stop)") {
		t.Fatalf("exit %d\nstdout %.3000s\nstderr %s", r.code, r.stdout, r.stderr)
	}
}
