package main

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/web"
)

// webTools are the session's web tools: web_fetch always, refused by the
// sandbox's network setting when the sandbox is on (read at each call),
// and web_search when the person's own settings name a search API.
func webTools(st *settings.Store, env environment) []core.Tool {
	allowed := web.SandboxAllows(st.Sandbox)
	out := []core.Tool{&web.Fetch{Allowed: allowed, UserAgent: "cairn/" + versionString()}}
	if s := st.WebSearch(); s.Provider != "" {
		out = append(out, &web.Search{Endpoint: s.Endpoint, KeyEnv: s.APIKeyEnv, Getenv: env.getenv, Allowed: allowed})
	}
	return out
}
