package webui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// dialPage opens the WebSocket as the page does.
func dialPage(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(url, "http") + "/" + testToken + "/acp"
	c, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {url}}})
	if err != nil {
		t.Fatal(err)
	}
	c.SetReadLimit(-1)
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func pageWrite(t *testing.T, c *websocket.Conn, typ websocket.MessageType, s string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := c.Write(ctx, typ, []byte(s)); err != nil {
		t.Fatal(err)
	}
}

// pageRead returns the page's next message, or the error ending them.
func pageRead(c *websocket.Conn) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, b, err := c.Read(ctx)
	return string(b), err
}

// closedWith reads until the connection ends and returns its close status.
func closedWith(t *testing.T, c *websocket.Conn) websocket.StatusCode {
	t.Helper()
	for {
		if _, err := pageRead(c); err != nil {
			if errors.Is(err, context.DeadlineExceeded) {
				t.Fatal("the connection did not close")
			}
			return websocket.CloseStatus(err)
		}
	}
}

// readLine reads one line cairn's end received, within the wait limit.
func readLine(t *testing.T, r *bufio.Reader, conn net.Conn) string {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	s, err := r.ReadString('\n')
	if err != nil {
		t.Fatalf("cairn's end: %v", err)
	}
	return s
}

// streamEnds waits for cairn's end of a stream to be closed by the page's
// side.
func streamEnds(t *testing.T, conn net.Conn) {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(waitLimit))
	buf := make([]byte, 512)
	for {
		_, err := conn.Read(buf)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatal("the stream was not closed")
		}
		if err != nil {
			return
		}
	}
}

func TestFramesBothWays(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial})
	page := dialPage(t, srv.URL)
	end := cairn.next(t)
	lines := bufio.NewReader(end)

	// A frame spread over lines by the page is one line for cairn.
	pageWrite(t, page, websocket.MessageText, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"initialize\",\n  \"params\": {\"s\": \"a\\nb\"}\n}")
	if got := readLine(t, lines, end); got != `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"s":"a\nb"}}`+"\n" {
		t.Fatalf("cairn got %q", got)
	}
	go func() { _, _ = end.Write([]byte("{\"id\":1,\"result\":{}}\n\n{\"method\":\"x\"}\r\n")) }()
	for _, want := range []string{`{"id":1,"result":{}}`, `{"method":"x"}`} {
		got, err := pageRead(page)
		if err != nil || got != want {
			t.Fatalf("page got %q, %v; want %q", got, err, want)
		}
	}
}

// What the page may not send closes its connection and its stream, with
// a status saying why.
func TestBadFramesFromThePage(t *testing.T) {
	for _, tc := range []struct {
		name string
		typ  websocket.MessageType
		msg  string
		want websocket.StatusCode
	}{
		{"binary", websocket.MessageBinary, `{}`, websocket.StatusUnsupportedData},
		{"not JSON", websocket.MessageText, `{"jsonrpc":`, websocket.StatusInvalidFramePayloadData},
		{"two values", websocket.MessageText, "{}\n{}", websocket.StatusInvalidFramePayloadData},
		{"too big", websocket.MessageText, `{"pad":"` + strings.Repeat("x", 200) + `"}`, websocket.StatusMessageTooBig},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cairn := newPipeCairn()
			srv, _ := serve(t, Config{Dial: cairn.Dial, MaxInFrame: 128})
			page := dialPage(t, srv.URL)
			end := cairn.next(t)
			pageWrite(t, page, tc.typ, tc.msg)
			if got := closedWith(t, page); got != tc.want {
				t.Errorf("closed with %v, want %v", got, tc.want)
			}
			streamEnds(t, end)
		})
	}
}

func TestLongLineFromCairnClosesThePage(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial, MaxOutFrame: 64})
	page := dialPage(t, srv.URL)
	end := cairn.next(t)
	go func() { _, _ = end.Write([]byte(`{"pad":"` + strings.Repeat("x", 100) + "\"}\n")) }()
	if got := closedWith(t, page); got != websocket.StatusMessageTooBig {
		t.Fatalf("closed with %v, want %v", got, websocket.StatusMessageTooBig)
	}
}

// A page that does not read is disconnected when its queue is full; cairn's
// writes never wait on it.
func TestSlowPageNeverBlocksCairn(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial, QueueFrames: 4, QueueBytes: 1 << 20})
	page := dialPage(t, srv.URL)
	end := cairn.next(t)
	frame := []byte(`{"method":"session/update","params":{"pad":"` + strings.Repeat("x", 64<<10) + "\"}}\n")
	wrote := make(chan error, 1)
	go func() {
		// 64 MiB: far more than the socket buffers and the queue hold.
		for i := 0; i < 1024; i++ {
			_ = end.SetWriteDeadline(time.Now().Add(waitLimit))
			if _, err := end.Write(frame); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		var ne net.Error
		if err == nil || errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("cairn's writes: %v; want the stream closed under them", err)
		}
	case <-time.After(2 * waitLimit):
		t.Fatal("cairn's writes were held up by a page that does not read")
	}
	if got := closedWith(t, page); got != websocket.StatusTryAgainLater {
		t.Fatalf("closed with %v, want %v", got, websocket.StatusTryAgainLater)
	}
}

