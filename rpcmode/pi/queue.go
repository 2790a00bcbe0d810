package pi

// clearQueue answers clear_queue: the queued steering and follow-up
// messages are removed and their texts returned, so a host can put them
// back in its editor (pi's Esc sends clear_queue, then abort).
func (s *server) clearQueue(*command) (any, error) {
	steering, followUp := s.sess.TakeQueued()
	return struct {
		Steering []string `json:"steering"`
		FollowUp []string `json:"followUp"`
	}{steering, followUp}, nil
}
