package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/core/pihome"
)

// The browser logins' authorize endpoints and redirect URLs, as pi's.
const (
	anthropicAuthorizeURL = "https://claude.ai/oauth/authorize"
	anthropicRedirect     = "http://localhost:53692/callback"
	anthropicScopes       = "org:create_api_key user:profile user:inference user:sessions:claude_code user:mcp_servers user:file_upload"
	codexAuthorizeURL     = "https://auth.openai.com/oauth/authorize"
	codexRedirect         = "http://localhost:1455/auth/callback"
	codexScope            = "openid profile email offline_access"
	codexDeviceCodeURL    = "https://auth.openai.com/api/accounts/deviceauth/usercode"
	codexDeviceTokenURL   = "https://auth.openai.com/api/accounts/deviceauth/token"
	codexDeviceVerifyURL  = "https://auth.openai.com/codex/device"
	codexDeviceRedirect   = "https://auth.openai.com/deviceauth/callback"
	codexDeviceLifetime   = 15 * time.Minute
	copilotClientID       = "Iv1.b507a08c87ecfe98"
)

func (c *Client) loginAnthropic(ctx context.Context, in Interaction) (json.RawMessage, error) {
	verifier, challenge := pkce()
	cs := c.listenCallback(53692, "/callback", func(state string) bool { return state == verifier })
	defer cs.close()
	q := url.Values{}
	for _, kv := range [][2]string{{"code", "true"}, {"client_id", anthropicClientID}, {"response_type", "code"},
		{"redirect_uri", anthropicRedirect}, {"scope", anthropicScopes}, {"code_challenge", challenge},
		{"code_challenge_method", "S256"}, {"state", verifier}} {
		q.Set(kv[0], kv[1])
	}
	in.notify(Notice{Kind: "auth_url", URL: c.url(anthropicAuthorizeURL) + "?" + q.Encode(),
		Text: "Complete login in your browser. If the browser is on another machine, paste the final redirect URL here."})
	got, err := waitForCode(ctx, cs, in, anthropicRedirect)
	if err != nil {
		return nil, err
	}
	if got.state != "" && got.state != verifier {
		return nil, errors.New("OAuth state mismatch: paste the redirect URL of this login")
	}
	if got.state == "" {
		got.state = verifier
	}
	in.notify(Notice{Kind: "progress", Text: "Exchanging authorization code for tokens..."})
	var t tokenAnswer
	err = c.do(ctx, request{
		method: http.MethodPost, url: anthropicTokenURL, timeout: anthropicPostLimit,
		header: map[string]string{"Content-Type": "application/json", "Accept": "application/json"},
		body: jsonBody(
			pihome.Member{Name: "grant_type", Value: "authorization_code"},
			pihome.Member{Name: "client_id", Value: anthropicClientID},
			pihome.Member{Name: "code", Value: got.code},
			pihome.Member{Name: "state", Value: got.state},
			pihome.Member{Name: "redirect_uri", Value: anthropicRedirect},
			pihome.Member{Name: "code_verifier", Value: verifier},
		),
	}, &t)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		return nil, scrub(err, got.code)
	}
	return pihome.MarshalOrdered(
		pihome.Member{Name: "type", Value: "oauth"},
		pihome.Member{Name: "refresh", Value: t.RefreshToken},
		pihome.Member{Name: "access", Value: t.AccessToken},
		pihome.Member{Name: "expires", Value: c.now().UnixMilli() + int64(*t.ExpiresIn*1000) - expiryMargin.Milliseconds()},
	)
}

func (c *Client) loginCodexBrowser(ctx context.Context, in Interaction) (json.RawMessage, error) {
	verifier, challenge := pkce()
	state := randomHex(16)
	cs := c.listenCallback(1455, "/auth/callback", func(s string) bool { return s == state })
	defer cs.close()
	q := url.Values{}
	for _, kv := range [][2]string{{"response_type", "code"}, {"client_id", codexClientID}, {"redirect_uri", codexRedirect},
		{"scope", codexScope}, {"code_challenge", challenge}, {"code_challenge_method", "S256"}, {"state", state},
		{"id_token_add_organizations", "true"}, {"codex_cli_simplified_flow", "true"}, {"originator", "pi"}} {
		q.Set(kv[0], kv[1])
	}
	in.notify(Notice{Kind: "auth_url", URL: c.url(codexAuthorizeURL) + "?" + q.Encode(), Text: "A browser window should open. Complete login to finish."})
	got, err := waitForCode(ctx, cs, in, codexRedirect)
	if err != nil {
		return nil, err
	}
	if got.state != "" && got.state != state {
		return nil, errors.New("OAuth state mismatch: paste the redirect URL of this login")
	}
	return c.codexExchange(ctx, got.code, verifier, codexRedirect)
}

