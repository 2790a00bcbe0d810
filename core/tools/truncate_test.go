package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestTruncateHead(t *testing.T) {
	cases := []struct {
		name                 string
		in                   string
		maxLines, maxBytes   int
		content              string
		by                   TruncatedBy
		totalLines, outLines int
		firstLineTooLong     bool
	}{
		{"fits", "a\nb\n", 3, 100, "a\nb\n", "", 3, 3, false},
		{"line limit", "a\nb\nc\nd", 2, 100, "a\nb", TruncatedByLines, 4, 2, false},
		{"byte limit keeps whole lines", "aaaa\nbbbb\ncccc", 10, 9, "aaaa\nbbbb", TruncatedByBytes, 3, 2, false},
		{"byte limit mid line", "aaaa\nbbbb\ncccc", 10, 8, "aaaa", TruncatedByBytes, 3, 1, false},
		{"first line too long", "aaaaaaaaaa\nb", 10, 5, "", TruncatedByBytes, 2, 0, true},
		{"empty", "", 10, 10, "", "", 1, 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := truncateHead(c.in, c.maxLines, c.maxBytes)
			if got.Content != c.content || got.TruncatedBy != c.by || got.TotalLines != c.totalLines ||
				got.OutputLines != c.outLines || got.FirstLineExceedsLimit != c.firstLineTooLong ||
				got.Truncated != (c.by != "") || got.OutputBytes != len(c.content) || got.TotalBytes != len(c.in) {
				t.Errorf("truncateHead(%q) = %+v", c.in, got)
			}
		})
	}
}

func TestTruncationJSONIsPiShape(t *testing.T) {
	b, _ := json.Marshal(truncateHead("a\nb", 10, 10))
	want := `{"content":"a\nb","truncated":false,"truncatedBy":null,"totalLines":2,"totalBytes":3,"outputLines":2,` +
		`"outputBytes":3,"lastLinePartial":false,"firstLineExceedsLimit":false,"maxLines":10,"maxBytes":10}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	b, _ = json.Marshal(truncateHead("a\nb", 1, 10))
	if !strings.Contains(string(b), `"truncatedBy":"lines"`) {
		t.Errorf("truncated by lines encodes as %s", b)
	}
}

func TestTruncateLine(t *testing.T) {
	long := strings.Repeat("é", 600)
	got, cut := truncateLine(long, 500)
	if !cut || got != strings.Repeat("é", 500)+"... [truncated]" {
		t.Errorf("truncateLine cut=%v len=%d", cut, len(got))
	}
	if got, cut := truncateLine("short", 500); cut || got != "short" {
		t.Errorf("short line changed: %q", got)
	}
}

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{0: "0B", 1023: "1023B", 1024: "1.0KB", 51200: "50.0KB", 1536 * 1024: "1.5MB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %s, want %s", n, got, want)
		}
	}
}
