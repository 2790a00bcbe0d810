package pi

// ForkMessage is a user message a session can be forked at, as
// get_fork_messages lists it.
type ForkMessage struct {
	EntryID string `json:"entryId"`
	Text    string `json:"text"`
}
