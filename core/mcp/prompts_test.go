package mcp

import (
	"context"
	"errors"
	"io"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// TestEverythingPromptsAreSlashCommands: server-everything's prompts are
// offered as /mcp__everything__<prompt>, and expanding one fills its
// arguments and returns the server's messages.
func TestEverythingPromptsAreSlashCommands(t *testing.T) {
	m := readyManager(t, everythingStdio(t))
	cmds := map[string]PromptCommand{}
	for _, c := range m.PromptCommands() {
		cmds[c.Name] = c
	}
	for _, want := range []string{"mcp__everything__simple-prompt", "mcp__everything__args-prompt", "mcp__everything__resource-prompt"} {
		if _, ok := cmds[want]; !ok {
			t.Fatalf("no command %s among %v", want, cmds)
		}
	}
	if u := cmds["mcp__everything__args-prompt"].Usage(); u != "<city> [state]" {
		t.Errorf("args-prompt usage %q", u)
	}

	ctx := waitCtx(t, 30*time.Second)
	for _, c := range []struct{ in, want string }{
		{"/mcp__everything__simple-prompt", "This is a simple prompt without arguments."},
		{"/mcp__everything__args-prompt Boston MA", "What's weather in Boston, MA?"},
		{`/mcp__everything__args-prompt state=NY city="New York"`, "What's weather in New York, NY?"},
		{"/mcp__everything__args-prompt Paris", "What's weather in Paris?"},
	} {
		exp, ok, err := m.ExpandPrompt(ctx, c.in)
		if !ok || err != nil || exp.Text != c.want {
			t.Errorf("%s: %q %v %v, want %q", c.in, exp.Text, ok, err, c.want)
		}
	}

	exp, _, err := m.ExpandPrompt(ctx, "/mcp__everything__resource-prompt Text 1")
	if err != nil || !strings.Contains(exp.Text, "Text resource with id: 1") || !strings.Contains(exp.Text, "Resource: <demo://resource/dynamic/text/1>") {
		t.Errorf("resource-prompt: %q %v", exp.Text, err)
	}

	for _, c := range []struct{ in, want string }{
		{"/mcp__everything__args-prompt", `missing required argument "city" (args-prompt takes city, state (optional))`},
		{"/mcp__everything__args-prompt town=Paris", `args-prompt has no argument "town"`},
		{"/mcp__everything__simple-prompt now", "simple-prompt takes no arguments"},
		{"/mcp__everything__resource-prompt bogus 1", "Invalid resourceType"}, // the server's own error
		{"/mcp__everything__nope", `MCP server "everything" has no prompt "nope"`},
	} {
		_, ok, err := m.ExpandPrompt(ctx, c.in)
		if !ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v %v, want an error with %q", c.in, ok, err, c.want)
		}
	}
	for _, in := range []string{"/review this", "mcp__everything__simple-prompt", "/mcp__other__x"} {
		if _, ok, err := m.ExpandPrompt(ctx, in); ok || err != nil {
			t.Errorf("%q is taken for an MCP prompt: %v %v", in, ok, err)
		}
	}
}

// TestEverythingResourcesAttach: @server:uri in a message attaches the
// resource's text; an unreadable one is an error naming it.
func TestEverythingResourcesAttach(t *testing.T) {
	m := readyManager(t, everythingStdio(t))
	ctx := waitCtx(t, 30*time.Second)
	conn, err := m.Conn(ctx, "everything")
	if err != nil {
		t.Fatal(err)
	}
	res, err := conn.ListResources(ctx)
	if err != nil || len(res) == 0 {
		t.Fatalf("resources: %v %v", res, err)
	}
	uri := res[0].URI
	msg := "summarise @everything:" + uri + ". Also @nope:x://y and a@b.c (see @everything:" + uri + ")"
	refs := m.ResourceRefs(msg)
	if len(refs) != 1 || refs[0] != (ResourceRef{Server: "everything", URI: uri}) {
		t.Fatalf("refs of %q: %v", msg, refs)
	}
	exp, err := m.AttachResources(ctx, msg)
	if err != nil || !strings.HasPrefix(exp.Text, msg+"\n\nResource: <"+uri+">") || len(exp.Text) < len(msg)+40 {
		t.Errorf("attached: %.300q %v", exp.Text, err)
	}

	_, err = m.AttachResources(ctx, "look at @everything:demo://resource/static/document/no-such-file.md")
	if err == nil || !strings.Contains(err.Error(), "cannot attach @everything:demo://resource/static/document/no-such-file.md") {
		t.Errorf("unreadable resource: %v", err)
	}
}

// promptConn is a connection with one prompt whose GetPrompt answers with
// err, or with args echoed.
type promptConn struct {
	waitConn
	err error
}

func (c *promptConn) ListPrompts(context.Context) ([]PromptInfo, error) {
	return []PromptInfo{{Name: "review", Arguments: []PromptArgument{{Name: "topic", Required: true}}}}, nil
}

