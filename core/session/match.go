package session

import (
	"fmt"
	"strings"
)

// Match finds the session ref names among infos: the one with that id,
// else the one with that name, else the only one whose id starts so. It
// never settles for a near miss: an unknown or ambiguous ref is an error,
// so a host that resumes a conversation by id never gets another one.
func Match(infos []Info, ref string) (Info, error) {
	for _, in := range infos {
		if in.ID == ref {
			return in, nil
		}
	}
	for _, in := range infos {
		if in.Name != "" && in.Name == ref {
			return in, nil
		}
	}
	var found []Info
	for _, in := range infos {
		if ref != "" && strings.HasPrefix(in.ID, ref) {
			found = append(found, in)
		}
	}
	switch len(found) {
	case 0:
		return Info{}, fmt.Errorf("no session with the id, name or id prefix %q", ref)
	case 1:
		return found[0], nil
	}
	return Info{}, fmt.Errorf("%d sessions have ids starting %q; give more of the id", len(found), ref)
}
