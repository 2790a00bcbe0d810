package agent

import (
	"context"
	"errors"

	"github.com/cairn-dev/cairn/core"
)

// NewConversationFor starts an empty conversation for an extension (pi's
// ctx.newSession), parent naming the session file it came from. The
// active prompt (the one running the extension's command) is aborted and
// waited for first, within ctx; the BeforeSwitch handlers are asked as
// for /new, and cancelled reports that one of them said no. Front ends
// are told with core.ConversationReplaced.
func (s *Session) NewConversationFor(ctx context.Context, parent string) (cancelled bool, err error) {
	if err := s.AbortAndWait(ctx); err != nil {
		return false, err
	}
	if err := s.NewConversation(parent); err != nil {
		if errors.Is(err, ErrSwitchCancelled) {
			return true, nil
		}
		return false, err
	}
	s.publish(core.ConversationReplaced{Parent: parent})
	return false, nil
}
