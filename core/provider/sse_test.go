package provider_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/cairn-dev/cairn/core/provider"
)

// sseEvent is a copy of a provider.SSEEvent whose Data outlives Next.
type sseEvent struct {
	Event, Data, ID string
}

// decodeAll reads every event from r, stopping at the first error, which it
// returns (nil for a clean io.EOF). It fails the test if the decoder keeps
// producing events past any sane bound.
func decodeAll(t testing.TB, r io.Reader, bound int) ([]sseEvent, error) {
	t.Helper()
	d := provider.NewSSEDecoder(r)
	var out []sseEvent
	for range bound + 2 {
		ev, err := d.Next()
		if err == io.EOF {
			// EOF is sticky.
			if _, again := d.Next(); again != io.EOF {
				t.Fatalf("Next after io.EOF returned %v", again)
			}
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, sseEvent{ev.Event, string(ev.Data), ev.ID})
	}
	t.Fatalf("decoder produced more than %d events", bound+2)
	return nil, nil
}

func TestSSEDecoder(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []sseEvent
	}{
		{"empty", "", nil},
		{"only blank lines", "\n\n\r\n\n", nil},
		{"LF", "event: a\ndata: 1\n\ndata: 2\n\n", []sseEvent{{"a", "1", ""}, {"", "2", ""}}},
		{"CRLF", "event: a\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n", []sseEvent{{"a", "1", ""}, {"", "2", ""}}},
		{"mixed endings", "data: 1\r\n\ndata: 2\n\r\n", []sseEvent{{"", "1", ""}, {"", "2", ""}}},
		{"comments", ": ping\n\n:\ndata: x\n: inside\n\n", []sseEvent{{"", "x", ""}}},
		{"multi-line data", "data: a\ndata: b\ndata:\ndata: c\n\n", []sseEvent{{"", "a\nb\n\nc", ""}}},
		{"multi-line data CRLF", "data: a\r\ndata: b\r\n\r\n", []sseEvent{{"", "a\nb", ""}}},
		{"no space after colon", "data:x\n\n", []sseEvent{{"", "x", ""}}},
		{"only one space stripped", "data:  x \n\n", []sseEvent{{"", " x ", ""}}},
		{"colon in value", "data: {\"a\":\"b:c\"}\n\n", []sseEvent{{"", `{"a":"b:c"}`, ""}}},
		{"event name no space", "event:delta\ndata: d\n\n", []sseEvent{{"delta", "d", ""}}},
		{"last event name wins", "event: a\nevent: b\ndata: d\n\n", []sseEvent{{"b", "d", ""}}},
		{"event name resets after dispatch", "event: a\ndata: 1\n\ndata: 2\n\n", []sseEvent{{"a", "1", ""}, {"", "2", ""}}},
		{"event without data is dropped", "event: ping\n\ndata: x\n\n", []sseEvent{{"", "x", ""}}},
		{"id", "id: 7\ndata: x\n\n", []sseEvent{{"", "x", "7"}}},
		{"id of a block without data is dropped with it", "id: 1\n\ndata: x\n\n", []sseEvent{{"", "x", ""}}},
		{"name and id of a block without data are dropped", "event: e\nid: 1\n\ndata", []sseEvent{{"", "", ""}}},
		{"id does not carry over to the next event", "id: 1\ndata: a\n\ndata: b\n\n", []sseEvent{{"", "a", "1"}, {"", "b", ""}}},
		{"final event without blank line", "data: a\n\ndata: b\n", []sseEvent{{"", "a", ""}, {"", "b", ""}}},
		{"final event without any newline", "event: e\ndata: b", []sseEvent{{"e", "b", ""}}},
		{"final event without newline CRLF", "data: a\r\ndata: b\r", []sseEvent{{"", "a\nb", ""}}},
		{"trailing comment is not an event", "data: a\n\n: bye", []sseEvent{{"", "a", ""}}},
		{"data without colon is empty data", "data\n\n", []sseEvent{{"", "", ""}}},
		{"data without colon joins", "data: a\ndata\ndata: b\n\n", []sseEvent{{"", "a\n\nb", ""}}},
		{"event without colon clears name", "event: a\nevent\ndata: x\n\n", []sseEvent{{"", "x", ""}}},
		{"empty data value dispatches", "data:\n\n", []sseEvent{{"", "", ""}}},
		{"unknown fields ignored", "retry: 100\nfoo: bar\nbaz\nDATA: no\ndata: y\n\n", []sseEvent{{"", "y", ""}}},
		{"field names are exact", " data: no\ndata : no\n\n", nil},
		{"many blank lines between", "data: a\n\n\n\n\ndata: b\n\n", []sseEvent{{"", "a", ""}, {"", "b", ""}}},
		{"lone CR is not a line end", "data: a\rb\n\n", []sseEvent{{"", "a\rb", ""}}},
		{"utf8 and NUL pass through", "data: héllo\x00✓\n\n", []sseEvent{{"", "héllo\x00✓", ""}}},
	}
	readers := map[string]func(string) io.Reader{
		"whole":   func(s string) io.Reader { return strings.NewReader(s) },
		"onebyte": func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
		"dataerr": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
		"half":    func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	}
	for _, tt := range tests {
		for rname, mk := range readers {
			t.Run(tt.name+"/"+rname, func(t *testing.T) {
				got, err := decodeAll(t, mk(tt.in), len(tt.in))
				if err != nil {
					t.Fatalf("error %v", err)
				}
				if !equalEvents(got, tt.want) {
					t.Errorf("input %q\n got %q\nwant %q", tt.in, got, tt.want)
				}
			})
		}
	}
}

