package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/toolpath"
)

// Server says how to start one language server and which files it serves.
type Server struct {
	// Name names the server in settings and messages ("go", "typescript").
	Name string `json:"-"`
	// Command is the program and its arguments, looked up on PATH.
	Command []string `json:"command"`
	// Extensions are the file name endings it serves, with the dot (".go").
	Extensions []string `json:"extensions"`
	// RootMarkers are files whose directory is a project root for it
	// (go.mod); the nearest one above a file, inside the project, wins,
	// else the project itself.
	RootMarkers []string `json:"rootMarkers,omitempty"`
	// Disabled turns off a server of DefaultServers.
	Disabled bool `json:"disabled,omitempty"`
	// RunsProjectCode says the server runs code the project names while it
	// works (rust-analyzer runs cargo, which runs build scripts, proc
	// macros and a `.cargo/config.toml`'s rustc wrapper): cairn starts it
	// only in a project the person trusted, or when the person's own
	// settings name it (see cmd/cairn's withLanguageServers).
	RunsProjectCode bool `json:"-"`
	// Settle is how long a file's diagnostics must stay unchanged before
	// they count as complete; zero means DefaultSettle.
	Settle time.Duration `json:"-"`
}

// DefaultServers are the language servers cairn uses when their programs
// are on PATH, in the order they are tried: gopls, typescript-language-server,
// pyright (else basedpyright), rust-analyzer and clangd.
func DefaultServers() []Server {
	js := []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"}
	return []Server{
		{Name: "go", Command: []string{"gopls"}, Extensions: []string{".go"}, RootMarkers: []string{"go.work", "go.mod"}},
		// tsserver's syntax, semantic and suggestion diagnostics each come
		// in a publish of their own, the later ones after their own delay.
		{Name: "typescript", Command: []string{"typescript-language-server", "--stdio"}, Extensions: js,
			RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"}, Settle: time.Second},
		{Name: "pyright", Command: []string{"pyright-langserver", "--stdio"}, Extensions: []string{".py", ".pyi"},
			RootMarkers: []string{"pyrightconfig.json", "pyproject.toml", "setup.py"}},
		{Name: "basedpyright", Command: []string{"basedpyright-langserver", "--stdio"}, Extensions: []string{".py", ".pyi"},
			RootMarkers: []string{"pyrightconfig.json", "pyproject.toml", "setup.py"}},
		{Name: "rust", Command: []string{"rust-analyzer"}, Extensions: []string{".rs"}, RootMarkers: []string{"Cargo.toml"}, RunsProjectCode: true},
		{Name: "c", Command: []string{"clangd"}, Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh"},
			RootMarkers: []string{"compile_commands.json", ".clangd"}},
	}
}

// Merge returns base with the servers of overrides laid over it by name:
// an override replaces the server of its name (a missing command or
// extension list keeps base's), Disabled removes it, and a new name is
// added after base's servers.
func Merge(base []Server, overrides map[string]Server) []Server {
	out := slices.Clone(base)
	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		o := overrides[name]
		o.Name = name
		i := slices.IndexFunc(out, func(s Server) bool { return s.Name == name })
		if i < 0 {
			if !o.Disabled {
				out = append(out, o)
			}
			continue
		}
		if o.Disabled {
			out = slices.Delete(out, i, i+1)
			continue
		}
		if len(o.Command) == 0 {
			o.Command = out[i].Command
		}
		if len(o.Extensions) == 0 {
			o.Extensions = out[i].Extensions
		}
		if len(o.RootMarkers) == 0 {
			o.RootMarkers = out[i].RootMarkers
		}
		if o.Settle == 0 {
			o.Settle = out[i].Settle
		}
		out[i] = o
	}
	return out
}

// DefaultWait is how long an edit waits for its file's diagnostics.
const DefaultWait = 3 * time.Second

// Config is what a Manager is built from.
type Config struct {
	// Dir is the project: only its files are sent to servers, and it is
	// the root of a file with no root marker above it.
	Dir string
	// Servers are the servers to use, in the order tried; nil means
	// DefaultServers.
	Servers []Server
	// Wait bounds each wait for a server: to be ready, and for a file's
	// diagnostics after it changed. Zero means DefaultWait.
	Wait time.Duration
	// Env is the environment servers start with (child.Env: no secrets).
	Env []string
	// LookPath finds a server's program; nil means exec.LookPath.
	LookPath func(string) (string, error)
}

// serves reports whether s serves the file at path.
func (s Server) serves(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext != "" && slices.Contains(s.Extensions, ext)
}

// rootFor returns the root a server works in for the file at path: the
// nearest directory at or above the file, and inside dir, holding one of
// s's root markers, else dir.
func (s Server) rootFor(path, dir string) string {
	for d := filepath.Dir(path); toolpath.Within(d, dir); d = filepath.Dir(d) {
		for _, m := range s.RootMarkers {
			if _, err := os.Lstat(filepath.Join(d, m)); err == nil {
				return d
			}
		}
		if d == dir || d == filepath.Dir(d) {
			break
		}
	}
	return dir
}

// languageID is the LSP language identifier of a file.
func languageID(path, server string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go":
		return "go"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".py", ".pyi":
		return "python"
	case ".rs":
		return "rust"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh":
		return "cpp"
	}
	return server
}
