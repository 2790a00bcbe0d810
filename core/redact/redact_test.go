package redact

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestSecrets(t *testing.T) {
	tests := []struct {
		name    string
		s       string
		secrets []string
		want    string
	}{
		{"every occurrence", "key sk-ant-abc123 and again sk-ant-abc123", []string{"sk-ant-abc123"}, "key [redacted] and again [redacted]"},
		{"nothing to hide", "nothing here", []string{"sk-ant-abc123"}, "nothing here"},
		{"too short to be a secret", "none of them, none", []string{"none", ""}, "none of them, none"},
		{"longer first", "token abcdefgh-ijkl", []string{"abcdefgh", "abcdefgh-ijkl"}, "token [redacted]"},
		{"several", "a=secret-one b=secret-two", []string{"secret-one", "secret-two"}, "a=[redacted] b=[redacted]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.secrets)
			if got := Secrets(tt.s, tt.secrets...); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
			if !slices.Equal(before, tt.secrets) {
				t.Errorf("the caller's secrets were reordered: %q", tt.secrets)
			}
		})
	}
}

func TestHeaderValues(t *testing.T) {
	got := HeaderValues(map[string]string{"Authorization": "Bearer tok-1234567890", "X-Gateway-Key": " gw-secret-value "})
	slices.Sort(got)
	want := []string{"Bearer tok-1234567890", "gw-secret-value", "tok-1234567890"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// A server echoing only the token is redacted as well as the whole value.
	if s := Secrets("bad token tok-1234567890", got...); strings.Contains(s, "tok-1234567890") {
		t.Fatalf("token shown: %q", s)
	}
}

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.example.com/v1", "https://api.example.com/v1"},
		{"https://user:hunter2@proxy.example.com:8443/v1", "https://proxy.example.com:8443/v1"},
		{"http://token@localhost:8080/v1", "http://localhost:8080/v1"},
		{"https://gw.example.com/v1?key=AIzaSECRET&alt=sse", "https://gw.example.com/v1?key=[redacted]&alt=sse"},
		{"https://gw.example.com/v1?access_token=abc&api-version=2024", "https://gw.example.com/v1?access_token=[redacted]&api-version=2024"},
		{"https://gw.example.com/v1?X-Amz-Signature=f00&flag", "https://gw.example.com/v1?X-Amz-Signature=[redacted]&flag"},
		// Not a well-formed URL: the userinfo still goes.
		{"http://us er:pa ss@host/v1", "http://host/v1"},
		{"not a url", "not a url"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := URL(tt.in); got != tt.want {
			t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzURL: whatever the input, a URL shown has no userinfo left in it, and
// a password the input carried is not in the output.
func FuzzURL(f *testing.F) {
	for _, s := range []string{"https://u:p@h/x?key=1", "http://h", "h://@", "://a@b/c", "http://a@b@c/d", "http://[::1]:80/?token=x#f", "mailto:a@b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := URL(in)
		if u, err := url.Parse(in); err == nil && u.Opaque == "" {
			if p, ok := u.User.Password(); ok && len(p) >= 4 && strings.Contains(out, ":"+p+"@") {
				t.Fatalf("URL(%q) = %q keeps the password", in, out)
			}
			if v, err := url.Parse(out); err != nil || v.User != nil {
				t.Fatalf("URL(%q) = %q: still has userinfo (%v)", in, out, err)
			}
		}
	})
}

func TestError(t *testing.T) {
	base := errors.New("dial: token tok-1234567890 refused")
	err := Error(fmt.Errorf("connect: %w", base), "tok-1234567890")
	if err.Error() != "connect: dial: token [redacted] refused" || !errors.Is(err, base) {
		t.Fatalf("got %q (is base: %v)", err, errors.Is(err, base))
	}
	if clean := errors.New("nothing secret"); Error(clean, "tok-1234567890") != clean {
		t.Fatal("an error without secrets was replaced")
	}
	if Error(nil, "tok-1234567890") != nil {
		t.Fatal("nil became an error")
	}
}

func TestURLSecrets(t *testing.T) {
	got := URLSecrets("https://bob:hunter2-long@gw.example.com/v1?key=AIzaSECRET&alt=sse&access_token=t0k")
	slices.Sort(got)
	want := []string{"AIzaSECRET", "bob", "hunter2-long", "t0k"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	if got := URLSecrets("https://api.example.com/v1"); len(got) != 0 {
		t.Fatalf("a URL without credentials gave %q", got)
	}
}