func (c *Client) codexExchange(ctx context.Context, code, verifier, redirect string) (json.RawMessage, error) {
	var t tokenAnswer
	err := c.do(ctx, request{
		method: http.MethodPost, url: codexTokenURL,
		header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"},
		body:   formBody("grant_type", "authorization_code", "client_id", codexClientID, "code", code, "code_verifier", verifier, "redirect_uri", redirect),
	}, &t)
	if err == nil {
		err = t.check()
	}
	if err != nil {
		return nil, scrub(err, code)
	}
	return c.codexEntry(t)
}

// pollResult is one answer of a device-code token endpoint.
type pollResult struct {
	done     bool
	slowDown bool
	interval time.Duration // a slow_down's new interval, 0 when not given
}

// pollDevice polls until done, an error, ctx's end or the code's expiry,
// as pi's pollOAuthDeviceCodeFlow: at least a second apart, five seconds
// more after each slow_down (or the interval the server names).
func (c *Client) pollDevice(ctx context.Context, interval, lifetime time.Duration, waitFirst bool, poll func() (pollResult, error)) error {
	floor := c.pollFloor
	if floor == 0 {
		floor = time.Second
	}
	if interval <= 0 {
		interval = 5 * time.Second
	}
	interval = max(interval, floor)
	deadline := time.Now().Add(lifetime)
	slowed := false
	sleep := func(d time.Duration) error {
		d = min(d, time.Until(deadline))
		if d <= 0 {
			return nil
		}
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return fmt.Errorf("login cancelled: %w", ctx.Err())
		case <-t.C:
			return nil
		}
	}
	if waitFirst {
		if err := sleep(interval); err != nil {
			return err
		}
	}
	for time.Now().Before(deadline) {
		r, err := poll()
		if err != nil {
			return err
		}
		if r.done {
			return nil
		}
		if r.slowDown {
			slowed = true
			if r.interval > 0 {
				interval = max(r.interval, floor)
			} else {
				interval += 5 * time.Second
			}
		}
		if err := sleep(interval); err != nil {
			return err
		}
	}
	if slowed {
		return errors.New("the device code expired after one or more slow_down answers (often a clock that drifts in a VM or WSL: sync it and try again)")
	}
	return errors.New("the device code expired before the login was completed; run the login again")
}

func (c *Client) loginCodexDevice(ctx context.Context, in Interaction) (json.RawMessage, error) {
	var start struct {
		DeviceAuthID string          `json:"device_auth_id"`
		UserCode     string          `json:"user_code"`
		Interval     json.RawMessage `json:"interval"`
	}
	err := c.do(ctx, request{method: http.MethodPost, url: codexDeviceCodeURL,
		header: map[string]string{"Content-Type": "application/json"},
		body:   jsonBody(pihome.Member{Name: "client_id", Value: codexClientID})}, &start)
	var se *StatusError
	if errors.As(err, &se) && se.Status == http.StatusNotFound {
		return nil, errors.New("OpenAI Codex device code login is not enabled for this server; use the browser login")
	}
	if err != nil {
		return nil, err
	}
	seconds, ok := flexSeconds(start.Interval)
	if start.DeviceAuthID == "" || start.UserCode == "" || !ok {
		return nil, errors.New("the device code answer lacks device_auth_id, user_code or interval")
	}
	in.notify(Notice{Kind: "device_code", URL: codexDeviceVerifyURL, Code: start.UserCode})
	var code struct {
		AuthorizationCode string `json:"authorization_code"`
		CodeVerifier      string `json:"code_verifier"`
	}
	err = c.pollDevice(ctx, seconds, codexDeviceLifetime, false, func() (pollResult, error) {
		err := c.do(ctx, request{method: http.MethodPost, url: codexDeviceTokenURL,
			header: map[string]string{"Content-Type": "application/json"},
			body: jsonBody(pihome.Member{Name: "device_auth_id", Value: start.DeviceAuthID},
				pihome.Member{Name: "user_code", Value: start.UserCode})}, &code)
		var se *StatusError
		switch {
		case err == nil && (code.AuthorizationCode == "" || code.CodeVerifier == ""):
			return pollResult{}, errors.New("the device token answer lacks authorization_code or code_verifier")
		case err == nil:
			return pollResult{done: true}, nil
		case errors.As(err, &se) && (se.Status == http.StatusForbidden || se.Status == http.StatusNotFound || hasCode(se, "deviceauth_authorization_pending")):
			return pollResult{}, nil
		case errors.As(err, &se) && hasCode(se, "slow_down"):
			return pollResult{slowDown: true}, nil
		}
		return pollResult{}, err
	})
	if err != nil {
		return nil, err
	}
	return c.codexExchange(ctx, code.AuthorizationCode, code.CodeVerifier, codexDeviceRedirect)
}

