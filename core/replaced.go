package core

// ConversationReplaced says the session moved to another conversation that
// its front end did not ask for: an extension started a new one (pi's
// ctx.newSession). Front ends show the conversation the session now holds.
type ConversationReplaced struct {
	// Parent is the session file the new conversation came from, if any.
	Parent string
}

// EventType implements Event.
func (ConversationReplaced) EventType() string { return "conversation_replaced" }
