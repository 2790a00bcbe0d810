package mcp

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/cairn-dev/cairn/core/child"
	"io"
	"maps"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/redact"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// clientInfo is how cairn introduces itself to servers.
var clientInfo = &sdk.Implementation{Name: "cairn", Version: "dev"}

// stopGrace is how long a command has to exit after its stdin closes
// before it is signalled.
const stopGrace = 2 * time.Second

// DialSDK connects through the official Go SDK: a command over stdio, or
// streamable HTTP with the older HTTP+SSE transport as fallback. Neither
// its error nor any the connection returns shows the server's configured
// headers, environment values or URL password: a server may echo them.
func DialSDK(ctx context.Context, s Server, stderr io.Writer) (Conn, error) {
	secrets := s.secrets()
	c, err := dialSDK(ctx, s, stderr)
	if err != nil {
		return nil, redact.Error(err, secrets...)
	}
	return redactingConn{Conn: c, secrets: secrets}, nil
}

func dialSDK(ctx context.Context, s Server, stderr io.Writer) (Conn, error) {
	c := &sdkConn{progress: map[string]func(Progress){}, toolsChanged: make(chan struct{}, 1), promptsChanged: make(chan struct{}, 1)}
	client := sdk.NewClient(clientInfo, &sdk.ClientOptions{
		Capabilities:                &sdk.ClientCapabilities{},
		ProgressNotificationHandler: c.onProgress,
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			signal(c.toolsChanged)
		},
		PromptListChangedHandler: func(context.Context, *sdk.PromptListChangedRequest) {
			signal(c.promptsChanged)
		},
	})
	switch s.Transport {
	case TransportStdio:
		return c.dialCommand(ctx, client, s, stderr)
	case TransportSSE:
		return c.dialSSE(ctx, client, s)
	}
	cs, err := client.Connect(ctx, detached{&sdk.StreamableClientTransport{Endpoint: s.URL, HTTPClient: httpClient(s.URL, s.Headers), MaxRetries: 2}}, nil)
	if err == nil {
		c.session = cs
		return c, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	sc, sseErr := c.dialSSE(ctx, client, s)
	if sseErr == nil {
		return sc, nil
	}
	return nil, fmt.Errorf("%w (the older HTTP+SSE transport failed too: %v)", err, sseErr)
}

func (c *sdkConn) dialSSE(ctx context.Context, client *sdk.Client, s Server) (Conn, error) {
	cs, err := client.Connect(ctx, detached{&sdk.SSEClientTransport{Endpoint: s.URL, HTTPClient: httpClient(s.URL, s.Headers)}}, nil)
	if err != nil {
		return nil, err
	}
	c.session = cs
	return c, nil
}

func (c *sdkConn) dialCommand(ctx context.Context, client *sdk.Client, s Server, stderr io.Writer) (Conn, error) {
	cmd := exec.Command(s.Command, s.Args...)
	cmd.Dir = s.Dir
	cmd.Env = child.Env(os.Getenv)
	for _, k := range sortedKeys(s.Env) {
		cmd.Env = append(cmd.Env, k+"="+s.Env[k])
	}
	cmd.Stderr = stderr
	// Children that keep stderr open must not hold up Close.
	cmd.WaitDelay = stopGrace
	child.OwnGroup(cmd)
	t := &killOnCancel{CommandTransport: sdk.CommandTransport{Command: cmd, TerminateDuration: stopGrace}}
	cs, err := client.Connect(ctx, t, nil)
	if t.stop != nil {
		t.stop()
	}
	if err != nil {
		if cmd.Process != nil {
			child.KillGroup(cmd)
			_ = cmd.Wait()
		}
		return nil, err
	}
	c.session, c.cmd = cs, cmd
	return c, nil
}

// killOnCancel starts a command like the SDK's CommandTransport, and until
// stop is called, giving up on the handshake (a timeout, cairn closing)
// kills the command's group at once instead of waiting out stopGrace.
type killOnCancel struct {
	sdk.CommandTransport
	stop func() bool
}

func (k *killOnCancel) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := k.CommandTransport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	cmd := k.Command
	k.stop = context.AfterFunc(ctx, func() { child.KillGroup(cmd) })
	return conn, nil
}

