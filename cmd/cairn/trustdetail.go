package main

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/escape"
	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/trust"
)

// maxRunsShown bounds the commands listed under one control file.
const maxRunsShown = 8

// controlFileRuns lists what a control file would have cairn run, for the
// trust question: the commands of .mcp.json's servers (or the addresses
// it connects to), the hook scripts and extensions a settings file names,
// an extension the project holds. It reads the file only to show it; the
// file is used only once the project is trusted.
func controlFileRuns(p trust.Project, f trust.ControlFile) []string {
	if f.Outside != "" || f.Doubt != "" {
		return nil
	}
	full := filepath.Join(p.Root, filepath.FromSlash(f.Path))
	base := path.Base(f.Path)
	var out []string
	switch {
	case base == ".mcp.json":
		data, err := regfile.Read(full, regfile.MaxConfig)
		if err != nil {
			return nil
		}
		// Variables stay as written: the person reads the file, not
		// their own environment.
		servers, _ := mcp.Parse(f.Path, data, filepath.Dir(full), func(name string) string { return "${" + name + "}" })
		for _, s := range servers {
			if s.Transport == mcp.TransportStdio {
				out = append(out, "runs MCP server "+s.Name+": "+commandLine(s.Command, s.Args))
			} else {
				out = append(out, "connects to MCP server "+s.Name+": "+s.URL)
			}
		}
	case strings.HasSuffix(base, ".json") && strings.Contains(f.Path, "settings"):
		data, err := regfile.Read(full, regfile.MaxConfig)
		if err != nil {
			return nil
		}
		if cfg, _, err := hook.ParseSettings(f.Path, data); err == nil {
			for _, e := range hook.Events {
				for _, g := range cfg.Events[e] {
					for _, h := range g.Hooks {
						out = append(out, "runs hook "+string(e)+": "+h.Command)
					}
				}
			}
		}
		var doc struct {
			Extensions json.RawMessage `json:"extensions"`
		}
		if json.Unmarshal(data, &doc) == nil {
			for _, c := range extension.FromSettings(doc.Extensions, p.Dir) {
				if c.Err == nil {
					out = append(out, "runs extension "+c.Name+": "+commandLine(c.Command, c.Args))
				}
			}
		}
	case strings.Contains(f.Path, ".cairn/extensions/"):
		out = append(out, "an extension: cairn would run it as a program")
	}
	if len(out) > maxRunsShown {
		out = append(out[:maxRunsShown], fmt.Sprintf("and %d more", len(out)-maxRunsShown))
	}
	for i := range out {
		out[i] = escape.Visible(out[i])
	}
	return out
}

// commandLine joins a command and its arguments for a person to read.
func commandLine(cmd string, args []string) string {
	return strings.TrimSpace(cmd + " " + strings.Join(args, " "))
}
