package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// site is a local web site: an HTML page, a 10 MB page, a binary, and a
// redirect to other (another host).
func site(t *testing.T, other string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Cookie") != "" || r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" {
			http.Error(w, "credentials sent", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(`<html><head><title>T</title></head><body><h1>Install</h1><p>Run <code>make</code> then <a href="/docs">read the docs</a>.</p></body></html>`))
	})
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/page", http.StatusFound) })
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/page", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		line := []byte(strings.Repeat("x", 1023) + "\n")
		for range 11 << 10 { // 11 MB
			if _, err := w.Write(line); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/bin", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte{0x7f, 'E', 'L', 'F', 0, 0, 1, 2})
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// asker answers every question with one option and counts them.
type asker struct {
	option approval.Option
	asked  []string
}

func (a *asker) Ask(_ context.Context, q core.Question) (core.Answer, core.Outcome) {
	a.asked = append(a.asked, q.Title+" "+q.Message)
	return core.Answer{Value: string(a.option)}, core.Answered
}

func fetchCall(u string) core.ToolCall {
	args, _ := json.Marshal(map[string]string{"url": u})
	return core.ToolCall{ID: "c", Name: "web_fetch", Arguments: args}
}

// run checks the call with the gate, then runs it if allowed.
func run(t *testing.T, g *approval.Gate, f *Fetch, a *asker, u string) (approval.Decision, core.ToolResult) {
	t.Helper()
	call := fetchCall(u)
	d := g.Check(context.Background(), f, call, a)
	if !d.Allow {
		return d, core.ToolResult{}
	}
	r, err := f.Execute(context.Background(), call, nil)
	if err != nil {
		t.Fatal(err)
	}
	return d, r
}

func text(r core.ToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

func TestWebFetchInEveryMode(t *testing.T) {
	b := site(t, "")
	a := site(t, b.URL)
	for _, tc := range []struct {
		mode approval.Mode
		asks bool
		runs bool
	}{
		{approval.ModeDefault, true, true},
		{approval.ModeAutoEdit, true, true},
		{approval.ModeAuto, false, true},
		{approval.ModeYolo, false, true},
		{approval.ModePlan, false, false},
	} {
		t.Run(string(tc.mode), func(t *testing.T) {
			g, _ := approval.Open(approval.Config{Mode: tc.mode, Dir: t.TempDir()})
			f := &Fetch{}
			ask := &asker{option: approval.OptionAllowSession}
			d, r := run(t, g, f, ask, a.URL+"/page")
			if (len(ask.asked) > 0) != tc.asks || d.Allow != tc.runs {
				t.Fatalf("asked %q, decision %+v", ask.asked, d)
			}
			if !tc.runs {
				if !strings.Contains(d.Reason, "plan mode") {
					t.Fatalf("plan mode's reason: %q", d.Reason)
				}
				return
			}
			if got := text(r); r.IsError || !strings.Contains(got, "# Install") || !strings.Contains(got, "Run `make` then [read the docs]("+a.URL+"/docs)") {
				t.Fatalf("page: %v %q", r.IsError, got)
			}
			// A redirect within the host is followed.
			if _, r := run(t, g, f, ask, a.URL+"/same"); !strings.Contains(text(r), "# Install") {
				t.Fatalf("same-host redirect: %q", text(r))
			}
			// A redirect to another host is reported, and fetching there is a
			// new question (the session rule names the first host only).
			asked := len(ask.asked)
			_, r = run(t, g, f, ask, a.URL+"/away")
			if !strings.Contains(text(r), "redirected to "+b.URL+"/page, on another host") {
				t.Fatalf("cross-host redirect: %q", text(r))
			}
			if len(ask.asked) != asked {
				t.Fatalf("the first host was asked about again")
			}
			_, r = run(t, g, f, ask, b.URL+"/page")
			if tc.asks && len(ask.asked) != asked+1 {
				t.Fatalf("fetching the other host asked %d questions", len(ask.asked)-asked)
			}
			if !strings.Contains(text(r), "# Install") {
				t.Fatalf("other host: %q", text(r))
			}
			// 10 MB are read, and the model gets at most MaxResultBytes.
			_, r = run(t, g, f, ask, a.URL+"/big")
			var det fetchDetails
			_ = json.Unmarshal(r.Details, &det)
			if got := text(r); r.IsError || det.Bytes != MaxBodyBytes || len(got) > MaxResultBytes+200 || !strings.Contains(got, "only the first 10 MB") {
				t.Fatalf("big page: %d bytes read, %d returned, tail %q", det.Bytes, len(got), got[max(0, len(got)-120):])
			}
			// Binary content is refused.
			if _, r := run(t, g, f, ask, a.URL+"/bin"); !r.IsError || !strings.Contains(text(r), "binary content") {
				t.Fatalf("binary: %q", text(r))
			}
		})
	}
}

func TestWebFetchPlanModeRunsForAllowedHosts(t *testing.T) {
	a := site(t, "")
	rules := t.TempDir() + "/approvals.json"
	g, _ := approval.Open(approval.Config{Mode: approval.ModeDefault, Dir: t.TempDir(), RulesFile: rules})
	f := &Fetch{}
	ask := &asker{option: approval.OptionAllowAlways}
	if d, _ := run(t, g, f, ask, a.URL+"/page"); !d.Allow || len(ask.asked) != 1 {
		t.Fatalf("default mode: %+v", d)
	}
	g.SetMode(approval.ModePlan)
	if d, r := run(t, g, f, ask, a.URL+"/page"); !d.Allow || len(ask.asked) != 1 || !strings.Contains(text(r), "# Install") {
		t.Fatalf("plan mode, allowed host: %+v", d)
	}
	if !g.Declares(f) {
		t.Fatal("web_fetch hidden in plan mode")
	}
}

func TestWebFetchRefusedWhenTheSandboxNetworkIsOff(t *testing.T) {
	a := site(t, "")
	port := a.URL[strings.LastIndex(a.URL, ":")+1:]
	for _, tc := range []struct {
		name    string
		network *sandbox.Network
		refused string
	}{
		{"off", nil, "the sandbox's network is off"},
		{"other hosts only", &sandbox.Network{Allow: []string{"example.org:443"}}, "allows only example.org:443"},
		{"this host listed", &sandbox.Network{Allow: []string{"127.0.0.1:" + port}}, ""},
		{"on", &sandbox.Network{Open: true}, ""},
	} {
		for _, mode := range approval.Modes() {
			if mode == approval.ModePlan {
				continue
			}
			t.Run(tc.name+"/"+string(mode), func(t *testing.T) {
				cfg := sandbox.Config{Enabled: true, Network: tc.network}
				f := &Fetch{Allowed: SandboxAllows(func() sandbox.Config { return cfg })}
				g, _ := approval.Open(approval.Config{Mode: mode, Dir: t.TempDir()})
				_, r := run(t, g, f, &asker{option: approval.OptionAllowOnce}, a.URL+"/page")
				if tc.refused == "" {
					if r.IsError {
						t.Fatalf("refused: %q", text(r))
					}
					return
				}
				if !r.IsError || !strings.Contains(text(r), tc.refused) {
					t.Fatalf("result %v %q, want refused: %q", r.IsError, text(r), tc.refused)
				}
			})
		}
	}
}

func TestWebFetchCachesPages(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits++
		_, _ = w.Write([]byte("plain text"))
	}))
	defer srv.Close()
	f := &Fetch{}
	for range 3 {
		r, _ := f.Execute(context.Background(), fetchCall(srv.URL+"/x"), nil)
		if text(r) != "plain text" {
			t.Fatalf("text %q", text(r))
		}
	}
	if hits != 1 {
		t.Fatalf("%d requests for three fetches within the cache's time", hits)
	}
}

