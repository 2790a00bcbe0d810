package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// conformanceMessages collects every distinct message object in pi's
// recorded RPC transcripts (message_end events and get_messages answers).
func conformanceMessages(t *testing.T) []json.RawMessage {
	t.Helper()
	// pi 0.73.1's transcripts, kept with the rpc conformance test.
	files, _ := filepath.Glob("../../rpcmode/pi/testdata/pi073/*.jsonl")
	if len(files) == 0 {
		t.Fatal("pi's transcripts are missing from rpcmode/pi/testdata/pi073")
	}
	seen := map[string]bool{}
	var out []json.RawMessage
	add := func(m json.RawMessage) {
		// get_fork_messages answers hold {entryId, text}, not messages.
		if bytes.Contains(m, []byte(`"role"`)) && !seen[string(m)] {
			seen[string(m)] = true
			out = append(out, m)
		}
	}
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(fh)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				var ev struct {
					Type    string          `json:"type"`
					Message json.RawMessage `json:"message"`
					Data    struct {
						Messages []json.RawMessage `json:"messages"`
					} `json:"data"`
				}
				if json.Unmarshal(line, &ev) == nil {
					if ev.Type == "message_end" {
						add(ev.Message)
					}
					for _, m := range ev.Data.Messages {
						add(m)
					}
				}
			}
			if err != nil {
				break
			}
		}
		fh.Close()
	}
	return out
}
