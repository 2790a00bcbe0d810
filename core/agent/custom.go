package agent

import (
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn/core/session"
)

// AppendCustom keeps an extension's state in the conversation as a custom
// entry (pi's appendEntry): it is written to the session file and never
// reaches the model. It returns the entry's id, and fails with
// ErrNoSessionFile when conversations are kept in memory.
func (s *Session) AppendCustom(customType string, data json.RawMessage) (string, error) {
	if customType == "" {
		return "", fmt.Errorf("a custom entry needs a customType")
	}
	a, ok := s.currentStore().(interface {
		Append(session.Payload) (session.Entry, error)
	})
	if !ok {
		return "", fmt.Errorf("cannot keep the entry: %w; start cairn without --no-session to keep them", ErrNoSessionFile)
	}
	e, err := a.Append(&session.CustomEntry{CustomType: customType, Data: data})
	if err != nil {
		return "", fmt.Errorf("keep the %s entry: %w", customType, err)
	}
	return e.ID, nil
}
