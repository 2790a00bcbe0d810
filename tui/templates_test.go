package tui

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/prompts"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestPromptTemplateExpands: /name args sends the template's text, with
// pi's quoting and defaults, and the template is offered for completion.
func TestPromptTemplateExpands(t *testing.T) {
	templates := prompts.Templates{{Name: "review", Description: "Review a change", Body: "Review $1 for ${2:-bugs}.", Scope: prompts.ScopeUser}}
	r := newRig(t, rigOptions{templates: templates, responses: []faux.Response{{Text: "Looks fine."}}})
	found := false
	for _, c := range r.m.commandList() {
		found = found || (c.Name == "review" && c.Description == "Review a change")
	}
	if !found {
		t.Error("the template is not offered after /")
	}
	r.typeText(`/review "the parser"`)
	r.send(key("enter"))
	r.waitSettled()
	msgs := r.sess.Messages()
	var sent string
	for _, m := range msgs {
		if u, ok := m.(*core.UserMessage); ok {
			sent = u.Text()
		}
	}
	if sent != "Review the parser for bugs." {
		t.Errorf("sent %q; messages %d", sent, len(msgs))
	}
	if strings.Contains(r.m.status.text, "Unknown command") {
		t.Errorf("status: %s", r.m.status.text)
	}
}
