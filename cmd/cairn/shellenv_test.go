package main

import (
	"os"
	"path/filepath"
	"testing"
)

// rpc bash starts without the keys cairn knows of, models.json's own
// variables included ($NAME and ${NAME}, as pi reads them), and with
// what the person's settings pass.
func TestRPCBashEnvironmentFollowsSettings(t *testing.T) {
	home := t.TempDir()
	files := map[string]string{
		"models.json": `{"providers": {"acme": {"baseUrl": "http://127.0.0.1:9/v1", "api": "openai-completions",
			"apiKey": "$ACME_LLM", "headers": {"X-Team": "${ACME_TEAM}"}, "models": [{"id": "m"}]}}}`,
		"settings.json": `{"shellEnvironment": {"passthrough": ["GITHUB_TOKEN"]}}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for k, v := range map[string]string{"ACME_LLM": "acme-secret", "ACME_TEAM": "team-secret",
		"OPENAI_API_KEY": "sk-secret", "GITHUB_TOKEN": "gh-passed"} {
		t.Setenv(k, v)
	}
	t.Chdir(t.TempDir())
	c, _ := startBridgeChild(t, home, writeScript(t, `{"responses": []}`),
		"--provider", "faux", "--mode", "rpc", "--no-session")
	c.send(`{"id":"b","type":"bash","command":"echo \"[$ACME_LLM][$ACME_TEAM][$OPENAI_API_KEY][$GITHUB_TOKEN]\""}`)
	_, f := c.until("bash", "b")
	data, _ := f["data"].(map[string]any)
	if got := data["output"]; got != "[][][][gh-passed]\n" {
		t.Errorf("bash output %q, want only the passed token", got)
	}
}
