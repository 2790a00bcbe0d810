package provider

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// lowThreshold makes every body above n bytes a streamed one for a test.
func lowThreshold(t *testing.T, n int) {
	old := streamedBodyThreshold
	streamedBodyThreshold = n
	t.Cleanup(func() { streamedBodyThreshold = old })
}

// received is what a test server saw of one request.
type received struct {
	body      []byte
	length    int64
	chunked   bool
	readError error
	proto     int
}

// recorder is a server that reads each request's body whole, then answers
// with the next status of its script (200 when it runs out).
type recorder struct {
	mu       sync.Mutex
	requests []received
	statuses []int
}

func (rec *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	rec.mu.Lock()
	rec.requests = append(rec.requests, received{body: body, length: r.ContentLength,
		chunked: len(r.TransferEncoding) > 0 && r.TransferEncoding[0] == "chunked", readError: err, proto: r.ProtoMajor})
	status := http.StatusOK
	if len(rec.statuses) > 0 {
		status, rec.statuses = rec.statuses[0], rec.statuses[1:]
	}
	rec.mu.Unlock()
	w.WriteHeader(status)
}

func (rec *recorder) seen() []received {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]received(nil), rec.requests...)
}

// storedResults is a wire body of n tool result texts of size bytes each,
// held by fakes that count their reads.
func storedResults(n, size int) (any, []*fakeStored) {
	var fakes []*fakeStored
	var texts []Text
	for i := range n {
		f := &fakeStored{text: strings.Repeat(string(rune('a'+i%26)), size-3) + "<\"\n"}
		fakes = append(fakes, f)
		texts = append(texts, ResultTextOf([]core.Content{{Type: core.ContentText, Stored: f}}))
	}
	return struct {
		Model   string `json:"model"`
		Results []Text `json:"results"`
	}{"m", texts}, fakes
}

func sendTo(t *testing.T, url string, body any, opts Options) (*http.Response, error) {
	t.Helper()
	return SendJSON(context.Background(), opts, &Request{}, JSONRequest{Provider: "test", URL: url, Body: body})
}

// TestSendJSONStreamsLargeBodies: a body above the threshold is sent while
// it is written, with no length, and arrives exactly as EncodeJSON encodes
// it; one within it is sent whole with its length, as before.
func TestSendJSONStreamsLargeBodies(t *testing.T) {
	lowThreshold(t, 1000)
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	for _, tc := range []struct {
		name     string
		n        int
		streamed bool
	}{{"small", 2, false}, {"large", 50, true}} {
		t.Run(tc.name, func(t *testing.T) {
			body, _ := storedResults(tc.n, 100)
			want, err := EncodeJSON(body)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := sendTo(t, srv.URL, body, Options{})
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := rec.seen()[len(rec.seen())-1]
			if !bytes.Equal(got.body, want) {
				t.Fatalf("server got\n%s\nwant\n%s", got.body, want)
			}
			if got.chunked != tc.streamed || !tc.streamed && got.length != int64(len(want)) {
				t.Errorf("chunked %v, Content-Length %d for a %d-byte body", got.chunked, got.length, len(want))
			}
		})
	}
}

// TestSendJSONStreamsOverHTTP2: hosted APIs speak HTTP/2 over TLS, which
// has no chunking: a large body goes out in frames without a length and
// arrives whole; one that cannot be written is still not retried.
func TestSendJSONStreamsOverHTTP2(t *testing.T) {
	lowThreshold(t, 1000)
	rec := &recorder{}
	srv := httptest.NewUnstartedServer(rec)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	body, _ := storedResults(50, 100)
	want, _ := EncodeJSON(body)
	resp, err := sendTo(t, srv.URL, body, Options{Client: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := rec.seen()[0]; !bytes.Equal(got.body, want) || got.length != -1 || got.proto != 2 {
		t.Fatalf("HTTP/%d server got %d bytes with length %d, want %d streamed", got.proto, len(got.body), got.length, len(want))
	}
	retried := false
	_, err = sendTo(t, srv.URL, []any{body, math.NaN()}, Options{Client: srv.Client(), Retry: RetryPolicy{MaxRetries: 2,
		OnRetry: func(int, time.Duration, *Error) { retried = true }}})
	var perr *Error
	if !errors.As(err, &perr) || perr.Retryable || retried || !strings.Contains(err.Error(), "build request") {
		t.Fatalf("err = %v (retried %v)", err, retried)
	}
}

// TestSendJSONRetriesWriteTheBodyAgain: each attempt writes the body
// afresh, reading the stored texts again, and sends the same bytes.
func TestSendJSONRetriesWriteTheBodyAgain(t *testing.T) {
	lowThreshold(t, 1000)
	rec := &recorder{statuses: []int{http.StatusServiceUnavailable, http.StatusServiceUnavailable}}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	body, fakes := storedResults(30, 200)
	resp, err := sendTo(t, srv.URL, body, Options{Retry: RetryPolicy{MaxRetries: 2},
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	seen := rec.seen()
	if len(seen) != 3 {
		t.Fatalf("%d attempts, want 3", len(seen))
	}
	for i, r := range seen {
		if !r.chunked || !bytes.Equal(r.body, seen[0].body) || !bytes.HasSuffix(r.body, []byte(`<\"\n"]}`)) {
			t.Errorf("attempt %d sent %d bytes (chunked %v), unlike the first", i+1, len(r.body), r.chunked)
		}
	}
	for _, f := range fakes {
		if f.reads != 3 {
			t.Fatalf("a stored text was read %d times for 3 attempts", f.reads)
		}
	}
}

// TestSendJSONUnwritableLargeBody: a body that fails past the threshold
// ends the request with the encoding's error, which is not retried.
func TestSendJSONUnwritableLargeBody(t *testing.T) {
	lowThreshold(t, 1000)
	rec := &recorder{}
	srv := httptest.NewServer(rec)
	defer srv.Close()
	results, _ := storedResults(30, 200)
	body := []any{results, math.NaN()}
	retried := false
	_, err := sendTo(t, srv.URL, body, Options{Retry: RetryPolicy{MaxRetries: 2,
		OnRetry: func(int, time.Duration, *Error) { retried = true }}})
	var perr *Error
	if !errors.As(err, &perr) || perr.Retryable || !strings.Contains(err.Error(), "test: build request: json: unsupported value: NaN") {
		t.Fatalf("err = %#v", err)
	}
	if retried {
		t.Error("an unwritable body was retried")
	}
	for _, r := range rec.seen() {
		if r.readError == nil {
			t.Errorf("the server read a whole body of %d bytes", len(r.body))
		}
	}
}

// TestStreamedBodyClose: a server that answers without reading the body,
// and a body closed half read, stop the body's writer (goleak checks that
// it ends).
func TestStreamedBodyClose(t *testing.T) {
	lowThreshold(t, 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}))
	defer srv.Close()
	body, _ := storedResults(2000, 1000)
	if _, err := sendTo(t, srv.URL, body, Options{}); err == nil {
		t.Fatal("no error for a 401")
	}

	r, size, err := openJSONBody(body)
	if err != nil || size != -1 {
		t.Fatalf("openJSONBody = %d, %v", size, err)
	}
	if _, err := io.ReadFull(r, make([]byte, 5000)); err != nil {
		t.Fatal(err)
	}
	r.(io.Closer).Close()
	if _, err := io.ReadAll(r); !errors.Is(err, io.ErrClosedPipe) {
		t.Fatalf("read after Close: %v", err)
	}
}
