package tui

import "github.com/cairn-dev/cairn/core"

// onConversationReplaced shows the conversation an extension moved the
// session to (pi's ctx.newSession), as a /new of the person's own does.
func (m *Model) onConversationReplaced() {
	m.tr.clear()
	clear(m.tools)
	m.current = nil
	m.showConversation(m.sess.Messages())
	m.foot.reset(m.opts, m.sess)
	m.say(core.NotifyInfo, "An extension started a new session.")
}
