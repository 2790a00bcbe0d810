// Package redact keeps secrets out of what cairn shows: error texts that
// reach a person or the model, and URLs shown to hosts and people. It is
// the one home of that concern; each boundary (a provider's answer, an MCP
// server's connection, a front end showing a model) calls it once.
package redact

import (
	"net/url"
	"slices"
	"strings"
)

// Mask replaces each secret removed from a text.
const Mask = "[redacted]"

// MinSecret is the shortest value treated as a secret. Shorter values are
// left alone: masking every "none" or "true" in an error would garble it,
// and a credential that short protects nothing anyway.
const MinSecret = 8

// Secrets returns s with every occurrence of each secret replaced by Mask.
// Longer secrets are replaced first, so one that contains another is not
// left half shown.
func Secrets(s string, secrets ...string) string {
	if len(secrets) > 1 {
		secrets = slices.Clone(secrets)
		slices.SortFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	}
	for _, secret := range secrets {
		if len(secret) >= MinSecret {
			s = strings.ReplaceAll(s, secret, Mask)
		}
	}
	return s
}

// authSchemes are the words that may precede a credential in a header
// value ("Bearer <token>"): a server echoing only the token must not show
// it either.
var authSchemes = []string{"bearer ", "basic ", "token ", "apikey ", "key "}

// HeaderValues returns the values of configured headers as secrets: any of
// them may carry a credential (an Authorization, an X-Api-Key, a gateway's
// own header), so all are treated as one. A value that starts with an
// authorization scheme also yields the credential after it.
func HeaderValues(headers map[string]string) []string {
	var out []string
	for _, v := range headers {
		v = strings.TrimSpace(v)
		out = append(out, v)
		lower := strings.ToLower(v)
		for _, scheme := range authSchemes {
			if strings.HasPrefix(lower, scheme) {
				out = append(out, strings.TrimSpace(v[len(scheme):]))
			}
		}
	}
	return out
}

// secretParams are words that mark a query parameter's value as a secret
// when they appear in its name (key, api_key, access_token, sig, …).
var secretParams = []string{"key", "token", "secret", "password", "passwd", "auth", "sig", "credential"}

// URL returns raw fit to show: without user:password@ and with the values of
// query parameters that look like credentials (?key=, ?access_token=)
// masked. Text that does not parse as a URL still loses anything between
// "://" and an "@" in its authority.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return stripUserinfo(raw)
	}
	q := maskQuery(u.RawQuery)
	if u.User == nil && q == u.RawQuery {
		return raw // nothing to hide: keep the text exactly as given
	}
	u.User, u.RawQuery = nil, q
	return u.String()
}

// URLSecrets returns the credentials raw carries, for Secrets: the user
// name and password of its userinfo and the values of its credential-like
// query parameters. An error that quotes the URL (as net/http's do, with
// only the password starred) then loses them too.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		p, _ := u.User.Password()
		out = append(out, u.User.Username(), p)
	}
	for name, values := range u.Query() {
		if secretParam(name) {
			out = append(out, values...)
		}
	}
	return out
}

// secretParam reports whether a query parameter's name marks its value as
// a credential.
func secretParam(name string) bool {
	name = strings.ToLower(name)
	for _, w := range secretParams {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// stripUserinfo cuts userinfo from a string that is not a well-formed URL.
func stripUserinfo(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	rest := raw[i+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		end = len(rest)
	}
	if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
		return raw[:i+3] + rest[at+1:]
	}
	return raw
}

// maskQuery masks the values of credential-like parameters, keeping the
// others and the order as they were.
func maskQuery(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		raw, _, found := strings.Cut(p, "=")
		if !found {
			continue
		}
		name := raw
		if n, err := url.QueryUnescape(raw); err == nil {
			name = n
		}
		if secretParam(name) {
			parts[i] = raw + "=" + Mask
		}
	}
	return strings.Join(parts, "&")
}

// Error returns err with the secrets taken out of its text: nil for nil, err
// itself when its text holds none. The result still unwraps to err, so
// errors.Is keeps working; a caller that errors.As a typed error out of it
// gets the original, unredacted value, and must redact that type's fields
// itself (as the provider package does for its *Error).
func Error(err error, secrets ...string) error {
	if err == nil {
		return nil
	}
	msg := Secrets(err.Error(), secrets...)
	if msg == err.Error() {
		return err
	}
	return &redactedError{msg: msg, err: err}
}

// redactedError shows a redacted text and unwraps to the original error.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