func (c *promptConn) GetPrompt(_ context.Context, _ string, args map[string]string) ([]core.Content, error) {
	if c.err != nil {
		return nil, c.err
	}
	return []core.Content{core.TextBlock("review " + args["topic"]), core.ImageBlock("aGk=", "image/png")}, nil
}

func TestExpandPromptWithFakes(t *testing.T) {
	conn := &promptConn{waitConn: waitConn{closed: make(chan struct{})}}
	m := Start(Config{Servers: []Server{{Name: "a b", Transport: TransportStdio, Command: "x", Timeout: time.Second}}},
		Options{Dial: func(context.Context, Server, io.Writer) (Conn, error) { return conn, nil }})
	defer m.Close()
	ctx := waitCtx(t, 10*time.Second)
	if _, err := m.Conn(ctx, "a b"); err != nil {
		t.Fatal(err)
	}
	// The server's name holds a space: the command name does not.
	exp, ok, err := m.ExpandPrompt(ctx, "/mcp__a_b__review the whole API\nplease")
	if !ok || err != nil || exp.Text != "review the whole API\nplease" || len(exp.Images) != 1 {
		t.Errorf("expanded %+v %v %v", exp, ok, err)
	}
	conn.err = errors.New("boom")
	if _, ok, err := m.ExpandPrompt(ctx, "/mcp__a_b__review x"); !ok || err == nil || !strings.Contains(err.Error(), `MCP server "a b": get prompt review: boom`) {
		t.Errorf("failing server: %v %v", ok, err)
	}
}

func TestExpandPromptWaitsForAServerStarting(t *testing.T) {
	block := make(chan struct{})
	conn := &promptConn{waitConn: waitConn{closed: make(chan struct{})}}
	m := Start(Config{Servers: []Server{{Name: "slow", Transport: TransportStdio, Command: "x", Timeout: time.Minute}}},
		Options{Dial: func(ctx context.Context, _ Server, _ io.Writer) (Conn, error) {
			select {
			case <-block:
				return conn, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}})
	defer m.Close()
	short, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, ok, err := m.ExpandPrompt(short, "/mcp__slow__review x")
	if !ok || err == nil || !strings.Contains(err.Error(), `MCP server "slow" is not ready yet (starting)`) {
		t.Errorf("given up waiting: %v %v", ok, err)
	}

	type result struct {
		exp Expansion
		err error
	}
	done := make(chan result, 1)
	go func() {
		exp, _, err := m.ExpandPrompt(waitCtx(t, 10*time.Second), "/mcp__slow__review x")
		done <- result{exp, err}
	}()
	close(block)
	if r := <-done; r.err != nil || r.exp.Text != "review x" {
		t.Errorf("once ready: %+v", r)
	}
}

func TestPromptArgs(t *testing.T) {
	two := PromptInfo{Name: "p", Arguments: []PromptArgument{{Name: "a", Required: true}, {Name: "b"}}}
	one := PromptInfo{Name: "q", Arguments: []PromptArgument{{Name: "text", Required: true}}}
	none := PromptInfo{Name: "r"}
	for _, c := range []struct {
		p    PromptInfo
		in   string
		want map[string]string
		err  string
	}{
		{two, "x y", map[string]string{"a": "x", "b": "y"}, ""},
		{two, "b=y x", map[string]string{"a": "x", "b": "y"}, ""},
		{two, `a="one two" b='3'`, map[string]string{"a": "one two", "b": "3"}, ""},
		{two, "x", map[string]string{"a": "x"}, ""},
		{two, "a=x=1", map[string]string{"a": "x=1"}, ""},
		{two, "1+1=2", map[string]string{"a": "1+1=2"}, ""},
		{two, "", nil, `missing required argument "a" (p takes a, b (optional))`},
		{two, "a=", nil, `missing required argument "a"`},
		{two, "b=y", nil, `missing required argument "a"`},
		{two, "x y z", nil, `too many arguments: "z" is left over`},
		{two, "a=1 a=2", nil, `argument "a" is given twice`},
		{two, "c=1", nil, `p has no argument "c"`},
		{one, "  fix the bug, then b=2 \"quoted\"  ", map[string]string{"text": `fix the bug, then b=2 "quoted"`}, ""},
		{one, `text="all of it"`, map[string]string{"text": "all of it"}, ""},
		{one, "", nil, `missing required argument "text"`},
		{none, "", map[string]string{}, ""},
		{none, "x", nil, "r takes no arguments"},
	} {
		got, err := PromptArgs(c.p, c.in)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %q: %v, want error %q", c.p.Name, c.in, err, c.err)
		case c.err == "" && (err != nil || !maps.Equal(got, c.want)):
			t.Errorf("%s %q: %v %v, want %v", c.p.Name, c.in, got, err, c.want)
		}
	}
}