func equalEvents(a, b []sseEvent) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestSSEDecoderLongLines(t *testing.T) {
	// Lengths around the decoder's 32 KiB read buffer (so a CRLF can straddle
	// a refill) and one of a megabyte in a single data line.
	const buf = 32 << 10
	for _, n := range []int{buf - 8, buf - 7, buf - 6, buf - 5, buf, buf + 1, 3*buf + 5, 1 << 20} {
		for _, eol := range []string{"\n", "\r\n"} {
			payload := strings.Repeat("x", n)
			in := "event: big" + eol + "data: " + payload + eol + eol + "data: after" + eol + eol
			got, err := decodeAll(t, strings.NewReader(in), 4)
			if err != nil {
				t.Fatalf("n=%d eol=%q: %v", n, eol, err)
			}
			if len(got) != 2 || got[0].Event != "big" || got[0].Data != payload || got[1].Data != "after" {
				t.Fatalf("n=%d eol=%q: got %d events, first data %d bytes (want %d), event %q", n, eol, len(got), len(got[0].Data), n, got[0].Event)
			}
		}
	}
	// A long final line without a terminator is still dispatched.
	payload := strings.Repeat("y", 100_000)
	got, err := decodeAll(t, iotest.HalfReader(strings.NewReader("data: "+payload)), 2)
	if err != nil || len(got) != 1 || got[0].Data != payload {
		t.Fatalf("unterminated long line: %d events, err %v", len(got), err)
	}
}

// repeatReader yields count copies of b without holding them all in memory.
type repeatReader struct {
	b         []byte
	off, left int
}

func repeat(b []byte, count int) *repeatReader { return &repeatReader{b: b, left: len(b) * count} }

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		k := copy(p[n:min(len(p), n+r.left)], r.b[r.off:])
		n += k
		r.left -= k
		r.off = (r.off + k) % len(r.b)
	}
	return n, nil
}

func TestSSEDecoderEventTooLong(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates more than 64 MiB")
	}
	chunk := bytes.Repeat([]byte("z"), 1<<20)
	t.Run("one line", func(t *testing.T) {
		r := io.MultiReader(strings.NewReader("data: ok\n\ndata: "), repeat(chunk, provider.MaxSSEEventSize>>20+1), strings.NewReader("\n\n"))
		d := provider.NewSSEDecoder(r)
		ev, err := d.Next()
		if err != nil || string(ev.Data) != "ok" {
			t.Fatalf("first event: %q, %v", ev.Data, err)
		}
		if _, err := d.Next(); !errors.Is(err, provider.ErrSSEEventTooLong) {
			t.Fatalf("got %v, want ErrSSEEventTooLong", err)
		}
		if _, err := d.Next(); !errors.Is(err, provider.ErrSSEEventTooLong) {
			t.Fatalf("error is not sticky: %v", err)
		}
	})
	t.Run("many lines", func(t *testing.T) {
		line := append(append([]byte("data: "), chunk...), '\n')
		r := io.MultiReader(repeat(line, provider.MaxSSEEventSize>>20+1), strings.NewReader("\n"))
		d := provider.NewSSEDecoder(r)
		if _, err := d.Next(); !errors.Is(err, provider.ErrSSEEventTooLong) {
			t.Fatalf("got %v, want ErrSSEEventTooLong", err)
		}
	})
	t.Run("exactly the limit is fine", func(t *testing.T) {
		// The limit is on data: MaxSSEEventSize bytes of data pass.
		r := io.MultiReader(strings.NewReader("data: "), repeat(chunk, provider.MaxSSEEventSize>>20), strings.NewReader("\n\n"))
		d := provider.NewSSEDecoder(r)
		ev, err := d.Next()
		if err != nil || len(ev.Data) != provider.MaxSSEEventSize {
			t.Fatalf("got %d bytes, %v", len(ev.Data), err)
		}
	})
}

var errConnReset = errors.New("connection reset by peer")

