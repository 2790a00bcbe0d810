package session

import "fmt"

// Persist writes a session that is not on disk yet (its header and any
// entries) now, instead of at its first answer. A front end whose host
// resumes sessions by id (ACP's session/resume) needs a session created
// but never prompted to be there. A session kept in memory, read-only or
// already on disk is left as it is.
func (f *File) Persist() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.memory || f.readOnly || f.persisted {
		return nil
	}
	if err := f.flush(); err != nil {
		return fmt.Errorf("write session %s: %w", f.path, err)
	}
	return nil
}
