package main

import (
	"fmt"
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
