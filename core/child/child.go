// Package child is how cairn starts the helper programs it talks to (MCP
// servers, extensions): the environment they start from, which holds what
// programs need to run and none of cairn's secrets, and a process group of
// their own, killed as one.
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
// getenv has values for.
func Env(getenv func(string) string) []string {
	var env []string
	for _, k := range InheritedVars {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
