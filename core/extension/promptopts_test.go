package extension

import (
	"strings"
	"testing"
)

func TestPromptSectionsAreTaggedAndChecked(t *testing.T) {
	got, err := promptSections([]PromptSection{{Name: "tool_guidance", Text: "- use read"}, {Name: "gone", Text: ""}})
	if err != nil || len(got) != 1 || got[0].Name != "tool_guidance" || got[0].Text != "<tool_guidance>\n- use read\n</tool_guidance>" {
		t.Fatalf("%+v %v", got, err)
	}
	for _, bad := range []string{"preamble", "Tools", "1st", "", "a b", "x>y"} {
		if _, err := promptSections([]PromptSection{{Name: bad, Text: "t"}}); err == nil {
			t.Errorf("section %q accepted", bad)
		}
	}
}

func FuzzPromptSections(f *testing.F) {
	for _, s := range []string{"tool_guidance", "preamble", "a-b_c9", "X", "<x>"} {
		f.Add(s, "text")
	}
	f.Fuzz(func(t *testing.T, name, text string) {
		got, err := promptSections([]PromptSection{{Name: name, Text: text}})
		if err != nil {
			return
		}
		if strings.ContainsAny(name, "<>/ \n") || name == "preamble" {
			t.Fatalf("name %q accepted", name)
		}
		if text != "" && (len(got) != 1 || !strings.HasPrefix(got[0].Text, "<"+name+">\n")) {
			t.Fatalf("%q %q: %+v", name, text, got)
		}
	})
}
