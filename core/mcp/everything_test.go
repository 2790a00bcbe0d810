package mcp

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// serversDir holds the npm servers the tests run (package.json and lock);
// CI installs them with npm ci.
const serversDir = "testdata/servers"

// nodeServer returns the path of an npm server's entry script, skipping
// the test when node or the packages are missing (failing under CI).
func nodeServer(t *testing.T, pkg string) (node, script string) {
	t.Helper()
	skip := t.Skipf
	if os.Getenv("CI") != "" {
		skip = t.Fatalf
	}
	node, err := exec.LookPath("node")
	if err != nil {
		skip("node is not installed")
	}
	script, _ = filepath.Abs(filepath.Join(serversDir, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if _, err := os.Stat(script); err != nil {
		skip("%s is missing: run npm ci --prefix core/mcp/testdata/servers --ignore-scripts --no-audit --no-fund", script)
	}
	return node, script
}

func everythingStdio(t *testing.T) Server {
	node, script := nodeServer(t, "server-everything")
	return Server{Name: "everything", Source: "test", Transport: TransportStdio, Command: node, Args: []string{script, "stdio"},
		Dir: t.TempDir(), Timeout: DefaultTimeout}
}

func readyManager(t *testing.T, servers ...Server) *Manager {
	t.Helper()
	m, rep := startOne(t, servers...)
	for _, s := range servers {
		if _, err := m.Conn(waitCtx(t, 60*time.Second), s.Name); err != nil {
			rep.mu.Lock()
			t.Fatalf("%s: %v %q", s.Name, err, rep.all)
		}
	}
	return m
}

func TestEverythingStdioTools(t *testing.T) {
	m := readyManager(t, everythingStdio(t))

	echo := toolNamed(t, m, "mcp__everything__echo")
	if res := call(t, echo, `{"message":"hello"}`); res.IsError || !strings.Contains(text(res), "hello") {
		t.Errorf("echo: %+v", res)
	}
	if echo.Kind() != core.KindRead || !strings.Contains(echo.HintText(), "read-only") {
		t.Errorf("echo hints: kind %s, %q", echo.Kind(), echo.HintText())
	}
	spec := echo.Spec()
	if !strings.Contains(string(spec.Parameters), `"message"`) || spec.Description == "" {
		t.Errorf("echo spec %+v", spec)
	}

	img := call(t, toolNamed(t, m, "mcp__everything__get-tiny-image"), `{}`)
	var images int
	for _, c := range img.Content {
		if c.Type == core.ContentImage && c.MimeType == "image/png" && len(c.Data) > 100 {
			images++
		}
	}
	if img.IsError || images != 1 {
		t.Errorf("tiny image: %d images in %+v", images, img.IsError)
	}

	links := call(t, toolNamed(t, m, "mcp__everything__get-resource-links"), `{"count":2}`)
	if links.IsError || strings.Count(text(links), "Resource link: ") != 2 || !strings.Contains(text(links), "<demo://") {
		t.Errorf("resource links: %s", text(links))
	}

	// The link's target can be read with the resource tools.
	uri := text(links)[strings.Index(text(links), "<demo://")+1:]
	uri = uri[:strings.IndexByte(uri, '>')]
	tools := ResourceTools(m)
	read := call(t, tools[1], fmt.Sprintf(`{"server":"everything","uri":%q}`, uri))
	if read.IsError || !strings.Contains(text(read), "Resource: <"+uri+">") {
		t.Errorf("read %s: %+v", uri, read)
	}
	list := call(t, tools[0], `{"server":"everything"}`)
	if list.IsError || !strings.HasPrefix(text(list), "everything:\n  demo://") {
		t.Errorf("list: %.300s", text(list))
	}
	if res := call(t, tools[1], `{"server":"nope","uri":"x://y"}`); !res.IsError || !strings.Contains(text(res), `no MCP server named "nope"`) {
		t.Errorf("unknown server: %+v", res)
	}
}

// A server gets what programs need and its own env, not cairn's secrets.
func TestServerEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "sk-secret-of-cairn")
	s := everythingStdio(t)
	s.Env = map[string]string{"SERVER_TOKEN": "given"}
	m := readyManager(t, s)
	got := text(call(t, toolNamed(t, m, "mcp__everything__get-env"), `{}`))
	if strings.Contains(got, "sk-secret-of-cairn") || !strings.Contains(got, "given") || !strings.Contains(got, "PATH") {
		t.Errorf("server environment: %.500s", got)
	}
}

