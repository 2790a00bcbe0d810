package shell

// inheritedVars are the variables of cairn's environment that a program
// cairn starts on someone else's behalf gets: what programs need to run,
// never cairn's secrets (API keys), as the official MCP SDKs do.
var inheritedVars = []string{
	"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
	"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
	// Windows
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATHEXT", "PROCESSOR_ARCHITECTURE",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE", "PROGRAMFILES", "COMSPEC",
}

// InheritedEnv is the environment, read through getenv, that a program
// cairn starts for a configuration rather than for the model (an MCP
// server, a hook, an extension) starts from: the variables programs need
// to run, and none of cairn's API keys. Add what the program is given on
// top of it.
func InheritedEnv(getenv func(string) string) []string {
	var env []string
	for _, k := range inheritedVars {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	return env
}
