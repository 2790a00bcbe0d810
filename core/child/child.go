// Package child is how cairn starts the programs it runs: the environment
// they start from, and, for the helper programs it talks to (MCP servers,
// extensions), a process group of their own, killed as one.
//
// The environment is judged in one place, Secret, for both kinds: a helper
// program starts from Env (what programs need to run, never a secret), a
// command (the bash tool, rpc bash, !cmd, hooks through core/shell) from
// an EnvPolicy, the person's "shellEnvironment" setting, which by default
// passes everything but cairn's keys and what Secret judges a credential.
package child

// InheritedVars are the variables of cairn's environment a helper program
// gets, besides its own env: what programs need to run, not cairn's
// secrets (API keys), as the official MCP SDKs do.
var InheritedVars = []string{
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
	// Windows
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATHEXT", "PROCESSOR_ARCHITECTURE",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE", "PROGRAMFILES", "COMSPEC",
}

// Env is the environment a helper program starts from: the InheritedVars
// getenv has values for, none of them a Secret.
func Env(getenv func(string) string) []string {
	var env []string
	for _, k := range InheritedVars {
		if v := getenv(k); v != "" && !Secret(k) {
			env = append(env, k+"="+v)
		}
	}
	return env
}
