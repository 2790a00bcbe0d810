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
	told, offers := 0, 0
	for i, text := range []string{"one", "two"} {
		id := 3 + i
		d.send(id, "session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
		for {
			m := d.next(t, "the prompt's answer", func(map[string]any) bool { return true })
			if fmt.Sprint(m["id"]) == fmt.Sprint(id) {
				break
			}
			if m["method"] == "session/request_permission" {
				offers++
				continue
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
	if offers != 1 {
		t.Errorf("trust was offered %d times, want once", offers)
	}
	d.finish(t)
}

// Accepting the offer to trust the project records it, as --trust-project
// does: a thread opened afterwards uses the project's files and says
// nothing more about trust.
func TestACPTrustOfferRecordsTrust(t *testing.T) {
	proj, dir := t.TempDir(), t.TempDir()
	t.Chdir(t.TempDir())
	writeFile(t, filepath.Join(proj, "AGENTS.md"), "Always answer in French.\n")
	script := writeScript(t, `{"whenExhausted":"ok","responses":[]}`)
	d := startACP(t, map[string]string{"CAIRN_DIR": dir, "HOME": dir, "CAIRN_FAUX_SCRIPT": script})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(t, 1)
	d.send(2, "session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	first, _ := d.await(t, 2)["result"].(map[string]any)["sessionId"].(string)
	d.send(3, "session/prompt", map[string]any{"sessionId": first, "prompt": []any{map[string]any{"type": "text", "text": "hi"}}})
	offer := d.request(t, "session/request_permission")
	d.answer(t, offer, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "trust_project"}})
	answered, told := false, false
	for !answered || !told {
		m := d.next(t, "the answer and the trusted notice", func(map[string]any) bool { return true })
		answered = answered || fmt.Sprint(m["id"]) == "3"
		told = told || strings.Contains(fmt.Sprint(m["params"]), "Trusted "+proj)
	}
	d.send(4, "session/new", map[string]any{"cwd": proj, "mcpServers": []any{}})
	second, _ := d.await(t, 4)["result"].(map[string]any)["sessionId"].(string)
	d.send(5, "session/prompt", map[string]any{"sessionId": second, "prompt": []any{map[string]any{"type": "text", "text": "again"}}})
	for {
		m := d.next(t, "the second thread's answer", func(map[string]any) bool { return true })
		if fmt.Sprint(m["id"]) == "5" {
			break
		}
		if m["method"] == "session/request_permission" || strings.Contains(fmt.Sprint(m["params"]), "not trusted") {
			t.Errorf("the trusted project was still treated as untrusted: %v", m)
		}
	}
	d.finish(t)
}
