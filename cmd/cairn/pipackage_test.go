package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pipackages is a published pi package (pi-web-access 0.28.0, MIT, from
// npm) installed as `cairn install` installs one into ~/.cairn/npm: .ci/run
// runs npm ci there.
const pipackages = "testdata/pipackages"

// A published pi package, installed from npm and named in the "packages"
// setting, loads and works: the model calls its fetch_content tool on a
// local page, which it fetches and turns into text as in pi. The package's
// own setting lets it fetch from the loopback address (it refuses private
// addresses by default).
func TestPublishedPiPackageWorks(t *testing.T) {
	needProgram(t, "node")
	npm, err := filepath.Abs(pipackages)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(npm, "node_modules", "pi-web-access", "package.json")); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI installs %s with npm ci (.ci/run): %v", pipackages, err)
		}
		t.Skipf("run `npm ci --prefix cmd/cairn/%s --ignore-scripts --legacy-peer-deps` first", pipackages)
	}
	page, err := os.ReadFile("testdata/cairn-field-notes.html")
	if err != nil {
		t.Fatal(err)
	}
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer site.Close()

	home, dir := t.TempDir(), t.TempDir()
	t.Chdir(t.TempDir())
	write := func(path, body string) {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(npm, filepath.Join(dir, "npm")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(dir, "settings.json"), `{"packages": ["npm:pi-web-access"]}`)
	write(filepath.Join(home, ".pi", "web-search.json"), `{"ssrf": {"allowRanges": ["127.0.0.0/8"]}}`)
	script := `{"responses": [
  {"content": [{"type": "toolCall", "id": "c1", "name": "fetch_content", "arguments": {"url": "` + site.URL + `/notes.html"}}]},
  {"text": "Read it."}
]}`
	vars := map[string]string{
		"PATH": os.Getenv("PATH"), "HOME": home, "CAIRN_DIR": dir, "CAIRN_FAUX_SCRIPT": writeScript(t, script),
		// A cold first load (Babel, 136 npm packages) on a busy machine.
		"CAIRN_PI_START_MS": "120000", "CAIRN_MCP_STARTUP_MS": "120000",
	}
	r := invoke(t, vars, nil, "--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-p", "read the notes")
	want := "On high moorland a line of cairns is often the only way to find the path in mist."
	if r.code != 0 || !strings.Contains(r.stdout, want) || strings.Contains(r.stdout, "<p>") {
		t.Fatalf("exit %d\nstdout (the end) %s\nstderr %s", r.code, r.stdout[max(0, len(r.stdout)-3000):], r.stderr)
	}
}
