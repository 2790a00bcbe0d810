package pi

import (
	"bytes"
	"encoding/json"

	"github.com/cairn-dev/cairn/core"
)

// updateDetails are a tool update's details on the wire: the tool's own,
// and for a task call's subagent also the child's event that caused the
// update, in pi's own event shape, as "event".
func updateDetails(u core.ToolUpdate, w wire) json.RawMessage {
	p := u.Subagent
	if p == nil || p.Event == nil || !bytes.HasSuffix(bytes.TrimSpace(u.Details), []byte("}")) {
		return u.Details
	}
	ev, ok, err := appendEvent(nil, p.Event, w)
	if !ok || err != nil {
		return u.Details
	}
	d := bytes.TrimSpace(u.Details)
	out := append([]byte(nil), d[:len(d)-1]...)
	if len(bytes.TrimSpace(out)) > 1 {
		out = append(out, ',')
	}
	out = append(out, `"event":`...)
	out = append(out, ev...)
	return append(out, '}')
}
