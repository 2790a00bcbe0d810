package main

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/provider/faux"
)

// demoScript is the faux script `cairn --demo` plays: a read, an edit, a
// bash call with live output and a markdown answer for the first prompt,
// a tour for the second, and a note that the script has ended after that.
//
//go:embed demo/script.json
var demoScript []byte

// demoProject is the sample project the demo works in, copied to a
// throwaway directory so the demo never touches the person's files.
//
//go:embed demo/_project
var demoProject embed.FS

// demoUnpaced streams the demo's answers as fast as they are read, for
// tests; the script's own pace is a person's reading speed.
var demoUnpaced = false

// demoProvider returns a faux provider playing the demo script.
func demoProvider() (*faux.Provider, error) {
	s, err := faux.ParseScript(demoScript)
	if err != nil {
		return nil, fmt.Errorf("the demo script: %w", err)
	}
	if demoUnpaced {
		s.TokensPerSecond = 0
	}
	return faux.New(s.Options, s.Responses...), nil
}

// startDemo prepares a --demo run: it copies the sample project to a new
// temporary directory, makes that the working directory, and points opts at
// the faux provider with no session file. stop returns to the previous
// working directory and removes the copy.
func startDemo(opts *Options) (stop func(), err error) {
	switch {
	case opts.Provider != "" || opts.Model != "":
		return nil, errors.New("--demo plays a script on the faux provider; it takes no --provider or --model")
	case opts.Continue || opts.Resume || opts.Session != "":
		return nil, errors.New("--demo always starts afresh; it takes no --continue, --resume or --session")
	case opts.Mode == "rpc":
		return nil, errors.New("--demo shows the interactive interface or print mode, not --mode rpc")
	}
	prev, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("find the working directory: %w", err)
	}
	dir, err := os.MkdirTemp("", "cairn-demo-")
	if err != nil {
		return nil, fmt.Errorf("create the demo's project directory: %w", err)
	}
	if err := copyDemoProject(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := os.Chdir(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("enter the demo's project directory: %w", err)
	}
	opts.Provider, opts.NoSession, opts.demoDir = faux.ProviderName, true, dir
	if opts.Print || opts.Mode == "json" {
		// Print mode cannot ask; the calls touch only the throwaway copy.
		if opts.Approval == "" {
			opts.Approval = "yolo"
		}
	}
	return func() {
		_ = os.Chdir(prev)
		_ = os.RemoveAll(dir)
	}, nil
}

// copyDemoProject writes the sample project into dir.
func copyDemoProject(dir string) error {
	const root = "demo/_project"
	return fs.WalkDir(demoProject, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		target := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := demoProject.ReadFile(path)
		if err != nil {
			return err
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			return fmt.Errorf("write the demo's project: %w", err)
		}
		return nil
	})
}

// demoIntro says, at the top of the demo's transcript, what the demo is.
func demoIntro(dir string) []string {
	return []string{
		"Demo: cairn is playing a script (the faux provider); no model is involved and nothing leaves this machine.",
		"It works in a throwaway sample project, " + dir + ", removed when you quit. Send any message, e.g. \"make Greet use the name\", and approve the edit and the command when asked.",
	}
}
