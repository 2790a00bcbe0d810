package webui

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
)

// TokenBytes is how many random bytes a token holds: 256 bits.
const TokenBytes = 32

// NewToken returns a fresh secret token: TokenBytes from crypto/rand,
// base64url without padding (43 characters, safe in a URL path).
func NewToken() (string, error) {
	b := make([]byte, TokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make the page's token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// tokenMatches reports whether got is the token, in time independent of
// where they differ.
func tokenMatches(got, token string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
}
