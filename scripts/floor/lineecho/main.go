// Command lineecho is the floor of `make bench-startup`: the least a Go
// program that speaks a line protocol does. It reads one line from stdin and
// answers it with one line in the shape of pi's rpc response
// ({"id":...,"type":"response",...}), then exits when stdin ends (at
// once, with status 0, when stdin is empty: the floor of a --version). It parses
// nothing beyond the request's id and imports no JSON library, so the time
// from its spawn to its answer is the Go runtime's start, one read and one
// write. Built like cairn (CGO_ENABLED=0, -trimpath, -s -w), it is static.
package main

import (
	"bufio"
	"io"
	"os"
	"strings"
)

func main() {
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadString('\n')
	if err != nil && line == "" {
		return
	}
	os.Stdout.WriteString(`{"id":` + requestID(line) + `,"type":"response","command":"get_state","success":true}` + "\n")
	_, _ = io.Copy(io.Discard, in)
}

// requestID returns the request's "id" value as written (a JSON string or
// number), or null when the line has none.
func requestID(line string) string {
	_, rest, ok := strings.Cut(line, `"id":`)
	if !ok {
		return "null"
	}
	rest = strings.TrimLeft(rest, " ")
	if strings.HasPrefix(rest, `"`) {
		if end := strings.IndexByte(rest[1:], '"'); end >= 0 {
			return rest[:end+2]
		}
		return "null"
	}
	if end := strings.IndexAny(rest, ",}"); end > 0 {
		return strings.TrimSpace(rest[:end])
	}
	return "null"
}