func TestSSEDecoderReaderError(t *testing.T) {
	r := io.MultiReader(strings.NewReader("data: a\n\ndata: partial"), iotest.ErrReader(errConnReset))
	d := provider.NewSSEDecoder(r)
	ev, err := d.Next()
	if err != nil || string(ev.Data) != "a" {
		t.Fatalf("first event: %q, %v", ev.Data, err)
	}
	_, err = d.Next()
	if !errors.Is(err, errConnReset) {
		t.Fatalf("got %v, want the reader's error", err)
	}
	if err == io.EOF {
		t.Fatal("a broken stream looks like a clean end")
	}
	if _, again := d.Next(); !errors.Is(again, errConnReset) {
		t.Fatalf("error is not sticky: %v", again)
	}

	// An error that arrives with the final bytes is not mistaken for EOF.
	d = provider.NewSSEDecoder(io.MultiReader(strings.NewReader("data: b\n\n"), iotest.ErrReader(io.ErrUnexpectedEOF)))
	if ev, err := d.Next(); err != nil || string(ev.Data) != "b" {
		t.Fatalf("got %q, %v", ev.Data, err)
	}
	if _, err := d.Next(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("got %v, want io.ErrUnexpectedEOF", err)
	}
}

func TestSSEDecoderDataReusedBetweenEvents(t *testing.T) {
	// Data is documented as valid only until the next Next; a caller that
	// copies it must see each event's own bytes.
	d := provider.NewSSEDecoder(strings.NewReader("data: first\n\ndata: second\n\n"))
	a, _ := d.Next()
	first := string(a.Data)
	b, _ := d.Next()
	if first != "first" || string(b.Data) != "second" {
		t.Fatalf("got %q then %q", first, b.Data)
	}
}

// refDecode is a deliberately simple model of the decoder: split on LF,
// drop one CR before it, and apply the fields.
func refDecode(s string) []sseEvent {
	var out []sseEvent
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var ev sseEvent
	var data []string
	hasData := false
	for _, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		if line == "" {
			if hasData {
				ev.Data = strings.Join(data, "\n")
				out = append(out, ev)
			}
			ev, data, hasData = sseEvent{}, nil, false
			continue
		}
		if line[0] == ':' {
			continue
		}
		name, value, found := strings.Cut(line, ":")
		if found {
			value = strings.TrimPrefix(value, " ")
		}
		switch name {
		case "data":
			data = append(data, value)
			hasData = true
		case "event":
			ev.Event = value
		case "id":
			ev.ID = value
		}
	}
	if hasData {
		ev.Data = strings.Join(data, "\n")
		out = append(out, ev)
	}
	return out
}

func FuzzSSEDecoder(f *testing.F) {
	for _, s := range []string{
		"", "data: x\n\n", "event: a\r\ndata: 1\r\n\r\n", ": c\ndata\n\n", "data:a\ndata: b\n",
		"id: 1\nevent: e\ndata: {\"k\":1}\n\n", "\r\n\r\n", "data: a\rb\r\n\r\n", "event\ndata:", "data: \xff\xfe\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		s := string(in)
		got, err := decodeAll(t, bytes.NewReader(in), len(in))
		if err != nil {
			t.Fatalf("error %v from an in-memory reader", err)
		}
		if want := refDecode(s); !equalEvents(got, want) {
			t.Fatalf("input %q\n got %q\nwant %q (reference)", s, got, want)
		}
		slow, err := decodeAll(t, iotest.OneByteReader(bytes.NewReader(in)), len(in))
		if err != nil || !equalEvents(slow, got) {
			t.Fatalf("input %q: one byte at a time gives %q (%v), whole gives %q", s, slow, err, got)
		}

		// The same stream with CRLF framing decodes to the same events, and
		// no CR from the framing leaks into any field.
		lf := strings.ReplaceAll(s, "\r", "")
		crlf := strings.ReplaceAll(lf, "\n", "\r\n")
		a, err := decodeAll(t, strings.NewReader(lf), len(lf))
		if err != nil {
			t.Fatal(err)
		}
		b, err := decodeAll(t, strings.NewReader(crlf), len(crlf))
		if err != nil {
			t.Fatal(err)
		}
		if !equalEvents(a, b) {
			t.Fatalf("LF %q gives %q, CRLF gives %q", lf, a, b)
		}
		for _, ev := range b {
			if strings.ContainsRune(ev.Data, '\r') || strings.ContainsRune(ev.Event, '\r') || strings.ContainsRune(ev.ID, '\r') {
				t.Fatalf("CR leaked into %q from %q", ev, crlf)
			}
		}
	})
}

func BenchmarkSSEDecoder(b *testing.B) {
	var in bytes.Buffer
	for range 10_000 {
		in.WriteString("event: content_block_delta\r\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"hello\"}}\r\n\r\n")
	}
	body := in.Bytes()
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		d := provider.NewSSEDecoder(bytes.NewReader(body))
		for {
			if _, err := d.Next(); err != nil {
				break
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*10_000), "ns/event")
}

func TestSSEDecoderStripsLeadingByteOrderMark(t *testing.T) {
	d := provider.NewSSEDecoder(strings.NewReader("\xef\xbb\xbfdata: first\n\ndata: \xef\xbb\xbfsecond\n\n"))
	ev, err := d.Next()
	if err != nil || string(ev.Data) != "first" {
		t.Fatalf("first event = %q, %v", ev.Data, err)
	}
	ev, err = d.Next()
	if err != nil || string(ev.Data) != "\xef\xbb\xbfsecond" {
		t.Fatalf("a BOM inside the stream must be kept: %q, %v", ev.Data, err)
	}
}
