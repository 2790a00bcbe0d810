package catalog

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/oauth/oauthtest"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/pihome/pihometest"
)

// TestPiReadsTheRefreshedToken: after cairn refreshed an expired
// Anthropic token in pi's auth.json (against a fake token endpoint), pi
// 0.87.1 itself reads the file and sends the new token to the model (a
// fake Anthropic endpoint): the file is in the shape pi expects and pi
// sees no need to refresh it again.
func TestPiReadsTheRefreshedToken(t *testing.T) {
	pi := pihometest.Command(t)
	var mu sync.Mutex
	var auth []string
	model := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range []string{
			`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-opus-4-6","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}`,
			`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
			`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"pong"}}`,
			`{"type":"content_block_stop","index":0}`,
			`{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`,
			`{"type":"message_stop"}`,
		} {
			kind := strings.SplitN(strings.SplitN(ev, `"type":"`, 2)[1], `"`, 2)[0]
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", kind, ev)
		}
	}))
	defer model.Close()

	home := t.TempDir()
	dir := filepath.Join(home, ".pi", "agent")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"auth.json":   `{"openai": {"type": "api_key", "key": "sk-o"}, "anthropic": {"type": "oauth", "access": "sk-ant-oat01-old", "refresh": "sk-ant-ort01-old", "expires": 1}}`,
		"models.json": `{"providers": {"anthropic": {"baseUrl": "` + model.URL + `"}}}`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f := oauthtest.New(t)
	f.Access, f.Refresh = "sk-ant-oat01-new", "sk-ant-ort01-new"
	c, err := Load(Options{PiDir: dir, Getenv: env(nil), OAuth: &oauth.Client{Origin: f.URL}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := c.Find("anthropic", "claude-opus-4-6")
	if err != nil {
		t.Fatal(err)
	}
	if cr, err := c.Credentials(m); err != nil || cr.APIKey != "sk-ant-oat01-new" {
		t.Fatalf("refresh: %q, %v", cr.APIKey, err)
	}
	written, _ := os.ReadFile(pihome.AuthFile(dir))

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, pi[0], append(pi[1:], "-p", "ping", "--provider", "anthropic", "--model", "claude-opus-4-6")...)
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	cmd.Dir = home
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pong") {
		t.Fatalf("pi: %v\n%s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(auth) == 0 || auth[0] != "Bearer sk-ant-oat01-new" {
		t.Errorf("pi sent Authorization %q, want the refreshed token", auth)
	}
	if after, _ := os.ReadFile(pihome.AuthFile(dir)); string(after) != string(written) {
		t.Errorf("pi rewrote auth.json (it saw the refreshed token as expired?):\n%s\nwas\n%s", after, written)
	}
}
