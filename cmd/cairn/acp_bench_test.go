package main

import (
	"fmt"
	"runtime"
	"testing"
)

// BenchmarkACPSessions reports what an open idle ACP session costs (heap
// after a GC, per session, over the sessions opened on one connection, each
// a session of its own as an editor's thread is) and a turn's latency with
// 1 and 10 sessions open (ns/op: session/prompt to its answer, the faux
// model answering at once; turns go round the sessions).
func BenchmarkACPSessions(b *testing.B) {
	for _, n := range []int{1, 10} {
		b.Run(fmt.Sprintf("open=%d", n), func(b *testing.B) { benchACPSessions(b, n) })
	}
}

func benchACPSessions(b *testing.B, sessions int) {
	dir := b.TempDir()
	b.Chdir(b.TempDir())
	script := writeScript(b, `{"whenExhausted":"ok","responses":[]}`)
	d := startACP(b, map[string]string{"CAIRN_DIR": dir, "HOME": dir, "CAIRN_FAUX_SCRIPT": script})
	d.send(1, "initialize", map[string]any{"protocolVersion": 1})
	d.await(b, 1)
	cwd := b.TempDir()
	heap := func() uint64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	id := 2
	var sids []string
	before := heap()
	for range sessions {
		d.send(id, "session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
		res := d.await(b, id)
		id++
		sid, _ := res["result"].(map[string]any)["sessionId"].(string)
		if sid == "" {
			b.Fatalf("session/new: %v", res)
		}
		sids = append(sids, sid)
	}
	perSession := float64(heap()-before) / float64(sessions) / 1024
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d.send(id, "session/prompt", map[string]any{"sessionId": sids[i%sessions], "prompt": []any{map[string]any{"type": "text", "text": fmt.Sprint("turn ", i)}}})
		if r := d.await(b, id); fmt.Sprint(r["result"]) != "map[stopReason:end_turn]" {
			b.Fatalf("prompt: %v", r)
		}
		id++
	}
	b.StopTimer()
	b.ReportMetric(perSession, "KiB/idle-session")
	d.finish(b)
}
