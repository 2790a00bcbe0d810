package jsonrpc

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/tools"
)

// TestApprovalTextIsEscaped: the description and message a host shows with
// an approval request carry the model's command with its control
// characters escaped.
func TestApprovalTextIsEscaped(t *testing.T) {
	tr := newTranslator(&conn{tools: map[string]core.Tool{"bash": &tools.Bash{Dir: t.TempDir()}}})
	q := core.Question{Title: "Allow bash: git status\x1b[8m; rm -rf ~?", Message: "Remembering allows bash: a\rb."}
	p := tr.approvalParams(&execution{id: "e", name: "bash"}, q)
	tool := p["tool"].(map[string]string)
	if got, want := tool["description"], `Allow bash: git status\x1b[8m; rm -rf ~?`; got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	if got, want := p["message"], `Remembering allows bash: a\rb.`; got != want {
		t.Errorf("message %q, want %q", got, want)
	}
}
