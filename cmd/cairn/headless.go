//go:build headless

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// This is the headless build (go build -tags headless; make build makes it
// bin/cairn): every mode but the full-screen interface, without the TUI's
// libraries. Go runs every linked package's initialisers at start, and
// chroma's (linked through glamour and the HTML exporter) were most of
// what `cairn --version` and `cairn --mode rpc` spent starting (README,
// Benchmarks).
// The TUI and the HTML export are the full build's, installed beside this
// binary as cairn-tui: the TUI by handing the whole command line over to
// it (the process is replaced; nothing runs twice), an export by running
// it for the one page.

// tuiName is the full build's file name beside this one.
var tuiName = "cairn-tui" + map[bool]string{true: ".exe"}[runtime.GOOS == "windows"]

// exportLimit bounds an export run in cairn-tui (highlighting a very
// large session takes seconds, not minutes).
const exportLimit = 5 * time.Minute

// tuiBinary finds cairn-tui beside this executable (symbolic links
// followed, so a cairn linked into ~/bin still finds its sibling). Only
// there: one found on PATH could be another version.
func tuiBinary() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this executable to look for %s beside it: %w", tuiName, err)
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	path := filepath.Join(filepath.Dir(self), tuiName)
	if st, err := os.Stat(path); err != nil || st.IsDir() || st.Mode()&0o111 == 0 && runtime.GOOS != "windows" {
		return "", fmt.Errorf("this cairn is the headless build, and the full-screen interface and the HTML export are in %s, which is not beside it (looked for %s). "+
			"make build and make install put both in place; or build the full cairn alone with go build ./cmd/cairn. "+
			"Headless modes (-p, --mode rpc, --mode acp) work without it", tuiName, path)
	}
	return path, nil
}

// handOverTUI replaces this process with cairn-tui given the same command
// line, telling it which cairn was typed (for the "continue with" line).
// It returns only when that cannot be done.
func handOverTUI(args []string, streams IOStreams) (int, bool) {
	path, err := tuiBinary()
	if err == nil {
		self, _ := os.Executable()
		env := append(os.Environ(), launcherEnv+"="+self, launcherVersionEnv+"="+versionString())
		err = replaceProcess(path, append([]string{path}, args...), env)
	}
	fmt.Fprintf(streams.Err, "cairn: %v\n", err)
	return exitFailure, true
}

// tuiMode is not reached in this build: run hands the TUI over first.
func tuiMode(_ context.Context, streams IOStreams, _ environment, _ *Options) int {
	fmt.Fprintln(streams.Err, "cairn: this build has no full-screen interface; run cairn-tui")
	return exitFailure
}

// exportSession runs cairn-tui --export for the page and returns the
// path it printed.
func exportSession(ctx context.Context, file, out, model string) (string, error) {
	path, err := tuiBinary()
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, exportLimit)
	defer cancel()
	args := []string{"--export", file}
	if model != "" {
		args = append(args, "--model", model)
	}
	if out != "" {
		args = append(args, "--", out)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.WaitDelay = time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() == context.DeadlineExceeded {
		return "", fmt.Errorf("%s did not finish the export within %v", tuiName, exportLimit)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return "", fmt.Errorf("%s --export: %w", tuiName, err)
		}
		// Its message already names the file; keep only what went wrong.
		msg = strings.TrimPrefix(msg, "cairn: ")
		msg = strings.TrimPrefix(msg, "cannot export "+file+": ")
		return "", errors.New(msg)
	}
	return strings.TrimSpace(stdout.String()), nil
}

// attachCommand hands `cairn attach` to cairn-tui: the terminal client is
// the full build's.
func attachCommand(_ context.Context, args []string, streams IOStreams, _ func(string) string) int {
	if code, handed := handOverTUI(append([]string{"attach"}, args...), streams); handed {
		return code
	}
	return exitFailure
}
