package tui

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
)

// benchRig is a rig with a 5,000-message transcript at 120×40, drawn once.
func benchRig(b *testing.B) *rig {
	r := newRig(b, rigOptions{})
	r.m.showConversation(longConversation(2500))
	r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_ = r.m.render()
	return r
}

// BenchmarkKeystroke5000 is the work of one keystroke with a 5,000-message
// transcript: the editor takes the key and the whole screen is drawn.
// Target: under 1 ms, the same as with an empty transcript.
func BenchmarkKeystroke5000(b *testing.B) {
	for _, n := range []int{0, 2500} {
		b.Run(fmt.Sprintf("messages=%d", 2*n), func(b *testing.B) {
			r := newRig(b, rigOptions{})
			r.m.showConversation(longConversation(n))
			r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			_ = r.m.render()
			typeAndErase(b, r)
		})
	}
}

// typeAndErase times one key per iteration, "a" and backspace in turn,
// each an Update and a View.
func typeAndErase(b *testing.B, r *rig) {
	keys := []tea.KeyPressMsg{key("a"), {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		r.m.Update(keys[i%2])
		_ = r.m.View()
	}
}

// BenchmarkStreamDelta is the cost of one streamed delta (a few words) of
// an answer that already holds `have` bytes of markdown: the update and
// the redraw of the screen. Target: flat in `have`. Redraws are not
// throttled here, so this is the worst case.
func BenchmarkStreamDelta(b *testing.B) {
	unit := "Some **bold** text with `code` and a [link](https://example.com).\n\n" +
		"```go\nfunc f(x int) int {\n\treturn x * 2\n}\n```\n\n- item one\n- item two\n\n"
	for _, have := range []int{1 << 10, 16 << 10, 256 << 10} {
		b.Run(fmt.Sprintf("have=%dKB", have>>10), func(b *testing.B) {
			r := newRig(b, rigOptions{})
			r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			body := strings.Repeat(unit, have/len(unit)+1)[:have]
			body = body[:strings.LastIndex(body, "\n\n")+2]
			msg := answer(text(body))
			r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
			r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: msg}})
			_ = r.m.render()
			// The answer's text after each delta is a prefix of full, as
			// the session's snapshots are: a paragraph of 40 deltas, then
			// a new one.
			var full strings.Builder
			full.WriteString(body)
			var ends []int
			for i := range b.N {
				if i%40 == 0 {
					full.WriteString("\n\nThe streaming paragraph")
				}
				full.WriteString(" more words")
				ends = append(ends, full.Len())
			}
			all := full.String()
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				msg := answer(text(all[:ends[i]]))
				r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: " more words", Message: msg}})
				_ = r.m.render()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/delta")
		})
	}
}

// BenchmarkTranscriptMemory reports the heap a 5,000-message transcript
// holds once it has been scrolled through end to end.
func BenchmarkTranscriptMemory(b *testing.B) {
	for range b.N {
		runtime.GC()
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		r := benchRig(b)
		for range 400 {
			r.m.Update(key("pgup"))
			_ = r.m.render()
		}
		runtime.GC()
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MiB")
		runtime.KeepAlive(r)
	}
}

// benchUnit is the mixed markdown the stream benchmarks are made of.
const benchUnit = "Some **bold** text with `code` and a [link](https://example.com).\n\n" +
	"```go\nfunc f(x int) int {\n\treturn x * 2\n}\n```\n\n- item one\n- item two\n\n"

// benchAnswer is about have bytes of benchUnit, ending after a block.
func benchAnswer(have int) string {
	body := strings.Repeat(benchUnit, have/len(benchUnit)+1)[:have]
	return body[:strings.LastIndex(body, "\n\n")+2]
}

// BenchmarkKeystrokeAnswer is BenchmarkKeystroke5000 with one finished
// answer of `answer` bytes on screen. Target: flat in its size.
func BenchmarkKeystrokeAnswer(b *testing.B) {
	for _, have := range []int{1 << 10, 16 << 10, 256 << 10} {
		b.Run(fmt.Sprintf("answer=%dKB", have>>10), func(b *testing.B) {
			r := newRig(b, rigOptions{})
			r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			r.m.Update(eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: answer(text(benchAnswer(have)))}})
			_ = r.m.View()
			typeAndErase(b, r)
		})
	}
}

// benchClock is a clock the paced benchmarks move by hand.
type benchClock struct{ t time.Time }

func (c *benchClock) now() time.Time { return c.t }

// paced makes r draw as a real program does: on its clock, with frames
// limited as in a terminal.
func paced(r *rig, c *benchClock) {
	r.m.now = c.now
	r.m.frames.interval = frameInterval
}

// BenchmarkStreamPaced streams an answer as a program receives it: one
// delta every 5 ms on the model's clock, each an Update followed by View
// (as Bubble Tea calls it), and the animation tick every 40 ms. It reports
// the model's CPU per delta once the answer holds `have` bytes; shape
// "mixed" is markdown with paragraphs, code and lists, "tokens" one long
// paragraph of "tok " as make bench-tui streams.
func BenchmarkStreamPaced(b *testing.B) {
	for _, shape := range []string{"mixed", "tokens"} {
		for _, have := range []int{1 << 10, 16 << 10, 256 << 10} {
			b.Run(fmt.Sprintf("%s/have=%dKB", shape, have>>10), func(b *testing.B) {
				r := newRig(b, rigOptions{})
				c := &benchClock{t: testClock}
				paced(r, c)
				r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
				body, delta := benchAnswer(have), " more words"
				if shape == "tokens" {
					body, delta = strings.Repeat("tok ", have/4), "tok "
				}
				r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
				r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Message: answer(text(body))}})
				_ = r.m.View()
				var full strings.Builder
				full.WriteString(body)
				var ends []int
				for i := range b.N {
					if shape == "mixed" && i%40 == 0 {
						full.WriteString("\n\nThe streaming paragraph")
					}
					full.WriteString(delta)
					ends = append(ends, full.Len())
				}
				all := full.String()
				b.ReportAllocs()
				b.ResetTimer()
				for i := range b.N {
					c.t = c.t.Add(5 * time.Millisecond)
					msg := answer(text(all[:ends[i]]))
					r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: delta, Message: msg}})
					_ = r.m.View()
					if i%8 == 7 {
						r.m.Update(tickMsg{})
						_ = r.m.View()
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/delta")
			})
		}
	}
}

