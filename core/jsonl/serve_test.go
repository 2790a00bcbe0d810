package jsonl

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestReadUntil(t *testing.T) {
	boom := errors.New("boom")
	if err := ReadUntil(context.Background(), context.Background(), func() error { return boom }); err != boom {
		t.Errorf("read's error: %v", err)
	}
	// A read blocked on its input does not hold the server once it is told
	// to stop.
	block := make(chan struct{})
	defer close(block)
	stop, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan error, 1)
	go func() { done <- ReadUntil(context.Background(), stop, func() error { <-block; return nil }) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("stopped: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ReadUntil waited for a blocked read after stop")
	}
}

func TestServed(t *testing.T) {
	w, r := errors.New("broken pipe"), errors.New("bad read")
	for _, c := range []struct {
		read, write error
		want        string
	}{
		{nil, nil, ""}, {io.EOF, nil, ""}, {r, nil, "read x input: bad read"},
		{r, w, "write x output: broken pipe"}, {io.EOF, w, "write x output: broken pipe"},
	} {
		err := Served("x", c.read, c.write)
		if (err == nil) != (c.want == "") || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("Served(%v, %v) = %v, want %q", c.read, c.write, err, c.want)
		}
	}
}
