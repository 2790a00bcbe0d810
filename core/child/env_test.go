package child

import (
	"slices"
	"strings"
	"testing"
)

func TestSecret(t *testing.T) {
	secret := []string{
		"OPENAI_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "GEMINI_API_KEY", "AWS_ACCESS_KEY_ID",
		"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "NPM_TOKEN",
		"npm_config__authToken", "NPM_CONFIG__AUTH", "PGPASSWORD", "MYSQL_PWD", "DB_PASSWD",
		"GOOGLE_APPLICATION_CREDENTIALS", "STRIPE_SECRET_KEY", "CLIENT_SECRET", "GPG_PASSPHRASE",
		"HF_TOKEN", "GITHUB_PAT", "SIGNING_KEYS", "openaiApiKey", "SESSION_COOKIE", "X_AUTHORIZATION",
	}
	kept := []string{
		"PATH", "HOME", "PWD", "OLDPWD", "GOPATH", "GOFLAGS", "CARGO_HOME", "SSH_AUTH_SOCK",
		"TERM", "LANG", "KEYTIMEOUT", "PYTHON_KEYRING_BACKEND", "XDG_SESSION_ID", "TOKENIZERS_PARALLELISM",
		"AUTH_DOMAIN", "SECRETARY", "",
	}
	for _, n := range secret {
		if !Secret(n) {
			t.Errorf("Secret(%q) = false, want true", n)
		}
	}
	for _, n := range kept {
		// SECRETARY holds SECRET: over-cautious by design.
		if want := n == "SECRETARY"; Secret(n) != want {
			t.Errorf("Secret(%q) = %v, want %v", n, !want, want)
		}
	}
}

func TestEnvironByPolicy(t *testing.T) {
	environ := []string{"PATH=/bin", "HOME=/h", "GOPATH=/go", "OPENAI_API_KEY=sk", "MY_LLM=k",
		"GITHUB_TOKEN=gh", "DATABASE_URL=pg://u:p@h", "CI=0", "junk", "=x"}
	keys := []string{"MY_LLM"}
	cases := []struct {
		name string
		p    EnvPolicy
		want []string
	}{
		{"default drops keys and secrets", EnvPolicy{},
			[]string{"PATH=/bin", "HOME=/h", "GOPATH=/go", "DATABASE_URL=pg://u:p@h", "CI=0"}},
		{"passthrough one", EnvPolicy{Passthrough: []string{"github_token"}},
			[]string{"PATH=/bin", "HOME=/h", "GOPATH=/go", "GITHUB_TOKEN=gh", "DATABASE_URL=pg://u:p@h", "CI=0"}},
		{"exclude wins over passthrough", EnvPolicy{Exclude: []string{"DATABASE_*", "GITHUB_*"}, Passthrough: []string{"GITHUB_TOKEN"}},
			[]string{"PATH=/bin", "HOME=/h", "GOPATH=/go", "CI=0"}},
		{"core", EnvPolicy{Inherit: InheritCore}, []string{"PATH=/bin", "HOME=/h"}},
		{"none with passthrough and set", EnvPolicy{Inherit: InheritNone, Passthrough: []string{"MY_LLM"}, Set: map[string]string{"CI": "1"}},
			[]string{"MY_LLM=k", "CI=1"}},
	}
	for _, c := range cases {
		if got := c.p.Environ(environ, keys); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestTightenEnv(t *testing.T) {
	user := EnvPolicy{Inherit: InheritCore, Passthrough: []string{"A_TOKEN"}, Set: map[string]string{"X": "1"}}
	project := EnvPolicy{Inherit: InheritAll, Exclude: []string{"PATH"}, Passthrough: []string{"A_TOKEN", "B_TOKEN"},
		Set: map[string]string{"X": "2", "Y": "1"}}
	got, dropped := TightenEnv(user, project)
	if got.Inherit != InheritCore || !slices.Equal(got.Exclude, []string{"PATH"}) ||
		!slices.Equal(got.Passthrough, []string{"A_TOKEN"}) || got.Set["X"] != "1" || len(got.Set) != 1 {
		t.Errorf("TightenEnv = %+v", got)
	}
	if want := []string{"passthrough B_TOKEN", "set X", "set Y"}; !slices.Equal(dropped, want) {
		t.Errorf("dropped %q, want %q", dropped, want)
	}
}

// FuzzSecret: the judgement ignores case, never panics, and whatever
// policy a project adds, the environment under it is never wider than the
// person's own.
func FuzzSecret(f *testing.F) {
	for _, s := range []string{"OPENAI_API_KEY", "PWD", "MYSQL_PWD", "a_auth", "x-token-y", "ÄKEY", "", "_"} {
		f.Add(s, "*")
	}
	f.Fuzz(func(t *testing.T, name, pattern string) {
		if Secret(name) != Secret(strings.ToLower(name)) || Secret(name) != Secret(strings.ToUpper(name)) {
			t.Errorf("Secret(%q) depends on case", name)
		}
		if strings.ContainsAny(name, "=\x00") || name == "" {
			return
		}
		environ := []string{name + "=v", "PATH=/bin"}
		user := EnvPolicy{}
		project := EnvPolicy{Passthrough: []string{pattern}, Set: map[string]string{name: "w"}, Inherit: Inherit(pattern)}
		tight, _ := TightenEnv(user, project)
		if got := tight.Environ(environ, nil); len(got) > len(user.Environ(environ, nil)) ||
			(Secret(name) && slices.Contains(got, name+"=v")) {
			t.Errorf("project %+v widened the environment to %q", project, got)
		}
	})
}
