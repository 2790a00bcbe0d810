package main

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// unpacedDemo makes the demo stream as fast as it is read for one test.
func unpacedDemo(t *testing.T) {
	t.Helper()
	demoUnpaced = true
	t.Cleanup(func() { demoUnpaced = false })
}

// TestDemoRunsEndToEndInPrintMode plays the embedded demo in print mode:
// the read, the edit and the check all run in the throwaway project, the
// answer arrives, the copy is removed, and the working directory is back.
func TestDemoRunsEndToEndInPrintMode(t *testing.T) {
	unpacedDemo(t)
	home := t.TempDir()
	t.Chdir(home)
	r := invoke(t, nil, nil, "--demo", "--mode", "json", "-p", "make Greet use the name")
	if r.code != exitOK {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		`"toolName":"read"`,
		`Hello, %s!`,     // the edit's diff
		`PASS  2 checks`, // check.sh's output, after the edit
		"## Done",        // the final markdown answer
		"```go",          // with code
		`"thinking":"The person wants Greet`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("the demo's events lack %q", want)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "no more scripted responses") || strings.Contains(r.stdout, `"isError":true`) {
		t.Errorf("the demo failed somewhere:\n%s\n%s", r.stdout, r.stderr)
	}
	if wd, _ := os.Getwd(); wd != home {
		t.Errorf("working directory after the demo = %s, want %s", wd, home)
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 0 {
		t.Errorf("the demo wrote into the directory it was started from: %v", entries)
	}
}

// TestDemoTextModeSaysItIsScripted checks that print mode names the demo
// for what it is on stderr and keeps stdout for the answer.
func TestDemoTextModeSaysItIsScripted(t *testing.T) {
	unpacedDemo(t)
	t.Chdir(t.TempDir())
	r := invoke(t, nil, nil, "--demo", "-p", "go")
	if r.code != exitOK || !strings.Contains(r.stdout, "## Done") {
		t.Fatalf("%+v", r)
	}
	for _, want := range []string{"scripted, not written by a model", "throwaway copy of a sample project"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stdout, "cairn-demo-") {
		t.Errorf("stdout names the demo directory:\n%s", r.stdout)
	}
}

// TestDemoScriptOutlastsItsPrompts plays the demo's provider for more
// requests than the script holds: past its end it says so, never failing.
func TestDemoScriptOutlastsItsPrompts(t *testing.T) {
	unpacedDemo(t)
	p, err := demoProvider()
	if err != nil {
		t.Fatal(err)
	}
	scripted := p.Pending()
	if scripted < 5 {
		t.Fatalf("the demo script holds %d responses; it should cover two prompts", scripted)
	}
	req := &provider.Request{Model: faux.Model}
	for i := range scripted + 2 {
		msg, err := p.Stream(context.Background(), req, func(provider.Event) {})
		if err != nil || msg.StopReason == core.StopError {
			t.Fatalf("request %d: %v %s", i+1, err, msg.ErrorMessage)
		}
		if ended := strings.Contains(msg.Text(), "The demo script has ended"); ended != (i >= scripted) {
			t.Fatalf("request %d: text = %q", i+1, msg.Text())
		}
	}
}

func TestDemoRefusesFlagsItCannotHonour(t *testing.T) {
	for _, args := range [][]string{
		{"--demo", "--model", "sonnet", "-p", "hi"},
		{"--demo", "--continue"},
		{"--demo", "--mode", "rpc"},
	} {
		r := invoke(t, nil, nil, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "--demo") {
			t.Errorf("%v: %+v", args, r)
		}
	}
}
