package mcp

import (
	"regexp"
	"sync"
)

// urlPattern finds URLs in error texts: scheme and host, then the rest.
var urlPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.-]*://)([^/\s"'?#]+)([^\s"']*)`)
})

// redactURLs keeps only the scheme and host of each URL in s: a server's
// URL may carry a secret in its path or query (an expanded ${VAR}), and
// errors about it reach the model.
func redactURLs(s string) string {
	return urlPattern().ReplaceAllStringFunc(s, func(u string) string {
		m := urlPattern().FindStringSubmatch(u)
		if m[3] == "" || m[3] == "/" {
			return u
		}
		return m[1] + m[2] + "/…"
	})
}

// modelError is err as the model may read it: URLs cut to their host.
func modelError(err error) string { return redactURLs(err.Error()) }