// BenchmarkBubbleTeaFrame is what Bubble Tea's renderer does with one of
// cairn's frames, outside cairn: a 120×40 screen with a 16 KB answer, the
// frame before and after a key. "draw" parses the frame text into a cell
// buffer (ultraviolet's StyledString.Draw, every frame); "draw-unstyled"
// is the same text without its escape sequences, so the cost is per cell,
// not per style; "frame" is a whole frame as Bubble Tea writes it on its
// tick: draw, compare with the screen (TerminalRenderer.Render), write.
// Compare with BenchmarkKeystrokeAnswer, cairn's own work for the key.
func BenchmarkBubbleTeaFrame(b *testing.B) {
	r := newRig(b, rigOptions{})
	r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r.m.Update(eventsMsg{core.MessageStart{Message: answer()}, core.MessageEnd{Message: answer(text(benchAnswer(16 << 10)))}})
	before := r.m.View().Content
	r.m.Update(key("a"))
	after := r.m.View().Content
	area := uv.Rect(0, 0, 120, 40)
	for _, c := range []struct{ name, text string }{{"draw", after}, {"draw-unstyled", ansi.Strip(after)}} {
		b.Run(c.name, func(b *testing.B) {
			buf := uv.NewScreenBuffer(120, 40)
			for b.Loop() {
				buf.Clear()
				uv.NewStyledString(c.text).Draw(buf, area)
			}
		})
	}
	b.Run("frame", func(b *testing.B) {
		screen := newTeaScreen()
		frames := [2]string{before, after}
		i := 0
		for b.Loop() {
			screen.frame(b, frames[i%2])
			i++
		}
	})
}

// BenchmarkStreamSplit streams testdata/stream-sample.md (8 KB of
// headings, paragraphs, lists, tables and code) as make bench-tui does: in
// 2,028 deltas, one every 5 ms on the model's clock, with the animation
// tick, taking a view 60 times a second as Bubble Tea does. It reports, per
// whole answer, cairn's own work (Update and View: "cairn-ms") and Bubble
// Tea's renderer on the distinct frames those views make (draw, compare,
// write: "bubbletea-ms"), so the two can be set beside make bench-tui's
// whole-process figure.
func BenchmarkStreamSplit(b *testing.B) {
	doc, err := os.ReadFile("testdata/stream-sample.md")
	if err != nil {
		b.Fatal(err)
	}
	const deltas = 2028
	var cairnTime, teaTime time.Duration
	frames := 0
	for b.Loop() {
		r := newRig(b, rigOptions{})
		c := &benchClock{t: testClock}
		paced(r, c)
		r.m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		r.m.Update(eventsMsg{core.AgentStart{}, core.MessageStart{Message: answer()}})
		var views []string
		last, nextLook := r.m.View().Content, c.t
		start := time.Now()
		for i := range deltas {
			c.t = c.t.Add(5 * time.Millisecond)
			upto := (i + 1) * len(doc) / deltas
			r.m.Update(eventsMsg{core.MessageUpdate{Kind: core.UpdateTextDelta, Delta: string(doc[i*len(doc)/deltas : upto]),
				Message: answer(text(string(doc[:upto])))}})
			if i%8 == 7 {
				r.m.Update(tickMsg{})
			}
			if !c.t.Before(nextLook) {
				nextLook = nextLook.Add(time.Second / frameRate)
				if v := r.m.View().Content; v != last {
					views, last = append(views, v), v
				}
			}
		}
		cairnTime += time.Since(start)
		screen := newTeaScreen()
		start = time.Now()
		for _, v := range views {
			screen.frame(b, v)
		}
		teaTime += time.Since(start)
		frames += len(views)
	}
	n := float64(b.N)
	b.ReportMetric(float64(cairnTime.Microseconds())/1000/n, "cairn-ms")
	b.ReportMetric(float64(teaTime.Microseconds())/1000/n, "bubbletea-ms")
	b.ReportMetric(float64(frames)/n, "frames")
}

// teaScreen is Bubble Tea's renderer pipeline on a 120×40 screen, as its
// ticker runs it for a changed view.
type teaScreen struct {
	out  strings.Builder
	term *uv.TerminalRenderer
	buf  uv.ScreenBuffer
}

func newTeaScreen() *teaScreen {
	s := &teaScreen{buf: uv.NewScreenBuffer(120, 40)}
	s.term = uv.NewTerminalRenderer(&s.out, []string{"TERM=xterm-256color"})
	return s
}

// frame draws view into the cell buffer, compares it with the screen and
// writes the difference.
func (s *teaScreen) frame(b *testing.B, view string) {
	s.buf.Clear()
	uv.NewStyledString(view).Draw(s.buf, s.buf.Bounds())
	s.term.Render(s.buf.RenderBuffer)
	if err := s.term.Flush(); err != nil {
		b.Fatal(err)
	}
	s.out.Reset()
}
