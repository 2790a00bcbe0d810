package provider_test

import (
	"testing"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

func TestResultText(t *testing.T) {
	text := func(s string) core.Content { return core.Content{Type: core.ContentText, Text: s} }
	image := core.Content{Type: core.ContentImage, MimeType: "image/png", Data: "iVBORw0KGgo="}
	for _, tc := range []struct {
		content []core.Content
		want    string
	}{
		{nil, ""},
		{[]core.Content{image}, ""},
		{[]core.Content{text("one")}, "one"},
		{[]core.Content{text("one"), image, text(""), text("two")}, "one\n\ntwo"},
	} {
		if got := provider.ResultText(tc.content); got != tc.want {
			t.Errorf("ResultText(%v) = %q, want %q", tc.content, got, tc.want)
		}
	}
}
