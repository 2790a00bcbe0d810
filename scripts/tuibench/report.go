package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// report prints the medians as a markdown table.
func report(args []string) error {
	fl := flag.NewFlagSet("report", flag.ContinueOnError)
	runs := fl.Int("runs", 0, "")
	piVersion := fl.String("pi-version", "", "")
	piMissing := fl.String("pi-missing", "", "")
	fake := fl.String("fake", "", "")
	tokens := fl.Int("tokens", 0, "")
	tokenMs := fl.Int("token-ms", 0, "")
	mdChunks := fl.Int("md-chunks", 0, "")
	mdFile := fl.String("md-file", "", "")
	exchanges := fl.Int("exchanges", 0, "")
	keys := fl.Int("keys", 0, "")
	bigExchanges := fl.Int("big-exchanges", 0, "")
	bigToolKB := fl.Int("big-tool-kb", 0, "")
	bigMB := fl.Int("big-mb", 0, "")
	bigTimeout := fl.String("big-timeout", "", "")
	if err := fl.Parse(args); err != nil {
		return err
	}
	b, err := os.ReadFile(fl.Arg(0))
	if err != nil {
		return err
	}
	var rows []result
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r result
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			return fmt.Errorf("results line %q: %w", l, err)
		}
		rows = append(rows, r)
	}
	// n is how many runs measured what get reads, for agent.
	n := func(agent string, get func(result) float64) int {
		k := 0
		for _, r := range rows {
			if r.Agent == agent && get(r) != 0 {
				k++
			}
		}
		return k
	}
	med := func(agent string, get func(result) float64) (float64, bool) {
		var xs []float64
		for _, r := range rows {
			if v := get(r); r.Agent == agent && v != 0 {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			return 0, false
		}
		sort.Float64s(xs)
		if m := len(xs) / 2; len(xs)%2 == 1 {
			return xs[m], true
		} else {
			return (xs[m-1] + xs[m]) / 2, true
		}
	}
	fmt.Printf("cairn TUI vs pi %s interactive, under tmux at 120x40: medians of %d runs, %d CPUs, fake LLM: %s.\n\n",
		*piVersion, *runs, runtime.NumCPU(), *fake)
	if *piMissing != "" {
		fmt.Printf("pi's column is missing: %s.\n\n", *piMissing)
	}
	fmt.Println("| measure | cairn | pi | cairn/pi | cairn target | met |")
	fmt.Println("|---|---|---|---|---|---|")
	line := func(name string, get func(result) float64, digits int, target float64, targetText string) {
		c, okC := med("cairn", get)
		p, okP := med("pi", get)
		if !okC && !okP {
			return // not measured in this run (BIG_ONLY)
		}
		cs, ps, ratio, met := "n/a", "n/a", "", ""
		if okC {
			cs = strconv.FormatFloat(c, 'f', digits, 64)
			if target > 0 {
				met = map[bool]string{true: "yes", false: "no"}[c <= target]
			}
		}
		if okP {
			ps = strconv.FormatFloat(p, 'f', digits, 64)
		}
		if okC && okP && p > 0 {
			ratio = strconv.FormatFloat(c/p, 'f', 3, 64)
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", name, cs, ps, ratio, targetText, met)
	}
	frameMs := func(r result) float64 { return r.FrameMs }
	rssMiB := func(r result) float64 { return r.RSSKiB / 1024 }
	line("spawn -> first frame with the footer, ms", frameMs, 1, 0, "floor + 15 ms (below)")
	line("peak RSS 1 s after the first frame, MiB", rssMiB, 1, 0, "floor + 12 MiB (below)")
	line(fmt.Sprintf("CPU for a %d-token answer at %d ms/token, s", *tokens, *tokenMs), func(r result) float64 { return r.StreamCPUS }, 2, 0.5, "<= 0.5 s")
	line("  (wall time of that answer, s)", func(r result) float64 { return r.StreamWallS }, 2, 0, "")
	mdSize := 0.0
	if st, err := os.Stat(*mdFile); err == nil {
		mdSize = float64(st.Size()) / 1024
	}
	line(fmt.Sprintf("CPU for a %.1f KB markdown answer in %d chunks at %d ms/chunk, s", mdSize, *mdChunks, *tokenMs),
		func(r result) float64 { return r.MarkdownCPUS }, 2, 0.3, "<= 0.3 s")
	line(fmt.Sprintf("spawn -> a %d-exchange session on screen, ms", *exchanges), func(r result) float64 { return r.ResumeMs }, 0, 0, "")
	line(fmt.Sprintf("CPU per keystroke in that session (%d keys), ms", *keys), func(r result) float64 { return r.KeyCPUMs }, 3, 1, "<= 1 ms")
	line("keystroke echo in that session (send-keys -> on screen; median key), ms", func(r result) float64 { return r.EchoMs }, 1, 0, "")
	bigMs := func(r result) float64 { return r.BigResumeMs }
	if anyBig(rows) {
		what := fmt.Sprintf("a %d MB session (%d exchanges, a %d KB bash result each)", *bigMB, *bigExchanges, *bigToolKB)
		line("spawn -> "+what+" on screen, ms", bigMs, 0, 150, "<= 150 ms")
		line("  spawn -> that session read whole, the prompt live, ms", func(r result) float64 { return r.BigLiveMs }, 0, 0, "")
		line("  peak RSS 1 s after that resume, MiB", func(r result) float64 { return r.BigRSSKiB / 1024 }, 1, 40, "<= 40 MiB")
	}
	fmt.Println()
	floorTable(med, frameMs, rssMiB)
	failed := func(r result) float64 { return map[bool]float64{true: 1}[r.BigFailed] }
	if c, p := n("cairn", bigMs), n("pi", bigMs); (c > 0 && c != *runs) || (p > 0 && p != *runs) {
		fmt.Printf("The large resume is the median of %d runs for cairn and %d for pi.\n\n", c, p)
	}
	for _, a := range []string{"cairn", "pi"} {
		if k := n(a, failed); k > 0 {
			fmt.Printf("%s did not show the large session's last answer within %s in %d run(s); those runs are left out.\n\n", a, *bigTimeout, k)
		}
	}
	fmt.Println("Stream CPU is utime+stime from /proc/<pid>/stat (10 ms ticks); keystroke CPU sums")
	fmt.Println("/proc/<pid>/task/*/schedstat. The first frame is timed from a wrapper's exec to the")
	fmt.Printf("tmux %s notification that completed the first screen showing the footer.\n", "%output")
	return nil
}

// anyBig says whether the runs include the large resume.
func anyBig(rows []result) bool {
	for _, r := range rows {
		if r.BigResumeMs != 0 || r.BigFailed {
			return true
		}
	}
	return false
}

// floorTable prints cairn's first frame and peak RSS against the floor's
// (scripts/floor/teaview, a Bubble Tea v2 program with one view) from the
// same runs, when the floor was measured.
func floorTable(med func(string, func(result) float64) (float64, bool), frameMs, rssMiB func(result) float64) {
	f, okF := med("floor", frameMs)
	c, okC := med("cairn", frameMs)
	if !okF || !okC {
		return
	}
	fmt.Println("Against the floor, a Bubble Tea v2 program with one view (scripts/floor/teaview), same runs:")
	fmt.Println()
	fmt.Println("| measure | floor | cairn | cairn - floor | cairn/floor | goal | met |")
	fmt.Println("|---|---|---|---|---|---|---|")
	row := func(name string, f, c, budget float64, unit string) {
		fmt.Printf("| %s | %.1f | %.1f | %+.1f | %.2f | floor + %.0f %s | %s |\n", name, f, c, c-f, c/f, budget, unit,
			map[bool]string{true: "yes", false: "no"}[c-f <= budget])
	}
	row("spawn -> first frame, ms", f, c, 15, "ms")
	if fr, ok := med("floor", rssMiB); ok {
		if cr, ok := med("cairn", rssMiB); ok {
			row("peak RSS 1 s after it, MiB", fr, cr, 12, "MiB")
		}
	}
	fmt.Println()
}
