package catalog

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/pihome"
)

// addAuth adds the credentials read from path, replacing those of an
// earlier file.
func (c *Catalog) addAuth(auth map[string]pihome.Credential, path string) {
	if len(auth) == 0 {
		return
	}
	if c.auth == nil {
		c.auth, c.authPath = map[string]pihome.Credential{}, map[string]string{}
	}
	for name, cred := range auth {
		c.auth[name], c.authPath[name] = cred, path
	}
}

// authFileName names the auth.json provider's credential came from, for
// messages: "pi's auth.json" or "cairn's auth.json".
func (c *Catalog) authFileName(provider string) string {
	c.authMu.Lock()
	defer c.authMu.Unlock()
	if c.piDir != "" && c.authPath[provider] == pihome.AuthFile(c.piDir) {
		return "pi's auth.json"
	}
	return "cairn's auth.json"
}

// authEntry returns provider's credential from an auth.json.
func (c *Catalog) authEntry(provider string) (pihome.Credential, bool) {
	c.authMu.Lock()
	defer c.authMu.Unlock()
	a, ok := c.auth[provider]
	return a, ok
}

// errLoggedOut is what refreshOAuth's change returns when the entry is gone
// from the file by the time the lock is held.
var errLoggedOut = errors.New("logged out")

// refreshOAuth refreshes provider's OAuth token in its auth.json as pi
// does (pi-ai's resolveStoredOAuth): under pi's lock it reads the entry
// again, and refreshes only if it still expires within five minutes (so a
// token another process refreshed meanwhile is used as it is); the new
// entry is written back in pi's format before the lock is released. The
// lock wait and the refresh are both bounded. Errors name the provider and
// what to do, never a token.
func (c *Catalog) refreshOAuth(provider string) (pihome.Credential, error) {
	if !oauth.Supports(provider) || c.oauth == nil {
		return pihome.Credential{}, c.expiredError(provider, nil)
	}
	var fresh pihome.Credential
	c.authMu.Lock()
	path := c.authPath[provider]
	c.authMu.Unlock()
	_, err := pihome.UpdateAuth(context.Background(), path, provider, func(current json.RawMessage) (json.RawMessage, error) {
		if current == nil {
			return nil, errLoggedOut
		}
		cur, err := pihome.ParseCredential(current)
		if err != nil || cur.Type != "oauth" {
			return nil, errLoggedOut
		}
		if !cur.NeedsRefresh(c.now()) {
			fresh = cur
			return nil, nil
		}
		entry, next, err := c.oauth.Refresh(context.Background(), provider, cur)
		if err != nil {
			return nil, err
		}
		fresh = next
		return entry, nil
	})
	switch {
	case errors.Is(err, errLoggedOut):
		return pihome.Credential{}, fmt.Errorf("provider %s has no OAuth entry in %s any more (logged out?): log in again with `cairn login %s` (or pi's /login), or set an API key", provider, c.authFileName(provider), provider)
	case err != nil:
		return pihome.Credential{}, c.expiredError(provider, err)
	}
	c.authMu.Lock()
	c.auth[provider] = fresh
	c.authMu.Unlock()
	return fresh, nil
}

// expiredError says that provider's OAuth token has expired, why it was
// not refreshed (cause, when a refresh was tried) and what to do.
func (c *Catalog) expiredError(provider string, cause error) error {
	if cause == nil {
		return fmt.Errorf("the OAuth token of provider %s in %s has expired and cairn cannot refresh this provider's tokens: run `pi` and /login (or any pi command) to refresh it, or set an API key", provider, c.authFileName(provider))
	}
	return fmt.Errorf("the OAuth token of provider %s in %s has expired and refreshing it failed (%w): log in again with `cairn login %s` (or pi's /login), or set an API key", provider, c.authFileName(provider), cause, provider)
}

// AddLogin makes a login just kept in path (cairn's auth.json) the
// credential of provider for this catalog's life, as Load would have read
// it.
func (c *Catalog) AddLogin(provider string, entry json.RawMessage, path string) error {
	cred, err := pihome.ParseCredential(entry)
	if err != nil {
		return fmt.Errorf("the login of %s: %w", provider, err)
	}
	c.authMu.Lock()
	defer c.authMu.Unlock()
	if c.auth == nil {
		c.auth, c.authPath = map[string]pihome.Credential{}, map[string]string{}
	}
	c.auth[provider], c.authPath[provider] = cred, path
	return nil
}
