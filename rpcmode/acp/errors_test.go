package acp

import (
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	r := newRig(t, rigConfig{maxFrame: 1024})
	sid := r.newSession()
	cases := []struct {
		name  string
		frame string
		id    any // the id the error answers, nil for null
		code  int
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method"`, nil, CodeParseError},
		{"garbage", `hello`, nil, CodeParseError},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, nil, CodeInvalidRequest},
		{"a string", `"initialize"`, nil, CodeInvalidRequest},
		{"no jsonrpc", `{"id":101,"method":"initialize","params":{"protocolVersion":1}}`, float64(101), CodeInvalidRequest},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":102,"method":"initialize"}`, float64(102), CodeInvalidRequest},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"initialize"}`, nil, CodeInvalidRequest},
		{"method not a string", `{"jsonrpc":"2.0","id":103,"method":7}`, float64(103), CodeInvalidRequest},
		{"neither request nor response", `{"jsonrpc":"2.0","id":104}`, float64(104), CodeInvalidRequest},
		{"unknown method", `{"jsonrpc":"2.0","id":"s1","method":"session/fly","params":{}}`, "s1", CodeMethodNotFound},
		{"params not an object or array", `{"jsonrpc":"2.0","id":105,"method":"session/new","params":"x"}`, float64(105), CodeInvalidRequest},
		{"new without cwd", `{"jsonrpc":"2.0","id":106,"method":"session/new","params":{"mcpServers":[]}}`, float64(106), CodeInvalidParams},
		{"new with a relative cwd", `{"jsonrpc":"2.0","id":107,"method":"session/new","params":{"cwd":"proj","mcpServers":[]}}`, float64(107), CodeInvalidParams},
		{"new with another cwd", `{"jsonrpc":"2.0","id":108,"method":"session/new","params":{"cwd":"/nonexistent/elsewhere","mcpServers":[]}}`, float64(108), CodeInvalidParams},
		{"cwd of the wrong type", `{"jsonrpc":"2.0","id":109,"method":"session/new","params":{"cwd":5}}`, float64(109), CodeInvalidParams},
		{"initialize without a version", `{"jsonrpc":"2.0","id":110,"method":"initialize","params":{}}`, float64(110), CodeInvalidParams},
		{"prompt to an unknown session", `{"jsonrpc":"2.0","id":111,"method":"session/prompt","params":{"sessionId":"nope","prompt":[{"type":"text","text":"x"}]}}`, float64(111), CodeResourceNotFound},
		{"prompt without content", `{"jsonrpc":"2.0","id":112,"method":"session/prompt","params":{"sessionId":"` + sid + `","prompt":[]}}`, float64(112), CodeInvalidParams},
		{"set_mode on an unknown session", `{"jsonrpc":"2.0","id":113,"method":"session/set_mode","params":{"sessionId":"nope","modeId":"yolo"}}`, float64(113), CodeResourceNotFound},
		{"unknown config option", `{"jsonrpc":"2.0","id":114,"method":"session/set_config_option","params":{"sessionId":"` + sid + `","configId":"colour","value":"red"}}`, float64(114), CodeInvalidParams},
		{"authenticate", `{"jsonrpc":"2.0","id":115,"method":"authenticate","params":{"methodId":"x"}}`, float64(115), CodeInvalidParams},
		{"an oversized frame", `{"jsonrpc":"2.0","id":116,"method":"initialize","params":{"pad":"` + strings.Repeat("x", 4096) + `"}}`, nil, CodeInvalidRequest},
	}
	for _, c := range cases {
		r.raw(c.frame + "\n")
		l := r.wait(c.name, func(l *line) bool { return l.get("error") != nil || l.get("result") != nil })
		if got := l.get("error.code"); got != float64(c.code) {
			t.Errorf("%s: code %v, want %d: %s", c.name, got, c.code, l.text)
		}
		if got := l.get("id"); got != c.id {
			t.Errorf("%s: id %v, want %v", c.name, got, c.id)
		}
		if l.str("error.message") == "" {
			t.Errorf("%s: no message", c.name)
		}
	}
	// Ignored without an answer: unknown notifications, extension
	// notifications, responses to nothing cairn asked, blank lines. The
	// next answer is the next request's.
	r.raw("\n  \r\n" + `{"jsonrpc":"2.0","method":"_zed/hello","params":{}}` + "\n" +
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"nope"}}` + "\n" +
		`{"jsonrpc":"2.0","id":999,"result":{}}` + "\n" +
		`{"jsonrpc":"2.0","id":998,"error":{"code":1,"message":"x"}}` + "\n")
	id := r.call("initialize", map[string]any{"protocolVersion": 1})
	if l := r.wait("next frame", func(*line) bool { return true }); l.get("id") != float64(id) || l.get("result") == nil {
		t.Errorf("after ignored frames came %s", l.text)
	}
	if bad := r.out.badLines(); len(bad) > 0 {
		t.Errorf("output lines that are not frames: %q", bad)
	}
	if err := r.close(); err != nil {
		t.Errorf("Serve after bad input: %v", err)
	}
}
