// Command startbench times how fast programs start. It runs each case RUNS
// times, round-robin so that a busy moment on the machine hits every case
// alike, and prints one tab-separated line per case: its label, the median
// wall time (ms), the median peak RSS (MiB), the fastest wall time (ms) and
// the number of runs. scripts/bench-startup.sh uses it for `cairn --version`
// and `cairn --mode rpc`, and for pi beside them.
//
//	startbench [-runs 5] [-warmup 1] -case 'LABEL MODE COMMAND [ARGS...]' ...
//
// A case's fields are separated by spaces (no quoting). MODE "exit" times
// spawn -> exit (the exit status must be 0). MODE "rpc" writes the
// get_state command of pi's rpc protocol to the child's stdin at spawn and
// times spawn -> the first stdout line, which must be that command's
// response; then stdin is closed and the child must exit 0. The peak RSS
// is the child's ru_maxrss as wait4 reports it. Go starts a child with
// vfork semantics, so that figure is never below the spawning process's own
// peak RSS: startbench stays small, and warns when a case's median is not
// above its own peak. Each run has a 30-second limit, after which the child
// is killed and startbench fails.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// runLimit bounds one run; a start-up that takes this long is a failure.
const runLimit = 30 * time.Second

// getState is the request written in -rpc mode, and responsePrefix the
// start of the line that answers it (both pi and cairn write "id" first).
const (
	getState       = `{"id":"s","type":"get_state"}` + "\n"
	responsePrefix = `{"id":"s","type":"response"`
)

// sample is one run's measurements.
type sample struct {
	wall   time.Duration
	rssKiB int64
}

// benchCase is one command to time.
type benchCase struct {
	label   string
	rpc     bool
	argv    []string
	samples []sample
}

// caseFlags collects the repeated -case flag.
type caseFlags []*benchCase

func (c *caseFlags) String() string { return fmt.Sprint(len(*c), " cases") }

func (c *caseFlags) Set(v string) error {
	f := strings.Fields(v)
	if len(f) < 3 {
		return errors.New("a case is LABEL MODE COMMAND [ARGS...]")
	}
	if f[1] != "exit" && f[1] != "rpc" {
		return fmt.Errorf("mode %q is neither exit nor rpc", f[1])
	}
	*c = append(*c, &benchCase{label: f[0], rpc: f[1] == "rpc", argv: f[2:]})
	return nil
}

func main() {
	runs := flag.Int("runs", 5, "measured runs of each case")
	warmup := flag.Int("warmup", 1, "runs of each case before the measured ones, not recorded")
	var cases caseFlags
	flag.Var(&cases, "case", "`LABEL MODE COMMAND [ARGS...]`, MODE exit or rpc (repeatable)")
	flag.Parse()
	if len(cases) == 0 || flag.NArg() > 0 || *runs < 1 || *warmup < 0 {
		fmt.Fprintln(os.Stderr, "usage: startbench [-runs N] [-warmup N] -case 'LABEL MODE COMMAND [ARGS...]' ...")
		os.Exit(2)
	}
	for i := range *warmup + *runs {
		for _, c := range cases {
			s, err := runOnce(c.argv, c.rpc)
			if err != nil {
				fmt.Fprintf(os.Stderr, "startbench: %s: run %d: %v\n", c.label, i+1, err)
				os.Exit(1)
			}
			if i >= *warmup {
				c.samples = append(c.samples, s)
			}
		}
	}
	for _, c := range cases {
		walls := make([]float64, len(c.samples))
		rss := make([]float64, len(c.samples))
		for i, s := range c.samples {
			walls[i] = float64(s.wall.Microseconds()) / 1000
			rss[i] = float64(s.rssKiB) / 1024
		}
		fmt.Printf("%s\t%.1f\t%.1f\t%.1f\t%d\n", c.label, median(walls), median(rss), slices.Min(walls), len(c.samples))
		if own := ownPeakKiB(); own > 0 && median(rss) <= float64(own)/1024 {
			fmt.Fprintf(os.Stderr, "startbench: %s: the peak RSS is not above startbench's own (%.1f MiB), so it may be startbench's\n", c.label, float64(own)/1024)
		}
	}
}

// ownPeakKiB returns this process's peak RSS (VmHWM), or 0 if unknown.
func ownPeakKiB() int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kib int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kib); err == nil {
				return kib
			}
		}
	}
	return 0
}

// runOnce spawns argv once and measures it.
func runOnce(argv []string, rpc bool) (sample, error) {
	ctx, cancel := context.WithTimeout(context.Background(), runLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	var stdin io.WriteCloser
	var stdout io.ReadCloser
	var err error
	if rpc {
		if stdin, err = cmd.StdinPipe(); err != nil {
			return sample{}, err
		}
		if stdout, err = cmd.StdoutPipe(); err != nil {
			return sample{}, err
		}
	} else {
		cmd.Stdout = io.Discard
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	var wall time.Duration
	if rpc {
		wall, err = awaitState(stdin, stdout, start)
		_ = stdin.Close()
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return sample{}, err
		}
		// Drain what the child writes while it shuts down.
		_, _ = io.Copy(io.Discard, stdout)
	}
	err = cmd.Wait()
	if !rpc {
		wall = time.Since(start)
	}
	if ctx.Err() != nil {
		return sample{}, fmt.Errorf("no result within %v", runLimit)
	}
	if err != nil {
		return sample{}, err
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return sample{}, errors.New("no rusage for the child (startbench needs Linux)")
	}
	return sample{wall: wall, rssKiB: ru.Maxrss}, nil
}

// awaitState writes get_state and returns the time from start to the first
// stdout line, which must be its response.
func awaitState(stdin io.Writer, stdout io.Reader, start time.Time) (time.Duration, error) {
	if _, err := io.WriteString(stdin, getState); err != nil {
		return 0, fmt.Errorf("write get_state: %w", err)
	}
	r := bufio.NewReaderSize(stdout, 64<<10)
	line, err := r.ReadSlice('\n')
	wall := time.Since(start)
	if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
		return 0, fmt.Errorf("read the get_state response: %w", err)
	}
	if !strings.HasPrefix(string(line), responsePrefix) {
		return 0, fmt.Errorf("first stdout line is not the get_state response: %.120q", line)
	}
	return wall, nil
}

// median returns the middle value of xs (the mean of the two middle ones
// for an even count).
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return (s[m-1] + s[m]) / 2
}
