package main

import (
	"bytes"
	"io"
	"testing"
)

// Keys and sizes come apart as they were sent.
func TestTerminalFrames(t *testing.T) {
	var wire bytes.Buffer
	for _, f := range []struct {
		kind    byte
		payload []byte
	}{{frameKeys, []byte("hello")}, {frameResize, []byte{0, 120, 0, 40}}, {frameKeys, []byte("\x1b[A")}} {
		if err := writeTerminalFrame(&wire, f.kind, f.payload); err != nil {
			t.Fatal(err)
		}
	}
	var keys bytes.Buffer
	sizes := make(chan [2]int, 8)
	if err := readTerminalFrames(&wire, &keys, sizes); err != nil {
		t.Fatal(err)
	}
	if keys.String() != "hello\x1b[A" {
		t.Errorf("keys %q", keys.String())
	}
	if s := <-sizes; s != [2]int{120, 40} {
		t.Errorf("size %v", s)
	}
	for _, bad := range [][]byte{
		{'x', 0, 0, 0, 1, 'a'},          // unknown type
		{frameResize, 0, 0, 0, 2, 1, 2}, // short resize
		{frameKeys, 0xff, 0, 0, 0},      // over the limit
		{frameKeys, 0, 0, 0, 5, 'a'},    // cut short
	} {
		if err := readTerminalFrames(bytes.NewReader(bad), io.Discard, make(chan [2]int, 1)); err == nil {
			t.Errorf("%q was taken", bad)
		}
	}
}

// Whatever arrives, the reader ends with an error or at the input's end,
// and never takes more than the input held.
func FuzzTerminalFrames(f *testing.F) {
	f.Add([]byte{frameKeys, 0, 0, 0, 2, 'h', 'i'})
	f.Add([]byte{frameResize, 0, 0, 0, 4, 0, 80, 0, 24})
	f.Add([]byte{frameKeys, 0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		var keys bytes.Buffer
		_ = readTerminalFrames(bytes.NewReader(data), &keys, make(chan [2]int, 1))
		if keys.Len() > len(data) {
			t.Fatalf("%d key bytes from %d input bytes", keys.Len(), len(data))
		}
	})
}
