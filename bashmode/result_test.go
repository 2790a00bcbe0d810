package bashmode

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestTruncateTail(t *testing.T) {
	tests := []struct {
		name               string
		s                  string
		maxLines, maxBytes int
		want               string
		cut                bool
	}{
		{"fits", "a\nb\nc", 3, 100, "a\nb\nc", false},
		{"too many lines", "a\nb\nc\nd", 2, 100, "c\nd", true},
		{"trailing newline counts a line", "a\nb\n", 2, 100, "b\n", true},
		{"too many bytes", "aaaa\nbbbb\ncccc", 10, 8, "cccc", true},
		{"bytes allow two lines", "aaaa\nbbbb\ncccc", 10, 9, "bbbb\ncccc", true},
		{"bytes exactly", "aaaa\nbbbb", 10, 9, "aaaa\nbbbb", false},
		{"last line too long", "a\nxxxxxxxxxx", 10, 4, "xxxx", true},
		{"cut at a character boundary", "ééééé", 10, 5, "éé", true},
		{"empty", "", 1, 1, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, cut := truncateTail(tt.s, tt.maxLines, tt.maxBytes)
			if got != tt.want || cut != tt.cut {
				t.Errorf("truncateTail(%q, %d, %d) = %q, %v; want %q, %v", tt.s, tt.maxLines, tt.maxBytes, got, cut, tt.want, tt.cut)
			}
		})
	}
}

func TestResultMessage(t *testing.T) {
	code := 2
	res := Result{ExitCode: &code, Output: "boom", Truncated: true, FullOutputPath: "/tmp/x.log"}
	now := time.UnixMilli(1700000000123)
	msg := res.Message("make", true, now)
	data, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"role":"bashExecution","command":"make","output":"boom","exitCode":2,"cancelled":false,"truncated":true,"fullOutputPath":"/tmp/x.log","timestamp":1700000000123,"excludeFromContext":true}`
	if string(data) != want {
		t.Errorf("message\n got %s\nwant %s", data, want)
	}

	cancelled := Result{Cancelled: true, Output: "partial"}.Message("sleep 9", false, now)
	data, _ = json.Marshal(cancelled)
	if strings.Contains(string(data), "exitCode") || !strings.Contains(string(data), `"cancelled":true`) {
		t.Errorf("cancelled message %s", data)
	}
}
