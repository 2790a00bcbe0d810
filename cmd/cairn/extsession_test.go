package main

import (
	"testing"

	"github.com/cairn-dev/cairn/core/prompts"
)

// TestSlashBookLists: an extension's getCommands gets the prompt
// templates as "prompt" with where they are, then the skills as "skill"
// with their directory, as pi lists them.
func TestSlashBookLists(t *testing.T) {
	b := &slashBook{}
	if got := b.list(); len(got) != 0 {
		t.Fatalf("before the front end loaded templates: %+v", got)
	}
	b.setTemplates(prompts.Templates{
		{Name: "skill:pdf", Description: "Read PDFs", Path: "/s/pdf/SKILL.md", Scope: prompts.ScopeUser, Run: func(string) (string, error) { return "", nil }},
		{Name: "review", Description: "Review", Path: "/p/review.md", Scope: prompts.ScopeProject},
	})
	got := b.list()
	if len(got) != 2 {
		t.Fatalf("%+v", got)
	}
	if got[0].Name != "review" || got[0].Source != "prompt" || got[0].SourceInfo.Path != "/p/review.md" || got[0].SourceInfo.Scope != "project" {
		t.Errorf("prompt %+v %+v", got[0], got[0].SourceInfo)
	}
	if got[1].Name != "skill:pdf" || got[1].Source != "skill" || got[1].SourceInfo.BaseDir != "/s/pdf" {
		t.Errorf("skill %+v %+v", got[1], got[1].SourceInfo)
	}
}
