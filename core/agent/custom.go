package agent

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/session"
)

// AppendCustom keeps an extension's state in the conversation as a custom
// entry (pi's appendEntry): it joins the branch's tip, is written to the
// session file (kept in memory with the conversation when there is none)
// and never reaches the model. It returns the entry's id.
func (s *Session) AppendCustom(customType string, data json.RawMessage) (string, error) {
	if customType == "" {
		return "", errors.New("a custom entry needs a customType")
	}
	a, ok := s.currentStore().(interface {
		Append(session.Payload) (session.Entry, error)
	})
	if !ok {
		return "", errors.New("cannot keep the entry: this conversation keeps no entries")
	}
	e, err := a.Append(&session.CustomEntry{CustomType: customType, Data: data})
	if err != nil {
		return "", fmt.Errorf("keep the %s entry: %w", customType, err)
	}
	return e.ID, nil
}
