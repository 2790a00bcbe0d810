package web

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// SandboxAllows returns the check web tools make of every URL against
// the sandbox settings config returns (read at each call, so a change of
// settings holds at once): with the sandbox on, a network "off" refuses
// every URL and a list of "host:port" entries refuses the URLs it does
// not name; with it off, or its network "on", everything passes.
func SandboxAllows(config func() sandbox.Config) func(*url.URL) error {
	return func(u *url.URL) error {
		c := config()
		if !c.Enabled || c.Network != nil && c.Network.Open {
			return nil
		}
		host := strings.ToLower(u.Hostname())
		port := u.Port()
		if port == "" {
			port = "443"
			if u.Scheme == "http" {
				port = "80"
			}
		}
		if c.Network == nil || len(c.Network.Allow) == 0 {
			return fmt.Errorf("the sandbox's network is off (sandbox.network in settings), so %s cannot be reached; ask the user to allow it there (\"on\", or [\"%s\"])",
				u.Host, net.JoinHostPort(host, port))
		}
		if slices.ContainsFunc(c.Network.Allow, func(e string) bool { return strings.EqualFold(e, net.JoinHostPort(host, port)) }) {
			return nil
		}
		return fmt.Errorf("the sandbox's network allows only %s (sandbox.network in settings), so %s cannot be reached; ask the user to add %q there",
			c.Network, u.Host, net.JoinHostPort(host, port))
	}
}
