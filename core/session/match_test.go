package session

import (
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	infos := []Info{
		{ID: "019a-aaaa-1111", Name: "standup", Path: "a"},
		{ID: "019a-aaaa-2222", Path: "b"},
		{ID: "019a-bbbb-3333", Name: "019a-aaaa-1111", Path: "c"},
	}
	for ref, want := range map[string]string{
		"019a-aaaa-1111": "a", // the id wins over a name equal to it
		"standup":        "a",
		"019a-b":         "c",
		"019a-aaaa-2":    "b",
	} {
		if in, err := Match(infos, ref); err != nil || in.Path != want {
			t.Errorf("%q: %v %v, want %s", ref, in.Path, err, want)
		}
	}
	for ref, msg := range map[string]string{
		"019a-aaaa": "2 sessions have ids starting",
		"nope":      "no session with the id, name or id prefix",
		"":          "no session",
	} {
		if _, err := Match(infos, ref); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v", ref, err)
		}
	}
}
