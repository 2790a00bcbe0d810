package trust

import "slices"

// Change is how one control file differs from when the project was last
// trusted.
type Change struct {
	// Path is the file's Path, as in ControlFile.
	Path string
	// How is "added", "changed" or "removed".
	How string
}

// Changes lists the control files that differ between the trust recorded
// for p and now (now is p.Scan()), sorted by path: added, changed or
// removed since. It is nil when p was never trusted, or trusted before
// cairn recorded each file (nothing to compare with). It reads the trust
// file and changes nothing.
func (s *Store) Changes(p Project, now Scan) ([]Change, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f, err := s.read()
	e, ok := f.Projects[p.Dir]
	if !ok || e.Files == nil {
		return nil, err
	}
	sums := now.sums()
	var out []Change
	for path, sum := range sums {
		before, had := e.Files[path]
		switch {
		case !had:
			out = append(out, Change{path, "added"})
		case before != sum:
			out = append(out, Change{path, "changed"})
		}
	}
	for path := range e.Files {
		if _, has := sums[path]; !has {
			out = append(out, Change{path, "removed"})
		}
	}
	slices.SortFunc(out, func(a, b Change) int {
		if a.Path < b.Path {
			return -1
		}
		if a.Path > b.Path {
			return 1
		}
		return 0
	})
	return out, err
}
