package tui

import (
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// streamFrames are the distinct frames of a 120x40 screen while an
// answer of "tok " streams in (as make bench-tui streams it), one a frame
// interval, after `have` bytes of it.
func streamFrames(b *testing.B, have, n int) []string {
	r := newRig(b, rigOptions{})
	c := &benchClock{t: testClock}
	paced(r, c)
	r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
	body := strings.Repeat("tok ", have/4)
	var frames []string
	last := ""
	for len(frames) < n {
		c.t = c.t.Add(frameInterval)
		for range 8 {
			body += "tok "
			r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "tok ", Message: answer(text(body))}})
		}
		r.m.Update(tickMsg{})
		if v := r.m.View().Content; v != last {
			frames, last = append(frames, v), v
		}
	}
	return frames
}

// BenchmarkFrameWrite is the writing of one streamed frame to the
// terminal, after cairn made it: "bubbletea" is Bubble Tea's renderer
// (the frame parsed into cells, compared with the screen cell by cell,
// the difference written), "linescreen" is cairn's (the lines compared
// with the screen's, the changed ones written). Frames of a 16 KB answer
// of "tok " at 120x40, each a frame interval after the one before.
func BenchmarkFrameWrite(b *testing.B) {
	frames := streamFrames(b, 16<<10, 64)
	b.Run("bubbletea", func(b *testing.B) {
		screen := newTeaScreen()
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			screen.frame(b, frames[i%len(frames)])
			i++
		}
	})
	b.Run("linescreen", func(b *testing.B) {
		devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer devNull.Close()
		s := newLineScreen(devNull, colorprofile.TrueColor)
		if _, err := s.Output().Write([]byte(ansi.EraseEntireScreen)); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			s.draw(frames[i%len(frames)], 120, 40)
			i++
		}
	})
}

// BenchmarkStreamFrame is cairn's whole work for one frame of a streamed
// answer of "tok " at 120x40 (16 KB in): 8 deltas (a frame interval at 5
// ms a token), the frame tick, the View that draws the frame, and its
// writing by the line screen.
func BenchmarkStreamFrame(b *testing.B) {
	r := newRig(b, rigOptions{})
	c := &benchClock{t: testClock}
	paced(r, c)
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	r.m.frames.screen = newLineScreen(devNull, colorprofile.TrueColor)
	if _, err := r.m.frames.screen.Output().Write([]byte(ansi.EraseEntireScreen)); err != nil {
		b.Fatal(err)
	}
	r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
	var body strings.Builder
	body.WriteString(strings.Repeat("tok ", 4<<10))
	r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: answer(text(body.String()))}})
	_ = r.m.View()
	b.ReportAllocs()
	for b.Loop() {
		for range 8 {
			c.t = c.t.Add(5 * time.Millisecond)
			body.WriteString("tok ")
			r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: "tok ", Message: answer(text(body.String()))}})
			_ = r.m.View()
		}
		r.m.Update(tickMsg{})
		_ = r.m.View()
	}
}
