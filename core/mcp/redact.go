package mcp

import (
	"context"
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/redact"
)

// urlPattern finds URLs in error texts: scheme and authority, then the rest.
var urlPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)([^/\s"'?#]+)([^\s"']*)`)
})

// redactURLs keeps only the scheme and host of each URL in s: a server's
// URL may carry a secret in its userinfo, path or query (an expanded
// ${VAR}), and errors about it reach the model.
func redactURLs(s string) string {
	return urlPattern().ReplaceAllStringFunc(s, func(u string) string {
		m := urlPattern().FindStringSubmatch(u)
		if m[3] == "" || m[3] == "/" {
			return redact.URL(u)
		}
		return redact.URL(m[1]+m[2]) + "/…"
	})
}

// modelError is err as the model may read it: URLs cut to their host.
func modelError(err error) string { return redactURLs(err.Error()) }

// secrets are the values of s's configuration that no error may show: its
// headers and environment (where a token usually goes, expanded from
// ${VAR}) and the credentials in its URL.
func (s Server) secrets() []string {
	out := redact.HeaderValues(s.Headers)
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		out = append(out, s.Env[k])
	}
	return append(out, redact.URLSecrets(s.URL)...)
}

// redactingConn is a Conn whose errors, and tool results that report an
// error, have the server's secrets taken out. DialSDK hands out only this,
// so every error a server words passes here once before it reaches a person
// (the manager's messages) or the model (tool results).
type redactingConn struct {
	Conn
	secrets []string
}

func (c redactingConn) err(err error) error { return redact.Error(err, c.secrets...) }

func (c redactingConn) ListTools(ctx context.Context) ([]ToolInfo, error) {
	tools, err := c.Conn.ListTools(ctx)
	return tools, c.err(err)
}

func (c redactingConn) CallTool(ctx context.Context, name string, args json.RawMessage, progress func(Progress)) (Result, error) {
	res, err := c.Conn.CallTool(ctx, name, args, progress)
	if res.IsError {
		for i := range res.Content {
			if res.Content[i].Type == core.ContentText {
				res.Content[i].Text = redact.Secrets(res.Content[i].Text, c.secrets...)
			}
		}
	}
	return res, c.err(err)
}

func (c redactingConn) ListResources(ctx context.Context) ([]ResourceInfo, error) {
	res, err := c.Conn.ListResources(ctx)
	return res, c.err(err)
}

func (c redactingConn) ReadResource(ctx context.Context, uri string) ([]core.Content, error) {
	content, err := c.Conn.ReadResource(ctx, uri)
	return content, c.err(err)
}

func (c redactingConn) ListPrompts(ctx context.Context) ([]PromptInfo, error) {
	prompts, err := c.Conn.ListPrompts(ctx)
	return prompts, c.err(err)
}

func (c redactingConn) GetPrompt(ctx context.Context, name string, args map[string]string) ([]core.Content, error) {
	content, err := c.Conn.GetPrompt(ctx, name, args)
	return content, c.err(err)
}

func (c redactingConn) Wait() error  { return c.err(c.Conn.Wait()) }
func (c redactingConn) Close() error { return c.err(c.Conn.Close()) }
