package pi

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/export"
	"github.com/cairn-dev/cairn/core/provider/faux"
	"github.com/cairn-dev/cairn/core/session"
)

// sessionWith returns a session file in dir holding one exchange, or only
// a user message (not yet on disk) when answered is false.
func sessionWith(t *testing.T, dir string, answered bool) *session.File {
	t.Helper()
	f := session.Store{Dir: dir}.Create(dir)
	t.Cleanup(func() { f.Close() })
	if _, err := f.AppendMessage(&core.UserMessage{Content: []core.Content{core.TextBlock("export me <script>alert(1)</script>")}, Timestamp: 1}); err != nil {
		t.Fatal(err)
	}
	if answered {
		if _, err := f.AppendMessage(&core.AssistantMessage{Content: []core.Content{core.TextBlock("Done, **exported**.")},
			Provider: "faux", Model: "faux-1", StopReason: core.StopEnd, Timestamp: 2}); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func exportRig(t *testing.T, f *session.File) *rig {
	dir := filepath.Dir(f.FilePath())
	return newRig(t, rigConfig{faux: faux.New(faux.Options{}), conversations: agent.NewFileConversations(session.Store{Dir: dir}, dir, f)})
}

func TestExportHTML(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	f := sessionWith(t, dir, true)
	r := exportRig(t, f)
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(t.TempDir(), "given.html")
	cases := []struct {
		name string
		cmd  map[string]any
		want string
	}{
		{"absolute path", map[string]any{"id": "a", "type": "export_html", "outputPath": abs}, abs},
		{"relative path", map[string]any{"id": "b", "type": "export_html", "outputPath": "out/page.html"}, filepath.Join(dir, "out", "page.html")},
		{"default name", map[string]any{"id": "c", "type": "export_html"},
			filepath.Join(dir, "cairn-session-"+strings.TrimSuffix(filepath.Base(f.FilePath()), ".jsonl")+".html")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r.send(c.cmd)
			res := r.response(c.cmd["id"].(string))
			want := `{"id":"` + c.cmd["id"].(string) + `","type":"response","command":"export_html","success":true,"data":{"path":` + quote(c.want) + `}}`
			if res.text != want {
				t.Fatalf("got  %s\nwant %s", res.text, want)
			}
			page, err := os.ReadFile(c.want)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"export me &lt;script&gt;", "<strong>exported</strong>", "faux/faux-1"} {
				if !strings.Contains(string(page), s) {
					t.Errorf("page lacks %q", s)
				}
			}
			if strings.Contains(string(page), "<script") {
				t.Error("page holds a script")
			}
		})
	}
}

func TestExportHTMLErrors(t *testing.T) {
	dir := t.TempDir()
	r := exportRig(t, sessionWith(t, dir, true))
	missing := filepath.Join(dir, "no-such-dir", "x.html")
	r.send(map[string]any{"id": "m", "type": "export_html", "outputPath": missing})
	expectError(t, r.response("m"), "cannot export to HTML: export to "+missing+": no such file or directory")
	r.send(map[string]any{"id": "n", "type": "export_html", "outputPath": 42})
	if res := r.response("n"); res.get("success") != false || !strings.Contains(res.str("error"), `"outputPath"`) {
		t.Errorf("outputPath 42: %s", res.text)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("a failed export left files behind: %v", entries)
	}

	fresh := exportRig(t, sessionWith(t, t.TempDir(), false))
	fresh.send(map[string]any{"id": "f", "type": "export_html"})
	expectError(t, fresh.response("f"), errNothingToExport.Error())
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `\`, `\\`) + `"` }

// exportHTML is the exporter cmd/cairn gives rpc mode in its full build.
func exportHTML(_ context.Context, file, out, model string) (string, error) {
	return export.Session(file, out, model, export.Options{})
}
