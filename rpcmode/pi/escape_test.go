package pi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// TestQuestionTitlesAreEscaped: a host shows a question's title as text;
// the model's command in it arrives with its control characters escaped.
func TestQuestionTitlesAreEscaped(t *testing.T) {
	tests := []struct {
		name string
		q    core.Question
		want string
	}{
		{"select", core.Question{Kind: core.QuestionSelect, Title: "Allow bash: git status\x1b[8m; rm -rf ~?", Message: "Remembering allows bash: a\rb."},
			`Allow bash: git status\x1b[8m; rm -rf ~? Remembering allows bash: a\rb.`},
		{"confirm", core.Question{Kind: core.QuestionConfirm, Title: "x\x1b[2K\ry"}, `x\x1b[2K\ry`},
		{"input", core.Question{Kind: core.QuestionInput, Title: "Why deny bash: \u202eexe?"}, `Why deny bash: \u202eexe?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := json.Marshal(questionFrame(tt.q))
			if err != nil {
				t.Fatal(err)
			}
			var frame struct{ Title string }
			if err := json.Unmarshal(data, &frame); err != nil {
				t.Fatal(err)
			}
			if frame.Title != tt.want || strings.ContainsAny(frame.Title, "\x1b\r\u202e") {
				t.Errorf("title %q, want %q", frame.Title, tt.want)
			}
		})
	}
}
