package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core/redact"
	"github.com/cairn-dev/cairn/core/regfile"
)

// DefaultTimeout bounds one request to a server (a tool call, a listing)
// when its configuration names no timeout.
const DefaultTimeout = 60 * time.Second

// MaxConfigSize is the largest mcp.json read; a bigger file is refused
// without being read whole.
const MaxConfigSize = 1 << 20

// Transport names how cairn talks to a server.
type Transport string

// The transports.
const (
	// TransportStdio runs a command and speaks over its stdin and stdout.
	TransportStdio Transport = "stdio"
	// TransportHTTP is streamable HTTP, falling back to the older
	// HTTP+SSE transport when the server refuses it.
	TransportHTTP Transport = "http"
	// TransportSSE is the older HTTP+SSE transport only.
	TransportSSE Transport = "sse"
)

// Server is one configured server, with ${VAR} references expanded.
type Server struct {
	// Name is the key under mcpServers.
	Name string
	// Source is the file the entry came from.
	Source    string
	Transport Transport
	// Command, Args, Env and Dir start a stdio server. Env adds to
	// cairn's own environment. Dir is absolute (relative values resolve
	// against the project directory).
	Command string
	Args    []string
	Env     map[string]string
	Dir     string
	// URL and Headers reach an HTTP server.
	URL     string
	Headers map[string]string
	// Timeout bounds each request.
	Timeout time.Duration
	// Disabled keeps the entry without starting it.
	Disabled bool
}

// CommandLine is the server's command as a person would type it, or its
// URL without credentials (user:password@, ?key=), for messages and lists.
func (s Server) CommandLine() string {
	if s.Transport != TransportStdio {
		return redact.URL(s.URL)
	}
	return strings.Join(append([]string{s.Command}, s.Args...), " ")
}

// Config is the servers of every file read, in name order.
type Config struct {
	Servers []Server
}

// Find returns the server named name.
func (c Config) Find(name string) (Server, bool) {
	for _, s := range c.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// File is one configuration file to read: where it is, and the directory
// its relative cwd values resolve against.
type File struct {
	Path string
	// Dir resolves relative cwd values; empty means the directory holding
	// the file.
	Dir string
	// Format is how the file writes its servers (cairn's mcpServers by
	// default).
	Format Format
	// Project is, for FormatClaudeUser, the project whose servers are
	// read beside the person's.
	Project string
	// Vars are variables ${NAME} reads before the environment
	// (CLAUDE_PLUGIN_ROOT for a plugin's servers).
	Vars map[string]string
	// Rename, when set, gives each server of the file the name it runs
	// under (a plugin's servers are named after the plugin).
	Rename func(string) string
}

// UserFile is the person's own configuration file in cairnDir.
func UserFile(cairnDir string) string { return filepath.Join(cairnDir, "mcp.json") }

// ProjectFiles are the project's configuration files, in the order they
// are read (later entries replace earlier ones of the same name):
// .mcp.json at root (Claude Code's file), then dir's .cairn/mcp.json.
func ProjectFiles(root, dir string) []File {
	files := []File{{Path: filepath.Join(root, ".mcp.json"), Dir: dir}}
	if dir != root {
		files = append(files, File{Path: filepath.Join(dir, ".mcp.json"), Dir: dir})
	}
	return append(files, File{Path: filepath.Join(dir, ".cairn", "mcp.json"), Dir: dir})
}

// LoadFiles reads files in order; a missing file is skipped, and a server
// named again replaces the earlier entry. Problems (a malformed file, an
// invalid entry, an unset variable) are returned joined, each naming its
// file and server; the valid servers are still returned. getenv resolves
// ${VAR} references.
func LoadFiles(files []File, getenv func(string) string) (Config, error) {
	byName := map[string]Server{}
	var errs []error
	for _, f := range files {
		limit := int64(MaxConfigSize)
		if f.Format == FormatClaudeUser {
			limit = maxClaudeUserSize
		}
		data, err := readLimited(f.Path, limit)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		dir := f.Dir
		if dir == "" {
			dir = filepath.Dir(f.Path)
		}
		fileEnv := getenv
		if len(f.Vars) > 0 {
			fileEnv = func(k string) string {
				if v, ok := f.Vars[k]; ok {
					return v
				}
				return getenv(k)
			}
		}
		servers, err := parseFormat(f, data, dir, fileEnv)
		if err != nil {
			errs = append(errs, err)
		}
		for _, s := range servers {
			if f.Rename != nil {
				s.Name = f.Rename(s.Name)
			}
			byName[s.Name] = s
		}
	}
	var cfg Config
	for _, s := range byName {
		cfg.Servers = append(cfg.Servers, s)
	}
	slices.SortFunc(cfg.Servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return cfg, errors.Join(errs...)
}

// readLimited reads a configuration file, refusing one over limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	f, err := regfile.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes; is it really an MCP configuration?", path, limit)
	}
	return data, nil
}

// rawServer is one entry of mcpServers as written.
type rawServer struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]string `json:"env"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Timeout  *float64          `json:"timeout"`
	Enabled  *bool             `json:"enabled"`
	Disabled bool              `json:"disabled"`
}

// serverName is what a server may be called: it becomes part of tool names.
// Compiled when first used: compiling at start-up cost every run.
var serverName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`) })