func TestWebFetchRefusesOtherSchemes(t *testing.T) {
	for _, u := range []string{"file:///etc/passwd", "ftp://example.org/x", "http://", "not a url"} {
		r, _ := (&Fetch{}).Execute(context.Background(), fetchCall(u), nil)
		if !r.IsError || !strings.Contains(text(r), "http or https URL") {
			t.Errorf("%q: %q", u, text(r))
		}
	}
}

func TestWebFetchAlwaysRuleNamesTheHost(t *testing.T) {
	b := site(t, "")
	a := site(t, "")
	dir, rules := t.TempDir(), t.TempDir()+"/approvals.json"
	g, _ := approval.Open(approval.Config{Dir: dir, RulesFile: rules})
	f := &Fetch{}
	ask := &asker{option: approval.OptionAllowAlways}
	if d, _ := run(t, g, f, ask, a.URL+"/page"); !d.Allow || len(ask.asked) != 1 || !strings.Contains(ask.asked[0], "web_fetch: "+strings.TrimPrefix(a.URL, "http://")) {
		t.Fatalf("decision %+v, questions %q", d, ask.asked)
	}
	// A new session of the project: the host is remembered, another is not.
	g, err := approval.Open(approval.Config{Dir: dir, RulesFile: rules})
	if err != nil {
		t.Fatal(err)
	}
	ask = &asker{option: approval.OptionDeny}
	if d, _ := run(t, g, f, ask, a.URL+"/other"); !d.Allow || len(ask.asked) != 0 {
		t.Fatalf("remembered host: %+v, asked %q", d, ask.asked)
	}
	if d, _ := run(t, g, f, ask, b.URL+"/page"); d.Allow || len(ask.asked) != 1 {
		t.Fatalf("another host: %+v, asked %q", d, ask.asked)
	}
	if got := g.Rules(approval.ScopeAlways); len(got) != 1 || got[0].Host != strings.TrimPrefix(a.URL, "http://") {
		t.Fatalf("rules %+v", got)
	}
}

func TestWebFetchConcurrentCalls(t *testing.T) {
	a := site(t, "")
	f := &Fetch{}
	done := make(chan string, 4)
	for i := range 4 {
		go func() {
			r, _ := f.Execute(context.Background(), fetchCall(a.URL+"/page?n="+string(rune('a'+i))), nil)
			done <- text(r)
		}()
	}
	for range 4 {
		if got := <-done; !strings.Contains(got, "# Install") {
			t.Fatalf("%q", got)
		}
	}
}
