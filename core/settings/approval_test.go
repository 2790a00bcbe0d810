package settings

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAllowWriteComesFromThePersonOnly: approval.allowWrite widens what
// auto_edit writes unasked, so only the global file and the session set it;
// a project's is reported and ignored, and never written.
func TestAllowWriteComesFromThePersonOnly(t *testing.T) {
	tests := []struct {
		name, global, project string
		want                  []string
		problem               string // in Load's error
	}{
		{name: "global", global: `{"approval": {"allowWrite": ["~/notes", "/srv/x"]}}`, want: []string{"~/notes", "/srv/x"}},
		{name: "project ignored", project: `{"approval": {"allowWrite": ["~"]}}`, problem: "approval: ignored in a project's settings"},
		{name: "project cannot add to global", global: `{"approval": {"allowWrite": ["/srv/x"]}}`, project: `{"approval": {"allowWrite": ["/"]}}`, want: []string{"/srv/x"}, problem: "approval: ignored"},
		{name: "relative entry refused", global: `{"approval": {"allowWrite": ["notes", "/srv/x"]}}`, want: []string{"/srv/x"}, problem: `approval.allowWrite: "notes" is not allowed: use an absolute directory or one starting with ~/`},
		{name: "not an array", global: `{"approval": {"allowWrite": "/srv"}}`, problem: "approval.allowWrite: expected an array of directory names"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, p := files(t, tt.global, tt.project)
			s, err := Load(g, p)
			if got := s.AllowWrite(); !slices.Equal(got, tt.want) {
				t.Errorf("AllowWrite() = %q, want %q", got, tt.want)
			}
			var fe *FileError
			switch {
			case tt.problem == "" && err != nil:
				t.Errorf("Load: %v", err)
			case tt.problem != "" && (!errors.As(err, &fe) || !strings.Contains(err.Error(), tt.problem)):
				t.Errorf("Load error = %v, want a *FileError saying %q", err, tt.problem)
			}
		})
	}
}

func TestProjectApprovalIsNeverWritten(t *testing.T) {
	g, p := files(t, "", "")
	s := mustLoad(t, g, p)
	err := s.Set("approval.allowWrite", []string{"/"}, ScopeProject)
	if err == nil || !strings.Contains(err.Error(), "a project may not widen") {
		t.Fatalf("Set in the project = %v, want a refusal", err)
	}
	if err := s.Set("approval.allowWrite", []string{"/srv"}, ScopeSession); err != nil {
		t.Fatal(err)
	}
	if got := s.AllowWrite(); !slices.Equal(got, []string{"/srv"}) {
		t.Errorf("after a session change AllowWrite() = %q", got)
	}
}
