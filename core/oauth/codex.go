package oauth

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/cairn-dev/cairn/core/pihome"
)

// OpenAI's Codex OAuth client (ChatGPT Plus/Pro), as pi-ai's
// openai-codex.js.
const (
	codexClientID = "app_EMoamEEZ73f0CkXaXp7hrann"
	codexTokenURL = "https://auth.openai.com/oauth/token"
	// codexClaim is the access token's claim holding the ChatGPT account.
	codexClaim = "https://api.openai.com/auth"
)

// refreshCodex posts the refresh grant as a form; the new entry keeps the
// token's whole lifetime and names the ChatGPT account the access token
// (a JWT) carries, as pi does.
func (c *Client) refreshCodex(ctx context.Context, cred pihome.Credential) (json.RawMessage, error) {
	var t tokenAnswer
	err := c.do(ctx, request{
		method: http.MethodPost, url: codexTokenURL,
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		body:   formBody("grant_type", "refresh_token", "refresh_token", cred.Refresh, "client_id", codexClientID),
	}, &t)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		return nil, err
	}
	return c.codexEntry(t)
}

// codexEntry is the auth.json entry for a Codex token answer.
func (c *Client) codexEntry(t tokenAnswer) (json.RawMessage, error) {
	account := CodexAccountID(t.AccessToken)
	if account == "" {
		return nil, errors.New("the new access token names no ChatGPT account")
	}
	return pihome.MarshalOrdered(
		pihome.Member{Name: "type", Value: "oauth"},
		pihome.Member{Name: "access", Value: t.AccessToken},
		pihome.Member{Name: "refresh", Value: t.RefreshToken},
		pihome.Member{Name: "expires", Value: c.now().UnixMilli() + int64(*t.ExpiresIn*1000)},
		pihome.Member{Name: "accountId", Value: account},
	)
}

// CodexAccountID returns the ChatGPT account id a Codex access token (a
// JWT) carries, or "" when it carries none. The signature is not checked:
// the token is the service's to judge.
func CodexAccountID(token string) string {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ""
	}
	payload, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		if payload, err = base64.StdEncoding.DecodeString(parts[1]); err != nil {
			return ""
		}
	}
	var claims map[string]json.RawMessage
	if json.Unmarshal(payload, &claims) != nil {
		return ""
	}
	var auth struct {
		Account string `json:"chatgpt_account_id"`
	}
	if json.Unmarshal(claims[codexClaim], &auth) != nil {
		return ""
	}
	return auth.Account
}
