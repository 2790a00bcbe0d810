package jsonl

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ReadUntil runs read (a server's read loop) on its own goroutine and
// returns its error, or nil as soon as ctx (the caller's) or stop (the
// server's own) ends first: the server then shuts down while the read may
// still be blocked on its input.
func ReadUntil(ctx, stop context.Context, read func() error) error {
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	case <-stop.Done():
	}
	return nil
}

// Served is how a line-protocol server's Serve ends: a write error first,
// then a read error other than the input's end, each named with proto;
// nil when the input simply ended or the server was stopped.
func Served(proto string, readErr, writeErr error) error {
	switch {
	case writeErr != nil:
		return fmt.Errorf("write %s output: %w", proto, writeErr)
	case readErr != nil && !errors.Is(readErr, io.EOF):
		return fmt.Errorf("read %s input: %w", proto, readErr)
	}
	return nil
}
