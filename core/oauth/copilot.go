package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/pihome"
)

// GitHub Copilot, as pi-ai's github-copilot.js: the stored refresh token
// is a GitHub OAuth token; the access token is a short-lived Copilot token
// from GitHub's copilot_internal endpoint.
const (
	copilotAPIVersion   = "2026-06-01"
	copilotDefaultAPI   = "https://api.individual.githubcopilot.com"
	copilotModelsLimit  = 5 * time.Second
	copilotUserAgent    = "GitHubCopilotChat/0.35.0"
	copilotEditor       = "vscode/1.107.0"
	copilotEditorPlugin = "copilot-chat/0.35.0"
	copilotIntegration  = "vscode-chat"
)

// CopilotHeaders are the headers every request to Copilot carries, as pi
// sends them.
func CopilotHeaders() map[string]string {
	return map[string]string{
		"User-Agent":             copilotUserAgent,
		"Editor-Version":         copilotEditor,
		"Editor-Plugin-Version":  copilotEditorPlugin,
		"Copilot-Integration-Id": copilotIntegration,
	}
}

// CopilotBaseURL is the API a Copilot token is used with: the one its
// proxy-ep names (proxy.X becoming api.X), else the enterprise's, else
// the individual plan's.
func CopilotBaseURL(token, enterprise string) string {
	if _, rest, ok := strings.Cut(token, "proxy-ep="); ok {
		ep, _, _ := strings.Cut(rest, ";")
		if ep != "" {
			if host, ok := strings.CutPrefix(ep, "proxy."); ok {
				ep = "api." + host
			}
			return "https://" + ep
		}
	}
	if enterprise != "" {
		return "https://copilot-api." + enterprise
	}
	return copilotDefaultAPI
}

// NormalizeDomain returns the host name a GitHub Enterprise URL or domain
// names, or "" when it names none.
func NormalizeDomain(input string) string {
	s := strings.TrimSpace(input)
	if s == "" {
		return ""
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	return u.Hostname()
}

// refreshCopilot exchanges the GitHub token for a new Copilot token, then
// reads which models the account may use, as pi does (a failure of either
// fails the refresh).
func (c *Client) refreshCopilot(ctx context.Context, cred pihome.Credential) (json.RawMessage, error) {
	enterprise := NormalizeDomain(cred.EnterpriseURL)
	tok, err := c.copilotToken(ctx, cred.Refresh, enterprise)
	if err != nil {
		return nil, err
	}
	models, err := c.copilotModels(ctx, tok.Token, enterprise)
	if err != nil {
		return nil, err
	}
	return c.copilotEntry(cred.Refresh, tok, enterprise, models)
}

type copilotTokenAnswer struct {
	Token     string   `json:"token"`
	ExpiresAt *float64 `json:"expires_at"`
}

func (c *Client) copilotToken(ctx context.Context, githubToken, enterprise string) (copilotTokenAnswer, error) {
	domain := enterprise
	if domain == "" {
		domain = "github.com"
	}
	h := CopilotHeaders()
	h["Accept"] = "application/json"
	h["Authorization"] = "Bearer " + githubToken
	var t copilotTokenAnswer
	err := c.do(ctx, request{method: http.MethodGet, url: "https://api." + domain + "/copilot_internal/v2/token", header: h}, &t)
	if err == nil && (t.Token == "" || t.ExpiresAt == nil) {
		err = errors.New("the Copilot token answer lacks token or expires_at")
	}
	return t, err
}

func (c *Client) copilotEntry(githubToken string, t copilotTokenAnswer, enterprise string, models []string) (json.RawMessage, error) {
	var ent any
	if enterprise != "" {
		ent = enterprise
	}
	if models == nil {
		models = []string{}
	}
	return pihome.MarshalOrdered(
		pihome.Member{Name: "type", Value: "oauth"},
		pihome.Member{Name: "refresh", Value: githubToken},
		pihome.Member{Name: "access", Value: t.Token},
		pihome.Member{Name: "expires", Value: int64(*t.ExpiresAt*1000) - expiryMargin.Milliseconds()},
		pihome.Member{Name: "enterpriseUrl", Value: ent},
		pihome.Member{Name: "availableModelIds", Value: models},
	)
}

// copilotModels lists the models the account may use: those shown in
// Copilot's model picker and not disabled by policy; on the individual
// plan, when none is, those enabled by policy.
func (c *Client) copilotModels(ctx context.Context, token, enterprise string) ([]string, error) {
	base := CopilotBaseURL(token, enterprise)
	h := CopilotHeaders()
	h["Accept"] = "application/json"
	h["Authorization"] = "Bearer " + token
	h["X-GitHub-Api-Version"] = copilotAPIVersion
	var answer struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := c.do(ctx, request{method: http.MethodGet, url: base + "/models", header: h, timeout: copilotModelsLimit}, &answer); err != nil {
		return nil, err
	}
	if answer.Data == nil {
		return nil, errors.New("the Copilot models answer has no data list")
	}
	type model struct {
		ID           string `json:"id"`
		Picker       bool   `json:"model_picker_enabled"`
		Capabilities struct {
			Supports struct {
				ToolCalls *bool `json:"tool_calls"`
			} `json:"supports"`
		} `json:"capabilities"`
		Policy struct {
			State string `json:"state"`
		} `json:"policy"`
	}
	var picker, enabled []string
	for _, raw := range answer.Data {
		var m model
		if json.Unmarshal(raw, &m) != nil || m.ID == "" {
			continue
		}
		if tc := m.Capabilities.Supports.ToolCalls; tc != nil && !*tc {
			continue
		}
		if m.Picker && m.Policy.State != "disabled" {
			picker = append(picker, m.ID)
		}
		if m.Policy.State == "enabled" {
			enabled = append(enabled, m.ID)
		}
	}
	if len(picker) == 0 && base == copilotDefaultAPI {
		return enabled, nil
	}
	return picker, nil
}
