package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkBuildAppMCP measures building a session with no MCP server and
// with five configured servers that never answer: start-up must not wait
// for them.
//
//	go test -run XXX -bench BuildAppMCP -benchtime 20x ./cmd/cairn/
func BenchmarkBuildAppMCP(b *testing.B) {
	for _, n := range []int{0, 5} {
		b.Run(fmt.Sprintf("servers=%d", n), func(b *testing.B) {
			b.Chdir(b.TempDir())
			home := b.TempDir()
			servers := map[string]any{}
			for i := range n {
				servers[fmt.Sprintf("s%d", i)] = map[string]any{"command": "sleep", "args": []string{"60"}}
			}
			writeMCPConfig(b, filepath.Join(home, "mcp.json"), servers)
			script := filepath.Join(b.TempDir(), "script.json")
			writeMCPConfig(b, script, nil) // any JSON: the faux model is never asked
			vars := map[string]string{"CAIRN_DIR": home, "CAIRN_FAUX_SCRIPT": script}
			env := newEnvironment(func(k string) string { return vars[k] })
			b.ReportAllocs()
			for b.Loop() {
				var errb strings.Builder
				a, err := buildApp(IOStreams{Err: &errb}, env, &Options{Provider: "faux", NoSession: true}, false)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				a.close()
				b.StartTimer()
			}
		})
	}
}
