package agent

import (
	"fmt"

	"github.com/cairn-dev/cairn/core/session"
)

// SetLabel bookmarks the entry targetID of the current conversation with
// label, or clears its bookmark when label is empty (pi's setLabel): a
// label entry joins the branch's tip, as pi's appendLabelChange writes it,
// and the conversation tree shows the label. An unknown targetID is an
// error and changes nothing.
func (s *Session) SetLabel(targetID, label string) error {
	a, ok := s.currentStore().(interface {
		Append(session.Payload) (session.Entry, error)
	})
	if !ok {
		return fmt.Errorf("cannot label %s: this conversation keeps no entries", targetID)
	}
	if _, err := a.Append(&session.LabelEntry{TargetID: targetID, Label: label}); err != nil {
		return fmt.Errorf("label %s: %w", targetID, err)
	}
	return nil
}
