package agent

// persister is implemented by the Conversations whose storage writes a
// new conversation lazily (FileConversations): Persist writes it now.
type persister interface {
	Persist() error
}

// Persist implements persister: the session file is written now.
func (c *FileConversations) Persist() error { return c.file.Persist() }

// PersistConversation writes the current conversation to its storage now
// when the storage would wait for the first answer, so it can be resumed
// by id before anything was said in it. Conversations kept in memory
// need nothing.
func (s *Session) PersistConversation() error {
	s.convMu.Lock()
	defer s.convMu.Unlock()
	if p, ok := s.convs.(persister); ok {
		return p.Persist()
	}
	return nil
}
