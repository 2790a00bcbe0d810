package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// With no provider configured, cairn still speaks ACP: initialize offers
// the set-up as an authentication method, and session/new fails with
// auth_required saying what to set, where an editor shows it (today's
// code exited 1 before answering anything).
func TestACPWithoutCredentialsSaysWhatToSet(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(t.TempDir())
	d := startACPArgs(t, map[string]string{"CAIRN_DIR": dir, "HOME": dir}, "--mode", "acp")
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	init := d.await(t, 1)
	methods, _ := init["result"].(map[string]any)["authMethods"].([]any)
	if len(methods) != 1 || !strings.Contains(fmt.Sprint(methods[0]), "ANTHROPIC_API_KEY") {
		t.Fatalf("authMethods = %v, want the set-up naming the variables", methods)
	}
	d.send(2, "session/new", map[string]any{"cwd": dir, "mcpServers": []any{}})
	res := d.await(t, 2)
	e, _ := res["error"].(map[string]any)
	if e == nil || e["code"] != float64(-32000) || !strings.Contains(fmt.Sprint(e["message"]), "OPENAI_API_KEY") || !strings.Contains(fmt.Sprint(e["message"]), "models.json") {
		t.Fatalf("session/new without credentials = %v, want auth_required saying what to set", res)
	}
	d.send(3, "authenticate", map[string]any{"methodId": "cairn-provider-setup"})
	if e, _ := d.await(t, 3)["error"].(map[string]any); e == nil || e["code"] != float64(-32000) {
		t.Errorf("authenticate without credentials = %v, want auth_required", e)
	}
	d.finish(t)
}

// An untrusted project's files are left out; the editor's user is told so
// in the session, at the start of its first turn only (stderr, where the
// notice went before, is not shown by editors).
func TestACPUntrustedProjectToldInTheSession(t *testing.T) {
	proj, dir := t.TempDir(), t.TempDir()
	t.Chdir(t.TempDir())
	writeFile(t, filepath.Join(proj, "AGENTS.md"), "Always answer in French.\n")
	script := writeScript(t, `{"responses":[{"text":"first"},{"text":"second"}]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": dir, "HOME": dir, "CAIRN_FAUX_SCRIPT": script})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	d.send(2, "session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	sid, _ := d.await(t, 2)["result"].(map[string]any)["sessionId"].(string)
	told := 0
	for i, text := range []string{"one", "two"} {
		id := 3 + i
		d.send(id, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
		for {
			m := d.next(t, "the prompt's answer", func(map[string]any) bool { return true })
			if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				break
			}
			if chunk := fmt.Sprint(m["params"]); strings.Contains(chunk, "AGENTS.md") && strings.Contains(chunk, "--trust-project") {
				if i != 0 {
					t.Errorf("the notice came again in turn %d: %s", i+1, chunk)
				}
				told++
			}
		}
	}
	if told != 1 {
		t.Errorf("the untrusted project's notice came %d times, want once", told)
	}
	d.finish(t)
}