func hasCode(se *StatusError, code string) bool {
	first, _, _ := cutSpace(se.Code)
	return first == code
}

func cutSpace(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// flexSeconds reads an interval given as a number or a numeric string.
func flexSeconds(raw json.RawMessage) (time.Duration, bool) {
	var n float64
	if json.Unmarshal(raw, &n) != nil {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false
		}
		n = v
	}
	if n < 0 || n > 3600 {
		return 0, false
	}
	return time.Duration(n * float64(time.Second)), true
}

func (c *Client) loginCopilot(ctx context.Context, enterpriseInput string, in Interaction) (json.RawMessage, error) {
	enterprise := NormalizeDomain(enterpriseInput)
	if enterpriseInput != "" && enterprise == "" {
		return nil, errors.New("not a GitHub Enterprise URL or domain: " + enterpriseInput)
	}
	domain := enterprise
	if domain == "" {
		domain = "github.com"
	}
	h := map[string]string{"Accept": "application/json", "Content-Type": "application/x-www-form-urlencoded", "User-Agent": copilotUserAgent}
	var dev struct {
		DeviceCode      string   `json:"device_code"`
		UserCode        string   `json:"user_code"`
		VerificationURI string   `json:"verification_uri"`
		Interval        *float64 `json:"interval"`
		ExpiresIn       *float64 `json:"expires_in"`
	}
	if err := c.do(ctx, request{method: http.MethodPost, url: "https://" + domain + "/login/device/code", header: h,
		body: formBody("client_id", copilotClientID, "scope", "read:user")}, &dev); err != nil {
		return nil, err
	}
	if dev.DeviceCode == "" || dev.UserCode == "" || dev.ExpiresIn == nil {
		return nil, errors.New("the device code answer lacks device_code, user_code or expires_in")
	}
	if u, err := url.Parse(dev.VerificationURI); err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
		return nil, errors.New("the device code answer names an untrusted verification_uri")
	}
	in.notify(Notice{Kind: "device_code", URL: dev.VerificationURI, Code: dev.UserCode})
	var interval time.Duration
	if dev.Interval != nil {
		interval = time.Duration(*dev.Interval * float64(time.Second))
	}
	var githubToken string
	err := c.pollDevice(ctx, interval, time.Duration(*dev.ExpiresIn*float64(time.Second)), true, func() (pollResult, error) {
		var a struct {
			AccessToken string   `json:"access_token"`
			Error       string   `json:"error"`
			Description string   `json:"error_description"`
			Interval    *float64 `json:"interval"`
		}
		if err := c.do(ctx, request{method: http.MethodPost, url: "https://" + domain + "/login/oauth/access_token", header: h,
			body: formBody("client_id", copilotClientID, "device_code", dev.DeviceCode, "grant_type", "urn:ietf:params:oauth:grant-type:device_code")}, &a); err != nil {
			return pollResult{}, err
		}
		switch {
		case a.AccessToken != "":
			githubToken = a.AccessToken
			return pollResult{done: true}, nil
		case a.Error == "authorization_pending":
			return pollResult{}, nil
		case a.Error == "slow_down":
			r := pollResult{slowDown: true}
			if a.Interval != nil && *a.Interval > 0 {
				r.interval = time.Duration(*a.Interval * float64(time.Second))
			}
			return r, nil
		case a.Error != "":
			return pollResult{}, fmt.Errorf("device flow failed: %s %s", a.Error, a.Description)
		}
		return pollResult{}, errors.New("the device token answer is not one GitHub gives")
	})
	if err != nil {
		return nil, err
	}
	tok, err := c.copilotToken(ctx, githubToken, enterprise)
	if err != nil {
		return nil, scrub(err, githubToken)
	}
	models, err := c.copilotModels(ctx, tok.Token, enterprise)
	if err != nil {
		return nil, scrub(err, githubToken, tok.Token)
	}
	return c.copilotEntry(githubToken, tok, enterprise, models)
}
