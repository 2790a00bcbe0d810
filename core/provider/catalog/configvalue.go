package catalog

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// A config value is an apiKey or header value in models.json or auth.json,
// read by pi 0.87's rules (core/resolve-config-value.js):
//
//   - "!command" runs command with sh -c (10 seconds at most, no input) and
//     uses its output without surrounding white space; a failure, a time-out
//     or empty output leaves the value unresolved;
//   - anything else is a template: "$NAME" and "${NAME}" are replaced by the
//     variable (NAME is a letter or _ then letters, digits, _), "$$" is a
//     literal "$" and "$!" a literal "!"; a "$" followed by anything else
//     (or a "${" never closed, or "${...}" that is no name) stays as written.
//     A variable that is unset or empty leaves the whole value unresolved.
//
// A bare name such as "OPENAI_API_KEY" is therefore a literal, as in pi
// 0.87 (older pi releases read it as a variable name).

// configPart is one piece of a template: literal text, or a variable.
type configPart struct {
	literal string
	env     string // the variable's name; literal is unused then
}

// configValue is a parsed config value.
type configValue struct {
	command string // without the "!"; set for a command value
	isCmd   bool
	parts   []configPart
}

// parseConfigValue splits v as pi does; it never fails.
func parseConfigValue(v string) configValue {
	if cmd, ok := strings.CutPrefix(v, "!"); ok {
		return configValue{command: cmd, isCmd: true}
	}
	var parts []configPart
	lit := func(s string) {
		if s == "" {
			return
		}
		if n := len(parts); n > 0 && parts[n-1].env == "" {
			parts[n-1].literal += s
			return
		}
		parts = append(parts, configPart{literal: s})
	}
	i := 0
	for i < len(v) {
		d := strings.IndexByte(v[i:], '$')
		if d < 0 {
			lit(v[i:])
			break
		}
		d += i
		lit(v[i:d])
		switch next := byteAt(v, d+1); {
		case next == '$' || next == '!':
			lit(string(next))
			i = d + 2
		case next == '{':
			end := strings.IndexByte(v[d+2:], '}')
			if end < 0 {
				lit("$")
				i = d + 1
				continue
			}
			end += d + 2
			if name := v[d+2 : end]; isVarName(name) {
				parts = append(parts, configPart{env: name})
			} else {
				lit(v[d : end+1])
			}
			i = end + 1
		default:
			if n := varNamePrefix(v[d+1:]); n > 0 {
				parts = append(parts, configPart{env: v[d+1 : d+1+n]})
				i = d + 1 + n
				continue
			}
			lit("$")
			i = d + 1
		}
	}
	return configValue{parts: parts}
}

func byteAt(s string, i int) byte {
	if i < len(s) {
		return s[i]
	}
	return 0
}

// varNamePrefix is the length of the variable name s starts with, or 0.
func varNamePrefix(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return i
		}
	}
	return len(s)
}

func isVarName(s string) bool { return s != "" && varNamePrefix(s) == len(s) }

// envNames lists the variables the value reads, each once, in order.
func (cv configValue) envNames() []string {
	var names []string
	for _, p := range cv.parts {
		if p.env != "" && !containsString(names, p.env) {
			names = append(names, p.env)
		}
	}
	return names
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// configured reports, without running anything, whether the value can be
// resolved: a command always counts (pi shows it as configured), a template
// when every variable it reads is set and not empty.
func (cv configValue) configured(getenv func(string) string) bool {
	if cv.isCmd {
		return true
	}
	for _, name := range cv.envNames() {
		if getenv(name) == "" {
			return false
		}
	}
	return true
}

// expand resolves a template; ok is false when a variable is unset.
func (cv configValue) expand(getenv func(string) string) (string, bool) {
	var b strings.Builder
	for _, p := range cv.parts {
		if p.env == "" {
			b.WriteString(p.literal)
			continue
		}
		v := getenv(p.env)
		if v == "" {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// configResolver resolves config values; commands go through run.
type configResolver struct {
	getenv func(string) string
	run    func(command string) (string, error)

	mu    sync.Mutex
	cache map[string]cachedOutput // auth.json's command values, by command
}

type cachedOutput struct {
	out string
	ok  bool
}

// resolve returns the value v stands for. what names it in errors ("API
// key for provider "x""). cached says whether a command's result (success
// or failure) is kept for the process's life, as pi keeps it for auth.json
// keys; models.json's keys and headers run their command every time.
func (r *configResolver) resolve(v, what string, cached bool) (string, error) {
	cv := parseConfigValue(v)
	if cv.isCmd {
		out, ok := r.command(cv.command, cached)
		if !ok {
			return "", fmt.Errorf("failed to resolve %s from shell command: %s", what, cv.command)
		}
		return out, nil
	}
	if out, ok := cv.expand(r.getenv); ok {
		return out, nil
	}
	var missing []string
	for _, name := range cv.envNames() {
		if r.getenv(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) == 1 {
		return "", fmt.Errorf("failed to resolve %s from environment variable %s: it is not set", what, missing[0])
	}
	return "", fmt.Errorf("failed to resolve %s from environment variables %s: they are not set", what, strings.Join(missing, ", "))
}

func (r *configResolver) command(cmd string, cached bool) (string, bool) {
	if !cached {
		return r.runOnce(cmd)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.cache[cmd]; ok {
		return c.out, c.ok
	}
	out, ok := r.runOnce(cmd)
	if r.cache == nil {
		r.cache = map[string]cachedOutput{}
	}
	r.cache[cmd] = cachedOutput{out, ok}
	return out, ok
}

func (r *configResolver) runOnce(cmd string) (string, bool) {
	out, err := r.run(cmd)
	out = strings.TrimSpace(out)
	return out, err == nil && out != ""
}

// commandTimeout is how long a "!command" value may run, as in pi.
const commandTimeout = 10 * time.Second

// runShell runs command with sh -c, as Node's execSync does: no input,
// standard error discarded, at most commandTimeout.
func runShell(command string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", command)
	cmd.WaitDelay = time.Second
	out, err := cmd.Output()
	if err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return "", fmt.Errorf("command %q exited with %d", command, exitErr.ExitCode())
		}
		return "", fmt.Errorf("command %q: %w", command, err)
	}
	return string(out), nil
}
