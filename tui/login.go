package tui

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/oauth"
)

// loginNoticeMsg is a running login's notice (the URL to open, the code
// to enter); next waits for the login's following message.
type loginNoticeMsg struct {
	text string
	next tea.Cmd
}

// cmdLogin runs /login PROVIDER [--device]: pi's logins, run in the
// background so the interface stays live; the browser's callback or the
// device code completes them (a redirect URL cannot be pasted here: `cairn
// login` takes one).
func (m *Model) cmdLogin(args string) tea.Cmd {
	if m.opts.Login == nil {
		m.say(core.NotifyError, "/login is not available here: run `cairn login PROVIDER` in a terminal.")
		return nil
	}
	fields := strings.Fields(args)
	device := slices.Contains(fields, "--device")
	fields = slices.DeleteFunc(fields, func(f string) bool { return f == "--device" })
	if len(fields) != 1 {
		m.say(core.NotifyInfo, loginHelp())
		return nil
	}
	provider := fields[0]
	methods, ok := oauth.LoginMethods[provider]
	switch {
	case !ok:
		m.say(core.NotifyError, fmt.Sprintf("cairn has no login for %q.\n%s", provider, loginHelp()))
		return nil
	case device && !slices.Contains(methods, oauth.MethodDevice):
		m.say(core.NotifyError, fmt.Sprintf("The %s login has no device code: use /login %s.", provider, provider))
		return nil
	}
	m.say(core.NotifyInfo, "Logging in to "+oauth.LoginName[provider]+"…")
	msgs := make(chan tea.Msg, 8)
	login := m.opts.Login
	go func() {
		defer close(msgs)
		text, err := login(context.Background(), provider, device, func(text string) {
			select {
			case msgs <- loginNoticeMsg{text: text}:
			default: // a login shows a few notices; none is worth blocking it
			}
		})
		msgs <- commandDoneMsg{text: text, err: err}
	}()
	return nextLoginMsg(msgs)
}

// nextLoginMsg waits for a running login's next message.
func nextLoginMsg(msgs <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-msgs
		if !ok {
			return nil
		}
		if n, ok := msg.(loginNoticeMsg); ok {
			n.next = nextLoginMsg(msgs)
			return n
		}
		return msg
	}
}

func (m *Model) onLoginNotice(msg loginNoticeMsg) tea.Cmd {
	m.say(core.NotifyInfo, msg.text)
	return msg.next
}

// loginHelp lists the logins /login offers.
func loginHelp() string {
	names := make([]string, 0, len(oauth.LoginMethods))
	for name := range oauth.LoginMethods {
		names = append(names, name)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Usage: /login PROVIDER [--device]. Logins:")
	for _, name := range names {
		fmt.Fprintf(&b, "\n  %s  %s (%s)", name, oauth.LoginName[name], strings.Join(oauth.LoginMethods[name], ", "))
	}
	return b.String()
}
