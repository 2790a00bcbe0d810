package main

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebFetchThroughCairn: the model's web_fetch reaches a local page in
// yolo mode and the next request carries it as Markdown; unattended
// default mode refuses it unasked; the sandbox's network "off" refuses it
// even in yolo.
func TestWebFetchThroughCairn(t *testing.T) {
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<h2>Release notes</h2><ul><li>faster</li></ul>`))
	}))
	defer page.Close()
	for _, tc := range []struct {
		name, mode, settings, want string
	}{
		{"yolo", "yolo", `{}`, `## Release notes\n\n- faster`},
		{"default, unattended", "default", `{}`, "needs approval and no one was asked"},
		{"sandbox network off", "yolo", `{"sandbox": {"enabled": true}}`, "the sandbox's network is off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			project := t.TempDir()
			t.Chdir(project)
			vars := map[string]string{"CAIRN_DIR": t.TempDir(), "DEEPSEEK_API_KEY": "sk-test"}
			writeFile(t, filepath.Join(vars["CAIRN_DIR"], "settings.json"), tc.settings)
			srv, bodies := toolCallServer(t, "web_fetch", map[string]string{"url": page.URL + "/notes"})
			r := invoke(t, vars, nil, "--provider", "deepseek", "--model", "deepseek-chat", "--base-url", srv.URL,
				"--approval", tc.mode, "--no-session", "--mode", "json", "-p", "what changed?")
			got := bodies()
			if r.code != 0 || len(got) != 2 {
				t.Fatalf("exit %d, %d requests\n%s", r.code, len(got), r.stderr)
			}
			tool := got[1][strings.Index(got[1], `"role":"tool"`):]
			if !strings.Contains(tool, tc.want) {
				t.Fatalf("the tool result lacks %q:\n%s", tc.want, tool)
			}
			if tc.name != "yolo" && strings.Contains(tool, "Release notes") {
				t.Fatalf("the page was fetched: %s", tool)
			}
		})
	}
}
