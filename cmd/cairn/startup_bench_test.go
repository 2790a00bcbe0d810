package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// The start-up benchmarks. The whole-process ones build cairn and spawn it
// per iteration, so they include the package initialisers each build pays
// for at every start; they report the mean per op (use -count and benchstat for
// medians). They report no peak RSS: Go spawns a child with vfork
// semantics, so wait4's ru_maxrss of the child is never below the spawning
// process's own peak, here the test binary's, which is bigger than cairn.
// scripts/bench-startup.sh measures wall time and peak RSS from a small
// process, with medians and pi beside cairn. The in-process benchmark
// measures what the rpc mode itself does before it can answer.

// builds are the two builds of cmd/cairn that make build makes: bin/cairn
// (headless) and bin/cairn-tui (full). Each benchmark runs both.
var builds = []struct{ name, tags string }{{"headless", "headless"}, {"full", ""}}

// cairnBinary builds cmd/cairn with tags (stripped and without cgo, as
// `make build` does) into a directory removed after the benchmark, or skips
// when there is no go command; the build cache makes every build after the
// first a link.
func cairnBinary(b *testing.B, tags string) string {
	b.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	if _, err := os.Stat(goCmd); err != nil {
		b.Skipf("no go command to build cairn for the whole-process benchmark: %v", err)
	}
	bin := filepath.Join(b.TempDir(), "cairn")
	build := exec.Command(goCmd, "build", "-tags", tags, "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("build cairn: %v\n%s", err, out)
	}
	return bin
}

// startupEnv is a fresh CAIRN_DIR, a faux script with no answers and a
// working directory outside the repository, so no project files are found.
func startupEnv(b *testing.B) (env []string, cwd string) {
	b.Helper()
	dir := b.TempDir()
	script := filepath.Join(dir, "script.json")
	if err := os.WriteFile(script, []byte(`{"responses": []}`), 0o644); err != nil {
		b.Fatal(err)
	}
	cwd = filepath.Join(dir, "cwd")
	if err := os.Mkdir(cwd, 0o755); err != nil {
		b.Fatal(err)
	}
	return append(os.Environ(), "CAIRN_DIR="+filepath.Join(dir, "cairn-dir"), "CAIRN_FAUX_SCRIPT="+script), cwd
}

// BenchmarkStartupVersion is `cairn --version`: spawn -> exit.
func BenchmarkStartupVersion(b *testing.B) {
	for _, build := range builds {
		b.Run(build.name, func(b *testing.B) { benchVersion(b, cairnBinary(b, build.tags)) })
	}
}

func benchVersion(b *testing.B, bin string) {
	env, cwd := startupEnv(b)
	for b.Loop() {
		cmd := exec.Command(bin, "--version")
		cmd.Env, cmd.Dir = env, cwd
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartupRPC is `cairn --mode rpc` with the faux provider: spawn ->
// the response to a get_state written at spawn. Shutting down (stdin EOF)
// is outside the timed part.
func BenchmarkStartupRPC(b *testing.B) {
	for _, build := range builds {
		b.Run(build.name, func(b *testing.B) { benchRPC(b, cairnBinary(b, build.tags)) })
	}
}

func benchRPC(b *testing.B, bin string) {
	env, cwd := startupEnv(b)
	var timed time.Duration
	for b.Loop() {
		start := time.Now()
		cmd := exec.Command(bin, "--mode", "rpc", "--no-session", "--provider", "faux")
		cmd.Env, cmd.Dir, cmd.Stderr = env, cwd, os.Stderr
		stdin, stdout := startPiped(b, cmd)
		line, err := stateResponse(stdin, stdout)
		timed += time.Since(start)
		if err != nil {
			_ = cmd.Process.Kill()
		}
		_ = stdin.Close()
		_, _ = io.Copy(io.Discard, stdout)
		if werr := cmd.Wait(); err == nil {
			err = werr
		}
		if err != nil {
			b.Fatal(err)
		}
		if !strings.HasPrefix(line, `{"id":"s","type":"response","command":"get_state","success":true`) {
			b.Fatalf("first line is not a successful get_state response: %.200s", line)
		}
	}
	b.ReportMetric(float64(timed.Microseconds())/1000/float64(b.N), "ms-to-state")
}

// stateResponse writes get_state and reads the first stdout line, with a limit.
func stateResponse(stdin io.Writer, stdout io.Reader) (string, error) {
	type result struct {
		line string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		if _, err := io.WriteString(stdin, `{"id":"s","type":"get_state"}`+"\n"); err != nil {
			done <- result{err: err}
			return
		}
		line, err := bufio.NewReader(stdout).ReadString('\n')
		done <- result{line, err}
	}()
	select {
	case r := <-done:
		return r.line, r.err
	case <-time.After(30 * time.Second):
		return "", context.DeadlineExceeded
	}
}

// BenchmarkStartupRPCInProcess runs the rpc mode in this process up to the
// get_state response and stdin EOF: the mode's own start-up and shutdown
// work (trust check, settings, catalog, session, tools, system prompt),
// without the process start and the package initialisers.
func BenchmarkStartupRPCInProcess(b *testing.B) {
	env, cwd := startupEnv(b)
	b.Chdir(cwd)
	vars := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "CAIRN_") {
			vars[k] = v
		}
	}
	getenv := func(k string) string { return vars[k] }
	b.ReportAllocs()
	for b.Loop() {
		var out strings.Builder
		streams := IOStreams{In: strings.NewReader(`{"id":"s","type":"get_state"}` + "\n"), Out: &out, Err: io.Discard}
		if code := run(context.Background(), []string{"--mode", "rpc", "--no-session", "--provider", "faux"}, streams, getenv); code != exitOK {
			b.Fatalf("exit %d", code)
		}
		if !strings.HasPrefix(out.String(), `{"id":"s","type":"response","command":"get_state","success":true`) {
			b.Fatalf("no get_state response: %.200s", out.String())
		}
	}
}
