// Command cairn is a coding agent for the terminal. This file wires flags,
// configuration and a front end together; the work happens in core/....
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"slices"
	"syscall"

	prochost "github.com/cairn-dev/cairn/core/host"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/shell"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = ""

// IOStreams are the process's standard streams, injectable for tests.
type IOStreams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// InIsTerminal reports whether In is an interactive terminal (then it
	// is not read as prompt input).
	InIsTerminal bool
	// ErrIsTerminal reports whether Err is a terminal (then progress is
	// shown there).
	ErrIsTerminal bool
	// OutIsTerminal reports whether Out is a terminal. As in pi, the
	// interactive interface needs both In and Out to be terminals;
	// otherwise a prompt on the command line is answered as with -p.
	OutIsTerminal bool
}

func main() {
	// Started as the sandboxed child of a command: restrict and run it,
	// before anything else happens in this process.
	sandbox.RunIfChild()
	// Started as a command's reaper: run the command, and everything it
	// started ends with it.
	shell.RunIfReaper()
	// SIGHUP is a closed terminal: it ends cairn as SIGTERM does, through
	// the same clean-up (the demo's throwaway project, the session file).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	streams := IOStreams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr, InIsTerminal: isTerminal(os.Stdin), OutIsTerminal: isTerminal(os.Stdout), ErrIsTerminal: isTerminal(os.Stderr)}
	stopProfile := startProfile(os.Getenv("CAIRN_CPUPROFILE"))
	startHeapProfile(os.Getenv("CAIRN_HEAPPROFILE"))
	code := run(ctx, os.Args[1:], streams, os.Getenv)
	stopProfile()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole run to path, for finding
// where time goes in a real terminal; "" does nothing.
func startProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cairn: CAIRN_CPUPROFILE: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "cairn: CAIRN_CPUPROFILE: %v\n", err)
		_ = f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}
}

// Exit codes: 0 success, 1 failure, 2 bad usage, 130 interrupted.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130
)

// run executes one invocation and returns the process exit code.
func run(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	if slices.Contains(args, "--json-stream") {
		// aionrs's host protocol has flags of its own (seed 000).
		return jsonStreamMode(ctx, args, streams, getenv)
	}
	if len(args) > 0 && args[0] == "mcp" {
		return mcpCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "plugin" {
		return pluginCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "skills" {
		return skillsCommand(args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "ext" {
		return extCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "serve" {
		return serveCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "checkpoints" {
		return checkpointsCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "login" {
		return loginCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "install" {
		// pi's `pi install npm:NAME`: a pi package into cairn's directory.
		return installCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "ps" {
		return psCommand(args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "attach" {
		return attachCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 1 && args[0] == "acp" && slices.Contains(args[1:], "--attach") {
		return acpAttachCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 && args[0] == "rpc" {
		// synaps's command line, as the synaps-bridge runs it.
		return synapsRPCCommand(ctx, args[1:], streams, getenv)
	}
	if len(args) > 0 {
		if err := piCommandError(args[0]); err != nil {
			fmt.Fprintf(streams.Err, "cairn: %v\n", err)
			return exitUsage
		}
	}
	opts, err := parseArgs(args)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	if err := extFlagsWithoutSession(opts); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	if err := checkMessages(opts, wantsTUI(opts, streams)); err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	switch {
	case opts.Help:
		fmt.Fprint(streams.Out, helpText)
		return exitOK
	case opts.Version:
		fmt.Fprintf(streams.Out, "cairn %s\n", versionString())
		return exitOK
	case opts.Export != "":
		return exportCommand(ctx, streams, opts)
	}
	opts.Pi.noEffect = append(opts.Pi.noEffect, opts.Pi.themeNotes(wantsTUI(opts, streams))...)
	for _, note := range opts.Pi.noEffect {
		fmt.Fprintf(streams.Err, "cairn: %s\n", note)
	}
	if wantsTUI(opts, streams) {
		// Before anything with a side effect (the demo's project): a
		// build without the TUI hands the whole command line over.
		if code, handed := handOverTUI(args, streams); handed {
			return code
		}
	}
	env := newEnvironment(getenv)
	// The attach socket, if a session started it, closes with the run.
	defer env.host.Close()
	if opts.ListModels {
		return listModels(streams, env, opts)
	}
	if opts.Demo {
		stop, err := startDemo(opts)
		if err != nil {
			fmt.Fprintf(streams.Err, "cairn: %v\n", err)
			return exitUsage
		}
		defer stop()
	}
	switch opts.Mode {
	case "rpc":
		return rpcMode(ctx, streams, env, opts)
	case "acp":
		return acpMode(ctx, streams, env, opts)
	case "synaps":
		return synapsMode(ctx, streams, env, opts)
	case "jsonrpc":
		return jsonrpcMode(ctx, streams, env, opts)
	}
	if wantsTUI(opts, streams) {
		return tuiMode(ctx, streams, env, opts)
	}
	return printMode(ctx, streams, env, opts)
}

// wantsTUI reports whether the command line asks for the full-screen
// interface: no headless mode, no print mode, and a terminal to read.
func wantsTUI(opts *Options, streams IOStreams) bool {
	switch opts.Mode {
	case "rpc", "acp", "synaps", "jsonrpc", "json":
		return false
	}
	return !opts.Print && !opts.ListModels && streams.InIsTerminal && streams.OutIsTerminal
}

// environment is what cairn reads from outside the command line.
type environment struct {
	getenv func(string) string
	dir    string // ~/.cairn or $CAIRN_DIR
	// piDir is pi's agent directory (~/.pi/agent or $PI_CODING_AGENT_DIR)
	// when it exists, else "": read as a second source beside dir, never
	// written (see docs/configuration.md).
	piDir string
	// host is what the process shares between its sessions (core/host):
	// MCP servers per project, the live sessions and their attach socket.
	// nil (tests that build an environment by hand) shares nothing.
	host *prochost.Host
}

func newEnvironment(getenv func(string) string) environment {
	dir := getenv("CAIRN_DIR")
	if dir == "" {
		if home := getenv("HOME"); home != "" {
			dir = filepath.Join(home, ".cairn")
		} else if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".cairn")
		}
	}
	env := environment{getenv: getenv, dir: dir, host: prochost.New()}
	if pd := pihome.Dir(getenv); pihome.Exists(pd) {
		env.piDir = pd
	}
	return env
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}