func TestEverythingProgressBecomesToolUpdates(t *testing.T) {
	m := readyManager(t, everythingStdio(t))
	tool := toolNamed(t, m, "mcp__everything__trigger-long-running-operation")
	var mu sync.Mutex
	var updates []string
	res, err := tool.Execute(waitCtx(t, 30*time.Second), core.ToolCall{ID: "p", Arguments: []byte(`{"duration":0.3,"steps":3}`)}, func(u core.ToolUpdate) {
		mu.Lock()
		defer mu.Unlock()
		updates = append(updates, u.Content[0].Text)
	})
	if err != nil || res.IsError {
		t.Fatalf("%v %+v", err, res)
	}
	mu.Lock()
	defer mu.Unlock()
	// The last notification may race the result and be dropped; the
	// earlier ones arrive, in order.
	want := []string{"progress 1/3 (33%)", "progress 2/3 (67%)", "progress 3/3 (100%)"}
	if len(updates) < 2 || len(updates) > 3 || strings.Join(updates, "|") != strings.Join(want[:len(updates)], "|") {
		t.Errorf("updates %q, want %q", updates, want)
	}
}

// startHTTPEverything runs server-everything over HTTP in mode
// (streamableHttp or sse) and returns its port once it listens.
func startHTTPEverything(t *testing.T, mode string) string {
	t.Helper()
	node, script := nodeServer(t, "server-everything")
	port := freePort(t)
	cmd := exec.Command(node, script, mode)
	cmd.Env = append(os.Environ(), "PORT="+port)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	listening := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		once := sync.Once{}
		for sc.Scan() {
			if strings.Contains(sc.Text(), "on port "+port) {
				once.Do(func() { close(listening) })
			}
		}
	}()
	select {
	case <-listening:
	case <-time.After(30 * time.Second):
		t.Fatalf("the %s server did not start", mode)
	}
	return port
}

func TestEverythingSSEFallback(t *testing.T) {
	port := startHTTPEverything(t, "sse")
	// A plain URL entry: streamable HTTP is refused, the older SSE
	// transport is tried next.
	m := readyManager(t, Server{Name: "old", Source: "test", Transport: TransportHTTP, URL: "http://127.0.0.1:" + port + "/sse", Timeout: DefaultTimeout})
	if res := call(t, toolNamed(t, m, "mcp__old__echo"), `{"message":"over sse"}`); res.IsError || !strings.Contains(text(res), "over sse") {
		t.Errorf("echo: %+v", res)
	}
}

func TestEverythingStreamableHTTP(t *testing.T) {
	port := startHTTPEverything(t, "streamableHttp")
	s := Server{Name: "web", Source: "test", Transport: TransportHTTP, URL: "http://127.0.0.1:" + port + "/mcp",
		Headers: map[string]string{"X-Test": "1"}, Timeout: DefaultTimeout}
	m := readyManager(t, s)
	if res := call(t, toolNamed(t, m, "mcp__web__echo"), `{"message":"over http"}`); res.IsError || !strings.Contains(text(res), "over http") {
		t.Errorf("echo: %+v", res)
	}
	// Over HTTP the last notification may race the result and be
	// dropped (update may not be called after Execute returns); the
	// earlier ones, sent well before the end, must arrive in order.
	var mu sync.Mutex
	var updates []string
	res, err := toolNamed(t, m, "mcp__web__trigger-long-running-operation").Execute(waitCtx(t, 30*time.Second),
		core.ToolCall{Arguments: []byte(`{"duration":0.6,"steps":3}`)}, func(u core.ToolUpdate) {
			mu.Lock()
			defer mu.Unlock()
			updates = append(updates, u.Content[0].Text)
		})
	mu.Lock()
	defer mu.Unlock()
	if err != nil || res.IsError || len(updates) < 2 || updates[0] != "progress 1/3 (33%)" || updates[1] != "progress 2/3 (67%)" {
		t.Errorf("progress over http: %q, %v %+v", updates, err, res)
	}
}

func TestFilesystemServer(t *testing.T) {
	node, script := nodeServer(t, "server-filesystem")
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("cairn was here"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := readyManager(t, Server{Name: "fs", Source: "test", Transport: TransportStdio, Command: node, Args: []string{script, root},
		Dir: root, Timeout: DefaultTimeout})
	res := call(t, toolNamed(t, m, "mcp__fs__read_text_file"), fmt.Sprintf(`{"path":%q}`, filepath.Join(root, "notes.txt")))
	if res.IsError || !strings.Contains(text(res), "cairn was here") {
		t.Errorf("read: %+v", res)
	}
	res = call(t, toolNamed(t, m, "mcp__fs__read_text_file"), `{"path":"/etc/passwd"}`)
	if !res.IsError {
		t.Errorf("reading outside the root was not an error: %s", text(res))
	}
	if w := toolNamed(t, m, "mcp__fs__write_file"); w.Kind() == core.KindRead {
		t.Error("write_file is marked read-only")
	}
}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	_, port, _ := net.SplitHostPort(l.Addr().String())
	return port
}
