// Package pihome finds and reads pi's home (~/.pi/agent, or
// PI_CODING_AGENT_DIR), so a machine set up for pi works with cairn as it
// is: pi's credentials (auth.json), its settings and where pi keeps
// sessions. It reads, and writes only one thing: an auth.json entry, under
// pi's lock and in pi's format (UpdateAuth), which is how a refreshed OAuth
// token is put back where pi finds it.
package pihome

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/regfile"
)

// Environment variables pi reads for its directories.
const (
	EnvDir        = "PI_CODING_AGENT_DIR"
	EnvSessionDir = "PI_CODING_AGENT_SESSION_DIR"
)

// Dir returns pi's agent directory: PI_CODING_AGENT_DIR (with a leading ~
// expanded), else ~/.pi/agent. It is "" when neither is known.
func Dir(getenv func(string) string) string {
	home := getenv("HOME")
	if d := getenv(EnvDir); d != "" {
		return ExpandTilde(d, home)
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".pi", "agent")
}

// ExpandTilde expands a leading "~" or "~/" to home, as pi's normalizePath
// does; other paths are returned unchanged.
func ExpandTilde(p, home string) string {
	if home == "" {
		return p
	}
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

// Exists reports whether dir is a directory.
func Exists(dir string) bool {
	if dir == "" {
		return false
	}
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// SessionsRoot returns where pi keeps the sessions of every project, each
// in its own directory (<root>/--<cwd>--/), and flat, when pi's
// configuration names a single directory for all sessions:
// PI_CODING_AGENT_SESSION_DIR, else settings.json's sessionDir, else
// <dir>/sessions (per project). pi's --session-dir is cairn's own flag and
// is applied by the caller.
func SessionsRoot(getenv func(string) string, dir string, settingsSessionDir string) (root string, flat bool) {
	home := getenv("HOME")
	if d := getenv(EnvSessionDir); d != "" {
		return ExpandTilde(d, home), true
	}
	if settingsSessionDir != "" {
		return ExpandTilde(settingsSessionDir, home), true
	}
	if dir == "" {
		return "", false
	}
	return filepath.Join(dir, "sessions"), false
}

// Credential is one provider's entry in pi's auth.json: an API key
// ("api_key") or an OAuth token from pi's /login ("oauth").
type Credential struct {
	// Type is "api_key" or "oauth".
	Type string `json:"type"`
	// Key is an api_key entry's key, a config value as in models.json
	// ("$VAR", "!command" or a literal).
	Key string `json:"key,omitempty"`
	// Env are variables an api_key entry's Key may name, consulted before
	// the process's environment.
	Env map[string]string `json:"env,omitempty"`
	// Access, Refresh and Expires are an oauth entry's tokens; Expires is
	// in milliseconds since 1970, as JavaScript's Date.now().
	Access  string `json:"access,omitempty"`
	Refresh string `json:"refresh,omitempty"`
	Expires int64  `json:"expires,omitempty"`
	// AccountID is the ChatGPT account of an openai-codex entry.
	AccountID string `json:"accountId,omitempty"`
	// EnterpriseURL is the GitHub Enterprise domain of a github-copilot
	// entry, "" for github.com.
	EnterpriseURL string `json:"enterpriseUrl,omitempty"`
	// AvailableModelIDs are the models a github-copilot account may use;
	// nil when the entry lists none (an empty list allows none).
	AvailableModelIDs []string `json:"availableModelIds,omitempty"`
}

// RefreshMargin is how long before its expiry pi refreshes an OAuth token
// (pi-ai's DEFAULT_OAUTH_MINIMUM_VALIDITY_MS).
const RefreshMargin = 5 * time.Minute

// NeedsRefresh reports whether an oauth credential's access token expires
// within RefreshMargin of now, when pi refreshes it before use. An api_key
// credential never does.
func (c Credential) NeedsRefresh(now time.Time) bool {
	if c.Type != "oauth" {
		return false
	}
	return c.Access == "" || now.Add(RefreshMargin).UnixMilli() >= c.Expires
}

// ParseCredential reads one auth.json entry, checked as pi checks it.
func ParseCredential(entry json.RawMessage) (Credential, error) {
	var probe map[string]json.RawMessage
	var c Credential
	// The members pi checks decide; the others (pi's extras, whatever a
	// later pi adds) are read when they have the expected type.
	var checked struct {
		Type    string            `json:"type"`
		Key     string            `json:"key,omitempty"`
		Env     map[string]string `json:"env,omitempty"`
		Access  string            `json:"access,omitempty"`
		Refresh string            `json:"refresh,omitempty"`
		Expires int64             `json:"expires,omitempty"`
	}
	if json.Unmarshal(entry, &probe) != nil || probe == nil || json.Unmarshal(entry, &checked) != nil {
		return c, errors.New("not a valid credential")
	}
	_ = json.Unmarshal(entry, &c)
	c.Type, c.Key, c.Env, c.Access, c.Refresh, c.Expires = checked.Type, checked.Key, checked.Env, checked.Access, checked.Refresh, checked.Expires
	switch {
	case c.Type == "api_key":
	case c.Type == "oauth" && has(probe, "access", "refresh", "expires"):
	default:
		return c, errors.New("not a valid credential")
	}
	return c, nil
}

// ReadAuth reads pi's auth.json in dir, checking each entry as pi does:
// an entry pi would refuse makes the whole file an error, as in pi. A
// missing file holds no credentials.
func ReadAuth(dir string) (map[string]Credential, error) {
	path := AuthFile(dir)
	data, err := regfile.Read(path, regfile.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return parseAuth(path, data)
}

func parseAuth(path string, data []byte) (map[string]Credential, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimBOM(data), &raw); err != nil || raw == nil {
		return nil, fmt.Errorf("%s: expected a JSON object of credentials by provider", path)
	}
	out := make(map[string]Credential, len(raw))
	for name, entry := range raw {
		c, err := ParseCredential(entry)
		if err != nil {
			return nil, fmt.Errorf("%s: the credential of provider %q is not valid", path, name)
		}
		out[name] = c
	}
	return out, nil
}

func has(m map[string]json.RawMessage, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

func trimBOM(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		return b[3:]
	}
	return b
}

// SettingsFile returns pi's global settings file in dir.
func SettingsFile(dir string) string { return filepath.Join(dir, "settings.json") }

// SessionDirSetting returns the sessionDir of pi's settings.json in dir,
// or "" when it sets none or cannot be read.
func SessionDirSetting(dir string) string {
	data, err := regfile.Read(SettingsFile(dir), regfile.MaxConfig)
	if err != nil {
		return ""
	}
	var s struct {
		SessionDir string `json:"sessionDir"`
	}
	if json.Unmarshal(trimBOM(data), &s) != nil {
		return ""
	}
	return s.SessionDir
}