// Parse reads one configuration file's content. path names the file in
// errors and Server.Source; dir resolves relative cwd values. It returns
// the valid servers and an error naming each invalid one.
func Parse(path string, data []byte, dir string, getenv func(string) string) ([]Server, error) {
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not valid JSON: %w", path, err)
	}
	if doc.MCPServers == nil {
		return nil, fmt.Errorf(`%s: no "mcpServers" object; the file should look like {"mcpServers": {"name": {"command": "..."}}}`, path)
	}
	names := make([]string, 0, len(doc.MCPServers))
	for name := range doc.MCPServers {
		names = append(names, name)
	}
	slices.Sort(names)
	var servers []Server
	var errs []error
	for _, name := range names {
		s, err := parseServer(name, doc.MCPServers[name], dir, getenv)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: server %q: %w", path, name, err))
			continue
		}
		s.Source = path
		servers = append(servers, s)
	}
	return servers, errors.Join(errs...)
}

func parseServer(name string, raw json.RawMessage, dir string, getenv func(string) string) (Server, error) {
	if !serverName().MatchString(name) {
		return Server{}, errors.New("the name may hold only letters, digits, _ and - (at most 64), as it becomes part of tool names")
	}
	var r rawServer
	if err := json.Unmarshal(raw, &r); err != nil {
		return Server{}, fmt.Errorf("not a valid server entry: %w", err)
	}
	s := Server{Name: name, Timeout: DefaultTimeout, Disabled: r.Disabled || (r.Enabled != nil && !*r.Enabled)}
	if r.Timeout != nil {
		if *r.Timeout <= 0 || *r.Timeout > 24*3600 {
			return Server{}, fmt.Errorf("timeout must be a number of seconds between 0 and 86400, not %v", *r.Timeout)
		}
		s.Timeout = time.Duration(*r.Timeout * float64(time.Second))
	}
	switch {
	case r.Command != "" && r.URL != "":
		return Server{}, errors.New(`has both "command" and "url"; a server is either a command (stdio) or a URL (HTTP)`)
	case r.Command != "":
		s.Transport = TransportStdio
	case r.URL != "":
		s.Transport = TransportHTTP
	default:
		return Server{}, errors.New(`needs "command" (a program to run) or "url" (an HTTP endpoint)`)
	}
	switch r.Type {
	case "", "stdio", "http", "streamable-http", "streamableHttp", "sse":
	default:
		return Server{}, fmt.Errorf(`unknown type %q; use "stdio", "http" or "sse"`, r.Type)
	}
	if r.Type == "stdio" && s.Transport != TransportStdio {
		return Server{}, errors.New(`type "stdio" needs "command"`)
	}
	if r.Type != "" && r.Type != "stdio" && s.Transport == TransportStdio {
		return Server{}, fmt.Errorf(`type %q needs "url"`, r.Type)
	}
	if r.Type == "sse" {
		s.Transport = TransportSSE
	}
	var err error
	exp := func(field, v string) string {
		if err != nil {
			return ""
		}
		var out string
		out, err = expand(v, getenv)
		if err != nil {
			err = fmt.Errorf("%s: %w", field, err)
		}
		return out
	}
	if s.Transport == TransportStdio {
		if len(r.Headers) > 0 {
			return Server{}, errors.New(`"headers" apply to HTTP servers only`)
		}
		s.Command = expandHome(exp("command", r.Command), getenv)
		if err == nil && strings.TrimSpace(s.Command) == "" {
			return Server{}, errors.New(`"command" is empty once variables are expanded`)
		}
		for i, a := range r.Args {
			s.Args = append(s.Args, expandHome(exp(fmt.Sprintf("args[%d]", i), a), getenv))
		}
		s.Env = expandMap("env", r.Env, exp)
		cwd := expandHome(exp("cwd", r.Cwd), getenv)
		switch {
		case cwd == "":
			s.Dir = dir
		case filepath.IsAbs(cwd):
			s.Dir = cwd
		default:
			s.Dir = filepath.Join(dir, cwd)
		}
	} else {
		if len(r.Env) > 0 || r.Cwd != "" || len(r.Args) > 0 {
			return Server{}, errors.New(`"args", "env" and "cwd" apply to command (stdio) servers only`)
		}
		s.URL = exp("url", r.URL)
		s.Headers = expandMap("headers", r.Headers, exp)
		if err == nil && !strings.HasPrefix(s.URL, "http://") && !strings.HasPrefix(s.URL, "https://") {
			return Server{}, fmt.Errorf("url %q must start with http:// or https://", redact.URL(s.URL))
		}
	}
	if err != nil {
		return Server{}, err
	}
	return s, nil
}

// expandMap expands every value of m, in key order so the first error is
// stable.
func expandMap(field string, m map[string]string, exp func(field, v string) string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	out := make(map[string]string, len(m))
	for _, k := range keys {
		out[k] = exp(field+"."+k, m[k])
	}
	return out
}

// expand replaces ${VAR} and ${VAR:-default} with the environment's
// values. An unset variable without a default is an error naming it; $$
// is not special, and a $ not followed by { is kept as it is.
func expand(s string, getenv func(string) string) (string, error) {
	if !strings.Contains(s, "${") {
		return s, nil
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		b.WriteString(s[:i])
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return "", fmt.Errorf("unclosed ${ in %q", s)
		}
		ref := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(ref, ":-")
		if !envName().MatchString(name) {
			return "", fmt.Errorf("${%s} is not a variable name", ref)
		}
		v := getenv(name)
		if v == "" {
			if !hasDef {
				return "", fmt.Errorf("environment variable %s is not set", name)
			}
			v = def
		}
		b.WriteString(v)
		s = s[i+end+1:]
	}
}

var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// expandHome turns a leading ~/ into the home directory.
func expandHome(p string, getenv func(string) string) string {
	if !strings.HasPrefix(p, "~/") {
		return p
	}
	home := getenv("HOME")
	if home == "" {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return p
		}
	}
	return filepath.Join(home, p[2:])
}