// signal wakes whoever waits on ch, once: one pending signal is enough.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// sdkConn is a Conn over an SDK client session.
type sdkConn struct {
	session *sdk.ClientSession
	cmd     *exec.Cmd // nil for HTTP

	toolsChanged, promptsChanged chan struct{}

	mu       sync.Mutex
	progress map[string]func(Progress)
	next     atomic.Uint64
	closed   sync.Once
}

func (c *sdkConn) onProgress(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
	p := req.Params
	if p == nil {
		return
	}
	key := fmt.Sprint(p.ProgressToken)
	c.mu.Lock()
	f := c.progress[key]
	c.mu.Unlock()
	if f != nil {
		f(Progress{Progress: p.Progress, Total: p.Total, Message: p.Message})
	}
}

func (c *sdkConn) ListTools(ctx context.Context) ([]ToolInfo, error) {
	var out []ToolInfo
	for t, err := range c.session.Tools(ctx, nil) {
		if err != nil {
			return nil, closedErr(err)
		}
		out = append(out, toolInfo(t))
	}
	return out, nil
}

func toolInfo(t *sdk.Tool) ToolInfo {
	info := ToolInfo{Name: t.Name, Title: t.Title, Description: t.Description}
	if t.InputSchema != nil {
		if b, err := json.Marshal(t.InputSchema); err == nil {
			info.InputSchema = b
		}
	}
	if a := t.Annotations; a != nil {
		info.ReadOnly, info.Destructive = a.ReadOnlyHint, a.DestructiveHint
		if info.Title == "" {
			info.Title = a.Title
		}
	}
	return info
}

func (c *sdkConn) CallTool(ctx context.Context, name string, args json.RawMessage, progress func(Progress)) (Result, error) {
	params := &sdk.CallToolParams{Name: name, Arguments: args}
	if len(args) == 0 {
		params.Arguments = json.RawMessage(`{}`)
	}
	if progress != nil {
		token := "cairn-" + strconv.FormatUint(c.next.Add(1), 10)
		params.SetProgressToken(token)
		c.mu.Lock()
		c.progress[token] = progress
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.progress, token)
			c.mu.Unlock()
		}()
	}
	res, err := c.session.CallTool(ctx, params)
	if err != nil {
		return Result{}, closedErr(err)
	}
	return convertResult(res), nil
}

// closedErr marks the SDK's closed-connection errors with ours.
func closedErr(err error) error {
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: %v", ErrConnectionClosed, err)
	}
	return err
}

// maxResources bounds a listing, so a server cannot flood the model.
const maxResources = 1000

func (c *sdkConn) ListResources(ctx context.Context) ([]ResourceInfo, error) {
	var out []ResourceInfo
	for r, err := range c.session.Resources(ctx, nil) {
		if err != nil {
			return nil, closedErr(err)
		}
		out = append(out, ResourceInfo{URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description, MIMEType: r.MIMEType})
		if len(out) >= maxResources {
			break
		}
	}
	return out, nil
}

func (c *sdkConn) ReadResource(ctx context.Context, uri string) ([]core.Content, error) {
	res, err := c.session.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	if err != nil {
		return nil, closedErr(err)
	}
	var out []core.Content
	for _, r := range res.Contents {
		if r != nil {
			out = append(out, convertContent(&sdk.EmbeddedResource{Resource: r}))
		}
	}
	return out, nil
}

// maxPrompts bounds a prompt listing, as maxResources does.
const maxPrompts = 1000

func (c *sdkConn) ListPrompts(ctx context.Context) ([]PromptInfo, error) {
	if init := c.session.InitializeResult(); init == nil || init.Capabilities == nil || init.Capabilities.Prompts == nil {
		return nil, nil
	}
	var out []PromptInfo
	for p, err := range c.session.Prompts(ctx, nil) {
		if err != nil {
			return nil, closedErr(err)
		}
		info := PromptInfo{Name: p.Name, Title: p.Title, Description: p.Description}
		for _, a := range p.Arguments {
			if a != nil {
				info.Arguments = append(info.Arguments, PromptArgument{Name: a.Name, Description: a.Description, Required: a.Required})
			}
		}
		out = append(out, info)
		if len(out) >= maxPrompts {
			break
		}
	}
	return out, nil
}