// A page that goes away closes its own stream and nothing else.
func TestClosedPageClosesOnlyItsStream(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial})
	first := dialPage(t, srv.URL)
	firstEnd := cairn.next(t)
	second := dialPage(t, srv.URL)
	secondEnd := cairn.next(t)
	first.Close(websocket.StatusNormalClosure, "")
	streamEnds(t, firstEnd)

	lines := bufio.NewReader(secondEnd)
	pageWrite(t, second, websocket.MessageText, `{"jsonrpc":"2.0","method":"ping"}`)
	if got := readLine(t, lines, secondEnd); got != `{"jsonrpc":"2.0","method":"ping"}`+"\n" {
		t.Fatalf("the other page's stream got %q", got)
	}
}

func TestCairnClosingItsStreamClosesThePage(t *testing.T) {
	cairn := newPipeCairn()
	srv, _ := serve(t, Config{Dial: cairn.Dial})
	page := dialPage(t, srv.URL)
	cairn.next(t).Close()
	if got := closedWith(t, page); got != websocket.StatusGoingAway {
		t.Fatalf("closed with %v, want %v", got, websocket.StatusGoingAway)
	}
}

func TestHandlerCloseEndsEveryConnection(t *testing.T) {
	cairn := newPipeCairn()
	srv, h := serve(t, Config{Dial: cairn.Dial})
	page := dialPage(t, srv.URL)
	end := cairn.next(t)
	status := make(chan websocket.StatusCode, 1)
	go func() {
		for {
			if _, err := pageRead(page); err != nil {
				status <- websocket.CloseStatus(err)
				return
			}
		}
	}()
	h.Close()
	streamEnds(t, end)
	if got := <-status; got != websocket.StatusGoingAway {
		t.Fatalf("closed with %v, want %v", got, websocket.StatusGoingAway)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	ws := "ws" + strings.TrimPrefix(srv.URL, "http") + "/" + testToken + "/acp"
	if _, _, err := websocket.Dial(ctx, ws, &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {srv.URL}}}); err == nil {
		t.Fatal("a connection was taken after Close")
	}
}

func TestDialFailureIsTold(t *testing.T) {
	var warned []string
	srv, _ := serve(t, Config{
		Dial: func(context.Context) (io.ReadWriteCloser, error) { return nil, errors.New("no sessions here") },
		Warn: func(s string) { warned = append(warned, s) },
	})
	page := dialPage(t, srv.URL)
	_, err := pageRead(page)
	if websocket.CloseStatus(err) != websocket.StatusInternalError || !strings.Contains(err.Error(), "no sessions here") {
		t.Fatalf("page got %v; want an internal error naming the cause", err)
	}
}

// Nothing is dialled, so nothing runs for cairn, while the page and its
// files are fetched and no WebSocket is open.
func TestNoStreamWithoutAWebSocket(t *testing.T) {
	dials := 0
	srv, _ := serve(t, Config{Dial: func(ctx context.Context) (io.ReadWriteCloser, error) {
		dials++
		return newPipeCairn().Dial(ctx)
	}})
	for _, p := range []string{"", "app.js", "acp.js", "render.js", "style.css", "vendor/marked.esm.js", "vendor/purify.es.mjs"} {
		if resp, _ := get(t, srv.URL+"/"+testToken+"/"+p, nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", p, resp.StatusCode)
		}
	}
	if dials != 0 {
		t.Fatalf("%d streams opened without a WebSocket", dials)
	}
}

func TestCloseReasonFits(t *testing.T) {
	long := strings.Repeat("é", 100)
	got := closeReason(long)
	if len(got) > 123 || !strings.HasPrefix(long, got) || len(got) < 120 {
		t.Fatalf("closeReason gave %d bytes %q", len(got), got)
	}
}

func FuzzCompactFrame(f *testing.F) {
	for _, s := range []string{`{}`, "{\n\"a\": [1, 2,\n3]}", `"x\ny"`, `{"a":"\u2028"}`, "{} {}", `{"a":`, " 1 ", "\xff", `[` + strings.Repeat("[", 100) + `]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		var buf bytes.Buffer
		err := compactFrame(&buf, msg)
		if (err == nil) != json.Valid(msg) {
			t.Fatalf("compactFrame(%q): %v, but json.Valid says %v", msg, err, json.Valid(msg))
		}
		if err != nil {
			return
		}
		if bytes.ContainsAny(buf.Bytes(), "\n\r") {
			t.Fatalf("compactFrame(%q) = %q holds a line break", msg, buf.Bytes())
		}
		// Numbers stay text: 1E700 is valid JSON but no float64.
		a, errA := decodeNumbers(msg)
		b, errB := decodeNumbers(buf.Bytes())
		if errA != nil || errB != nil {
			t.Fatalf("compactFrame(%q) = %q does not decode: %v, %v", msg, buf.Bytes(), errA, errB)
		}
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if !bytes.Equal(ja, jb) {
			t.Fatalf("compactFrame(%q) = %q changed the value", msg, buf.Bytes())
		}
	})
}

// decodeNumbers decodes one JSON value, keeping numbers as written.
func decodeNumbers(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