// FuzzPromptArgs: any input gives arguments the prompt has, every
// required one set, or an error; never a panic.
func FuzzPromptArgs(f *testing.F) {
	for _, s := range []string{"x y", `a="1 2" b=3`, "a=1 a=2", "'", `"a=`, "=", "a= b=", "\t\n"} {
		f.Add(s)
	}
	p := PromptInfo{Name: "p", Arguments: []PromptArgument{{Name: "a", Required: true}, {Name: "b"}, {Name: "c"}}}
	f.Fuzz(func(t *testing.T, in string) {
		got, err := PromptArgs(p, in)
		if err != nil {
			return
		}
		if got["a"] == "" {
			t.Errorf("%q: required a missing in %v", in, got)
		}
		for k := range got {
			if k != "a" && k != "b" && k != "c" {
				t.Errorf("%q: unknown argument %q", in, k)
			}
		}
	})
}

// TestReconnect: a ready server gets a new connection, and one given up on
// after failing starts again.
func TestReconnect(t *testing.T) {
	var dials atomic.Int32
	var failing atomic.Bool
	dial := func(context.Context, Server, io.Writer) (Conn, error) {
		dials.Add(1)
		if failing.Load() {
			return nil, errors.New("down")
		}
		return &waitConn{closed: make(chan struct{})}, nil
	}
	m := Start(Config{Servers: []Server{
		{Name: "s", Transport: TransportStdio, Command: "x", Timeout: time.Second},
		{Name: "off", Transport: TransportStdio, Command: "x", Disabled: true, Source: "mcp.json"},
	}}, Options{Dial: dial, Backoff: func(int) time.Duration { return time.Millisecond }})
	closeOnce := sync.OnceFunc(m.Close)
	defer closeOnce()
	ctx := waitCtx(t, 10*time.Second)
	first, err := m.Conn(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Reconnect("s"); err != nil {
		t.Fatal(err)
	}
	second, err := m.Conn(ctx, "s")
	if err != nil || second == first {
		t.Fatalf("after Reconnect: same connection %v, %v", second == first, err)
	}
	select {
	case <-first.(*waitConn).closed:
	case <-ctx.Done():
		t.Fatal("the old connection was not closed")
	}

	// Make it fail until it is given up on, then bring it back.
	failing.Store(true)
	_ = m.Reconnect("s")
	waitState(t, m, "s", Stopped)
	if _, err := m.Conn(ctx, "s"); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("failing server: %v", err)
	}
	failing.Store(false)
	before := dials.Load()
	if err := m.Reconnect("s"); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Conn(ctx, "s"); err != nil || dials.Load() <= before {
		t.Fatalf("given up server after Reconnect: %v (dials %d → %d)", err, before, dials.Load())
	}

	if err := m.Reconnect("nope"); err == nil || !strings.Contains(err.Error(), `no MCP server named "nope"`) {
		t.Errorf("unknown: %v", err)
	}
	if err := m.Reconnect("off"); err == nil || !strings.Contains(err.Error(), `"off" is disabled in mcp.json`) {
		t.Errorf("disabled: %v", err)
	}
	closeOnce()
	if err := m.Reconnect("s"); err == nil {
		t.Error("Reconnect after Close started a server")
	}
}

// TestChangedPromptListIsListedAgain: a prompt a server adds while it runs
// becomes a command.
func TestChangedPromptListIsListedAgain(t *testing.T) {
	m, _ := startOne(t, testServer(t, "g", "hang"))
	ctx := waitCtx(t, 30*time.Second)
	if _, err := m.Conn(ctx, "g"); err != nil {
		t.Fatal(err)
	}
	if cmds := m.PromptCommands(); len(cmds) != 1 || cmds[0].Name != "mcp__g__hello" {
		t.Fatalf("prompts at start: %+v", cmds)
	}
	if res := call(t, toolNamed(t, m, "mcp__g__grow_prompt"), `{}`); res.IsError {
		t.Fatalf("grow_prompt: %+v", res)
	}
	for {
		m.mu.Lock()
		changed := m.changed
		m.mu.Unlock()
		if _, ok := m.findPrompt("mcp__g__grown"); ok {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("the new prompt never appeared: %+v", m.PromptCommands())
		}
	}
	if exp, ok, err := m.ExpandPrompt(ctx, "/mcp__g__grown"); !ok || err != nil || exp.Text != "hello" {
		t.Errorf("grown: %+v %v %v", exp, ok, err)
	}
}

// FuzzResourceRefs: every reference found names a configured server and a
// URI written after it in the text.
func FuzzResourceRefs(f *testing.F) {
	for _, s := range []string{"@s:x://y", "see @s:a.", "(@s:b)", "@s: @s:: @t:x", "@@s:x", "a@s:x"} {
		f.Add(s)
	}
	m := Start(Config{Servers: []Server{{Name: "s", Disabled: true}}}, Options{})
	defer m.Close()
	f.Fuzz(func(t *testing.T, text string) {
		for _, r := range m.ResourceRefs(text) {
			if r.Server != "s" || r.URI == "" || !strings.Contains(text, r.String()) {
				t.Errorf("%q: ref %+v", text, r)
			}
		}
	})
}