func (c *sdkConn) GetPrompt(ctx context.Context, name string, args map[string]string) ([]core.Content, error) {
	res, err := c.session.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
	if err != nil {
		return nil, closedErr(err)
	}
	var out []core.Content
	for _, msg := range res.Messages {
		if msg != nil && msg.Content != nil {
			out = append(out, convertContent(msg.Content))
		}
	}
	return out, nil
}

func (c *sdkConn) ToolsChanged() <-chan struct{} { return c.toolsChanged }

func (c *sdkConn) PromptsChanged() <-chan struct{} { return c.promptsChanged }

func (c *sdkConn) Wait() error { return c.session.Wait() }

func (c *sdkConn) Close() error {
	var err error
	c.closed.Do(func() {
		err = c.session.Close()
		if c.cmd != nil {
			// npx and uvx start the real server as a child: stop the
			// whole group, not just the wrapper.
			child.KillGroup(c.cmd)
		}
	})
	return err
}

// convertResult turns an SDK result into cairn content.
func convertResult(res *sdk.CallToolResult) Result {
	out := Result{IsError: res.IsError}
	for _, c := range res.Content {
		out.Content = append(out.Content, convertContent(c))
	}
	if len(out.Content) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			out.Content = append(out.Content, core.TextBlock(string(b)))
		}
	}
	return out
}

func convertContent(c sdk.Content) core.Content {
	switch c := c.(type) {
	case *sdk.TextContent:
		return core.TextBlock(c.Text)
	case *sdk.ImageContent:
		return core.ImageBlock(base64.StdEncoding.EncodeToString(c.Data), c.MIMEType)
	case *sdk.AudioContent:
		return core.TextBlock(fmt.Sprintf("[audio %s, %d bytes, not shown]", c.MIMEType, len(c.Data)))
	case *sdk.ResourceLink:
		return core.TextBlock(resourceText("Resource link", c.Name, c.URI, c.MIMEType, c.Description))
	case *sdk.EmbeddedResource:
		r := c.Resource
		if r == nil {
			return core.TextBlock("[empty embedded resource]")
		}
		if strings.HasPrefix(r.MIMEType, "image/") && len(r.Blob) > 0 {
			return core.ImageBlock(base64.StdEncoding.EncodeToString(r.Blob), r.MIMEType)
		}
		if r.Text != "" || len(r.Blob) == 0 {
			return core.TextBlock(resourceText("Resource", "", r.URI, r.MIMEType, "") + "\n" + r.Text)
		}
		return core.TextBlock(resourceText("Resource", "", r.URI, r.MIMEType, fmt.Sprintf("%d bytes of binary content, not shown", len(r.Blob))))
	}
	b, _ := json.Marshal(c)
	return core.TextBlock(string(b))
}

// resourceText names a resource for the model: "Resource link: name <uri>
// (type) - description".
func resourceText(kind, name, uri, mime, desc string) string {
	var b strings.Builder
	b.WriteString(kind + ": ")
	if name != "" {
		b.WriteString(name + " ")
	}
	b.WriteString("<" + uri + ">")
	if mime != "" {
		b.WriteString(" (" + mime + ")")
	}
	if desc != "" {
		b.WriteString(" - " + desc)
	}
	return b.String()
}

// detached connects a transport with a context that keeps its values but
// not its deadline: ctx bounds the handshake, while the HTTP transports tie
// their long-lived event stream to the context they connect with.
type detached struct{ t sdk.Transport }

func (d detached) Connect(ctx context.Context) (sdk.Connection, error) {
	return d.t.Connect(context.WithoutCancel(ctx))
}

// httpClient sends headers with every request to the server's own host
// (scheme, host and port of serverURL), never to a host a redirect leads
// to: the headers usually hold a secret expanded from ${VAR}.
func httpClient(serverURL string, headers map[string]string) *http.Client {
	if len(headers) == 0 {
		return &http.Client{}
	}
	u, err := url.Parse(serverURL)
	if err != nil {
		return &http.Client{}
	}
	return &http.Client{Transport: headerTransport{scheme: u.Scheme, host: u.Host, headers: maps.Clone(headers), next: http.DefaultTransport}}
}

type headerTransport struct {
	scheme, host string
	headers      map[string]string
	next         http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme != t.scheme || req.URL.Host != t.host {
		return t.next.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	return t.next.RoundTrip(req)
}
