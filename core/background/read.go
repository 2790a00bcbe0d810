package background

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/shell"
)

// Read is the model's view of a command's new output.
type Read struct {
	// Info describes the command after the read.
	Info Info
	// Text is what the command wrote since the last read, cleaned for a
	// model (shell.Clean); with a filter, only the lines it matches.
	Text string
	// Skipped counts bytes written since the last read that memory no
	// longer holds; Info.OutputPath has them.
	Skipped int64
	// Unmatched counts the lines the filter left out.
	Unmatched int
}

// Read returns what command id wrote since the previous Read, and moves
// the read position past it. With filter, only lines it matches are
// returned (the others are passed over for good), and while the command
// runs an unfinished last line waits for the next read. With wait > 0 it
// waits up to that long for something to return (new text, or the
// command's end) before returning empty-handed; ctx ends the wait early.
func (t *Table) Read(ctx context.Context, id string, filter *regexp.Regexp, wait time.Duration) (Read, error) {
	t.mu.Lock()
	e, err := t.findLocked(id)
	t.mu.Unlock()
	if err != nil {
		return Read{}, err
	}
	e.reading.Lock()
	defer e.reading.Unlock()
	var deadline <-chan time.Time
	if wait > 0 {
		timer := time.NewTimer(wait)
		defer timer.Stop()
		deadline = timer.C
	}
	var r Read
	var text []string
	for {
		written := e.out.wait()
		t.mu.Lock()
		running, from := !e.done, e.cursor
		t.mu.Unlock()
		data, skipped, next := e.out.since(from, filter != nil && running)
		t.mu.Lock()
		e.cursor = next
		r.Info = t.infoLocked(e)
		t.mu.Unlock()
		r.Skipped += skipped
		if s := pick(shell.Clean(string(data)), filter, &r.Unmatched); s != "" {
			text = append(text, s)
		}
		if len(text) > 0 || r.Skipped > 0 || !running || deadline == nil {
			r.Text = strings.Join(text, "\n")
			return r, nil
		}
		select {
		case <-written:
		case <-e.recorded:
		case <-deadline:
			deadline = nil
		case <-ctx.Done():
			deadline = nil
		}
	}
}

// pick returns the lines of text that filter matches (all of text when
// filter is nil), counting the others in unmatched.
func pick(text string, filter *regexp.Regexp, unmatched *int) string {
	text = strings.TrimSuffix(text, "\n")
	if filter == nil || text == "" {
		return text
	}
	var kept []string
	for line := range strings.SplitSeq(text, "\n") {
		if filter.MatchString(line) {
			kept = append(kept, line)
		} else {
			*unmatched++
		}
	}
	return strings.Join(kept, "\n")
}
