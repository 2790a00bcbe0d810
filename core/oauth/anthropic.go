package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/cairn-dev/cairn/core/pihome"
)

// Anthropic's OAuth client (Claude Pro/Max), as pi-ai's anthropic.js.
const (
	anthropicClientID  = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
	anthropicTokenURL  = "https://platform.claude.com/v1/oauth/token"
	anthropicPostLimit = 30 * time.Second
	// expiryMargin is what pi takes off an Anthropic or Copilot token's
	// lifetime when it stores it.
	expiryMargin = 5 * time.Minute
)

// tokenAnswer is an OAuth token endpoint's answer.
type tokenAnswer struct {
	AccessToken  string   `json:"access_token"`
	RefreshToken string   `json:"refresh_token"`
	ExpiresIn    *float64 `json:"expires_in"`
}

func (t tokenAnswer) check() error {
	if t.AccessToken == "" || t.RefreshToken == "" || t.ExpiresIn == nil {
		return errors.New("the token endpoint's answer lacks access_token, refresh_token or expires_in")
	}
	return nil
}

// refreshAnthropic posts the refresh grant as JSON and stores the new pair
// with five minutes taken off its lifetime, as pi does.
func (c *Client) refreshAnthropic(ctx context.Context, cred pihome.Credential) (json.RawMessage, error) {
	var t tokenAnswer
	err := c.do(ctx, request{
		method: http.MethodPost, url: anthropicTokenURL, timeout: anthropicPostLimit,
		header: map[string]string{"Content-Type": "application/json", "Accept": "application/json"},
		body: jsonBody(
			pihome.Member{Name: "grant_type", Value: "refresh_token"},
			pihome.Member{Name: "client_id", Value: anthropicClientID},
			pihome.Member{Name: "refresh_token", Value: cred.Refresh},
		),
	}, &t)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		return nil, err
	}
	expires := c.now().UnixMilli() + int64(*t.ExpiresIn*1000) - expiryMargin.Milliseconds()
	return pihome.MarshalOrdered(
		pihome.Member{Name: "type", Value: "oauth"},
		pihome.Member{Name: "refresh", Value: t.RefreshToken},
		pihome.Member{Name: "access", Value: t.AccessToken},
		pihome.Member{Name: "expires", Value: expires},
	)
}
