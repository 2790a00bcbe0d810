package approval

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// This file holds the network kind (core.CategoryNetwork: web_fetch,
// web_search). A network call is judged by the host it goes to, the
// lower-cased host (and port, when given) of its "url" argument; a call
// without one (web_search) by the tool's name alone. It asks in default
// and auto_edit, not in auto and yolo. Rules name a host ("web_fetch:
// docs.example.org") for the session or always (the project's rules).
// Plan mode refuses network calls unasked unless a rule covers the host.

// networkSubject is the host a network call goes to, "" when its "url"
// argument is missing or not an http(s) URL with a host.
func networkSubject(call core.ToolCall) string {
	raw := stringArgument(call.Arguments, "url")
	if raw == "" {
		return ""
	}
	return URLHost(raw)
}

// URLHost is the host a rule for a fetch of raw names: the URL's host,
// lower-cased, with its port when one is written; "" for anything but an
// http or https URL with a host.
func URLHost(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return ""
	}
	return strings.ToLower(u.Host)
}

// coversHost reports whether r covers a network call of tool to host.
func (r compiled) coversHost(tool, host string) bool {
	return r.Tool == tool && r.Command == "" && r.Path == "" && strings.EqualFold(r.Host, host)
}

// planAllowsNetwork reports whether plan mode lets a network call
// through: a session or project rule covers its host.
func (g *Gate) planAllowsNetwork(tool core.Tool, call core.ToolCall) bool {
	if tool.Category() != core.CategoryNetwork {
		return false
	}
	name, host := toolName(tool, call), networkSubject(call)
	g.mu.Lock()
	session, always := g.session, g.always
	g.mu.Unlock()
	return session.covers(name, core.CategoryNetwork, host) || always.covers(name, core.CategoryNetwork, host)
}

// networkPlanRefusal is what the model is told of a network call plan
// mode refused.
func networkPlanRefusal(name string) string {
	return fmt.Sprintf("cairn is in plan mode, where %s runs only for hosts the user allowed before, and this host is not one of them, so it was not run. Explore with the read, grep, find and ls tools, or ask the user to allow the host.", name)
}
