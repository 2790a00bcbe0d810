package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }
func textDelta(s string) core.MessageUpdate {
	return core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: s}
}
func textStart() core.MessageUpdate                 { return core.MessageUpdate{Kind: core.UpdateTextStart} }
func toolStart(name string) core.ToolExecutionStart { return core.ToolExecutionStart{ToolName: name} }
func answerEnd(reason core.StopReason) core.MessageEnd {
	return core.MessageEnd{Message: &core.AssistantMessage{StopReason: reason}}
}

const eraseLine = "\r\x1b[K"

// TestSpinnerShowsTheWaitUntilTextStarts drives print mode's text writer
// with a fake clock and a fake terminal: the spinner counts the time the
// model takes, says "writing" while the answer's text is held, is erased
// when that text is shown or a tool line is written, comes back for the next turn, and is gone when the run ends.
func TestSpinnerShowsTheWaitUntilTextStarts(t *testing.T) {
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	var stdout, term bytes.Buffer
	spin := &spinner{w: &term, now: clock.now}
	w := &textWriter{out: bufio.NewWriter(&stdout), errOut: &term, progress: true, spin: spin}

	spin.tick() // nothing asked yet: nothing drawn
	if term.Len() != 0 {
		t.Fatalf("spinner drawn before a turn: %q", term.String())
	}
	w.write(core.TurnStart{})
	clock.advance(300 * time.Millisecond)
	spin.tick()
	clock.advance(1200 * time.Millisecond)
	spin.tick()
	if got, want := term.String(), eraseLine+"⠋ thinking… 0.3s"+eraseLine+"⠙ thinking… 1.5s"; got != want {
		t.Fatalf("terminal = %q, want %q", got, want)
	}

	term.Reset()
	w.write(toolStart("read"))
	if got := term.String(); !strings.HasPrefix(got, eraseLine+"  → read") {
		t.Fatalf("the tool line did not erase the spinner first: %q", got)
	}
	term.Reset()
	spin.tick()
	if term.Len() != 0 {
		t.Fatalf("spinner drawn while a tool runs: %q", term.String())
	}

	w.write(core.TurnStart{}) // the next turn asks the model again
	clock.advance(2 * time.Second)
	spin.tick()
	if got := term.String(); got != eraseLine+"⠋ thinking… 2.0s" {
		t.Fatalf("second turn: terminal = %q", got)
	}
	term.Reset()
	w.write(textStart())
	w.write(textDelta("Hello"))
	spin.tick()
	if got := term.String(); got != eraseLine+"⠙ writing… 2.0s" {
		t.Fatalf("while the answer's text is held: terminal = %q", got)
	}
	term.Reset()
	w.write(answerEnd(core.StopEnd))
	spin.tick()
	if got := term.String(); got != eraseLine {
		t.Fatalf("answer end: terminal = %q, want the line erased once", got)
	}
	if err := w.finish(); err != nil {
		t.Fatal(err)
	}
	if stdout.String() != "Hello\n" {
		t.Fatalf("stdout = %q: the spinner must stay off stdout", stdout.String())
	}
}

// TestSpinnerErasedWhenTheRunEnds checks that a run ending before any text
// (an error, an abort) leaves no spinner on the terminal.
func TestSpinnerErasedWhenTheRunEnds(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	var stdout, term bytes.Buffer
	spin := &spinner{w: &term, now: clock.now}
	w := &textWriter{out: bufio.NewWriter(&stdout), errOut: &term, progress: true, spin: spin}
	w.write(core.TurnStart{})
	spin.tick()
	if err := w.finish(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(term.String(), eraseLine) {
		t.Fatalf("terminal = %q: the spinner was left drawn", term.String())
	}
}

// TestNoSpinnerWhenStderrIsNotATerminal: piped stderr gets no spinner.
func TestNoSpinnerWhenStderrIsNotATerminal(t *testing.T) {
	unpacedDemo(t)
	t.Chdir(t.TempDir())
	r := invoke(t, nil, nil, "--demo", "-p", "go")
	if r.code != exitOK || strings.Contains(r.stderr, "thinking…") || strings.Contains(r.stderr, "\x1b") {
		t.Fatalf("%+v", r)
	}
}

// TestToolLineGoesBelowUnfinishedText: on a terminal, a tool line after an
// answer's unfinished line starts on a line of its own, and the next turn's
// spinner may then be drawn without erasing the answer.
func TestToolLineGoesBelowUnfinishedText(t *testing.T) {
	clock := &fakeClock{t: time.Now()}
	var stdout, term bytes.Buffer
	spin := &spinner{w: &term, now: clock.now}
	w := &textWriter{out: bufio.NewWriter(&stdout), errOut: &term, progress: true, spin: spin}
	w.write(textStart())
	w.write(textDelta("Reading."))
	w.write(answerEnd(core.StopToolUse))
	w.write(toolStart("read"))
	if got := term.String(); !strings.HasPrefix(got, "\n  → read") {
		t.Fatalf("terminal = %q", got)
	}
	term.Reset()
	w.write(core.TurnStart{})
	spin.tick()
	if !strings.Contains(term.String(), "thinking…") {
		t.Fatalf("no spinner for the next turn: %q", term.String())
	}
}
