package tui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/tools"
)

// rewindWindow is how soon a second esc on an empty editor must follow the
// first to open /rewind (as in Claude Code).
const rewindWindow = 800 * time.Millisecond

// rewindLimit bounds a rewind's scan and restore started from the TUI.
const rewindLimit = 5 * time.Minute

// rewindRedo is the first picker's value for undoing the last rewind.
const rewindRedo = "redo"

// The choices of the second picker.
const (
	rewindBoth  = "both"
	rewindCode  = "code"
	rewindConv  = "conversation"
	rewindDiffs = "diffs"
)

// onEmptyEsc arms esc on an empty, idle editor; a second esc soon after
// opens /rewind.
func (m *Model) onEmptyEsc() tea.Cmd {
	if !m.escArmed.IsZero() && m.now().Sub(m.escArmed) < rewindWindow {
		m.escArmed = time.Time{}
		return m.cmdRewind("")
	}
	m.escArmed = m.now()
	m.status.set(core.NotifyInfo, "Press esc again to rewind.", m.now())
	return nil
}

// cmdRewind is /rewind: pick a prompt of this branch to go back to (or
// undo the last rewind).
func (m *Model) cmdRewind(string) tea.Cmd {
	if m.busy {
		m.status.set(core.NotifyWarning, "Wait for the agent to finish (or press esc) first.", m.now())
		return nil
	}
	pts, err := m.sess.RewindPoints()
	if err != nil {
		m.say(core.NotifyError, "Cannot rewind: "+err.Error())
		return nil
	}
	var items []pickItem
	if m.sess.RewindStatus().CanRedo {
		items = append(items, pickItem{label: "↺ undo the last rewind", value: rewindRedo})
	}
	for i, p := range pts {
		detail := ""
		if p.Checkpoint == "" {
			detail = "conversation only"
		}
		items = append(items, pickItem{label: oneLine(m.typed.promptLabel(p.Text), 200), detail: detail, value: strconv.Itoa(len(pts) - i), payload: p})
	}
	p := newPicker("Rewind to before which prompt?", items, pickRewind, nil)
	p.empty = "There are no prompts to rewind to yet."
	if len(p.shown) > 0 {
		p.selected = len(p.shown) - 1
	}
	m.openPicker(p)
	return nil
}

// rewindChoice is what the second picker carries: the prompt and what a
// rewind to it would change.
type rewindChoice struct {
	steps int
	point agent.RewindPoint
	plan  *checkpoint.Plan
}

// onRewindPicked acts on either rewind picker.
func (m *Model) onRewindPicked(p pickedMsg) tea.Cmd {
	if p.kind == pickRewind {
		if p.value == rewindRedo {
			return m.runRewind(agent.RewindRequest{Redo: true, Restore: agent.RestoreBoth}, "")
		}
		steps, _ := strconv.Atoi(p.value)
		point, _ := p.payload.(agent.RewindPoint)
		return m.previewRewind(steps, point)
	}
	c, _ := p.payload.(rewindChoice)
	switch p.value {
	case rewindDiffs:
		return m.showRewindDiffs(c)
	case rewindConv:
		return m.runRewind(agent.RewindRequest{Steps: c.steps, Restore: agent.RestoreConversation}, c.point.Text)
	case rewindCode:
		return m.runRewind(agent.RewindRequest{Steps: c.steps, Restore: agent.RestoreCode}, "")
	default:
		return m.runRewind(agent.RewindRequest{Steps: c.steps, Restore: agent.RestoreBoth}, c.point.Text)
	}
}

// previewRewind scans the project off the UI loop, then shows what would
// change and asks what to restore.
func (m *Model) previewRewind(steps int, point agent.RewindPoint) tea.Cmd {
	if point.Checkpoint == "" {
		// Nothing to compare: only the conversation can go back.
		return m.openRewindChoice(rewindChoice{steps: steps, point: point})
	}
	sess := m.sess
	m.status.setKeyed("command", "Comparing the files with the checkpoint…")
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), rewindLimit)
		defer cancel()
		_, plan, err := sess.PreviewRewind(ctx, steps)
		if err != nil {
			return commandDoneMsg{err: fmt.Errorf("cannot rewind: %w", err)}
		}
		return commandDoneMsg{after: func(m *Model) tea.Cmd {
			return m.openRewindChoice(rewindChoice{steps: steps, point: point, plan: plan})
		}}
	}
}

// openRewindChoice shows the file summary and asks what to restore.
func (m *Model) openRewindChoice(c rewindChoice) tea.Cmd {
	items := []pickItem{}
	if c.plan != nil {
		m.say(core.NotifyInfo, rewindSummary(c))
		items = append(items,
			pickItem{label: "Restore code and conversation", value: rewindBoth, payload: c},
			pickItem{label: "Restore code only", value: rewindCode, payload: c},
			pickItem{label: "Restore conversation only", value: rewindConv, payload: c})
		if len(c.plan.Changes) > 0 {
			items = append(items, pickItem{label: "Show the diffs", value: rewindDiffs, payload: c})
		}
	} else {
		m.say(core.NotifyInfo, "No checkpoint of the files was taken before this prompt: only the conversation can go back.")
		items = append(items, pickItem{label: "Restore conversation only", value: rewindConv, payload: c})
	}
	m.openPicker(newPicker("Rewind to before “"+oneLine(m.typed.promptLabel(c.point.Text), 60)+"”", items, pickRewindHow, nil))
	return nil
}

// rewindSummary says which files a rewind changes, what it cannot
// restore, and what changed outside cairn since its last checkpoint.
func rewindSummary(c rewindChoice) string {
	var b strings.Builder
	plan := c.plan
	if len(plan.Changes) == 0 {
		b.WriteString("The files are as they were before this prompt: a rewind changes no file.")
	} else {
		fmt.Fprintf(&b, "Rewinding the code changes %d path(s):", len(plan.Changes))
		for i, ch := range plan.Changes {
			if i == 30 {
				fmt.Fprintf(&b, "\n  … and %d more", len(plan.Changes)-30)
				break
			}
			fmt.Fprintf(&b, "\n  %-6s %s", actionWord(ch.Action), ch.Path)
		}
	}
	if len(plan.Unrestorable) > 0 {
		fmt.Fprintf(&b, "\nCannot be restored (%d):", len(plan.Unrestorable))
		for _, u := range plan.Unrestorable {
			fmt.Fprintf(&b, "\n  %s: %s", u.Path, u.Reason)
		}
	}
	if len(plan.Outside) > 0 {
		fmt.Fprintf(&b, "\nWarning: %d path(s) changed outside cairn since its last checkpoint; the rewind replaces them (undo the rewind to get them back):", len(plan.Outside))
		for i, ch := range plan.Outside {
			if i == 10 {
				fmt.Fprintf(&b, "\n  … and %d more", len(plan.Outside)-10)
				break
			}
			b.WriteString("\n  " + ch.Path)
		}
	}
	return b.String()
}

func actionWord(a checkpoint.Action) string {
	switch a {
	case checkpoint.ActionCreate:
		return "add"
	case checkpoint.ActionDelete:
		return "remove"
	}
	return "change"
}

// showRewindDiffs shows, for each file that changes, the diff from now to
// the checkpoint, then asks again.
func (m *Model) showRewindDiffs(c rewindChoice) tea.Cmd {
	store := m.sess.Checkpoints()
	root := ""
	if store != nil {
		root = store.Project()
	}
	return func() tea.Msg {
		var b strings.Builder
		for _, ch := range c.plan.Changes {
			if (ch.From == nil || ch.From.Kind != checkpoint.KindFile) && (ch.To == nil || ch.To.Kind != checkpoint.KindFile) {
				continue
			}
			var before, after []byte
			if ch.From != nil && ch.From.Kind == checkpoint.KindFile {
				before, _ = os.ReadFile(filepath.Join(root, filepath.FromSlash(ch.Path)))
			}
			if ch.To != nil && ch.To.Kind == checkpoint.KindFile && store != nil {
				after, _ = store.FileAt(c.point.Checkpoint, ch.Path)
			}
			if !utf8.Valid(before) || !utf8.Valid(after) {
				fmt.Fprintf(&b, "%s: binary file\n", ch.Path)
				continue
			}
			b.WriteString(tools.UnifiedDiff(ch.Path, string(before), string(after)))
		}
		text := strings.TrimRight(b.String(), "\n")
		if text == "" {
			text = "No file contents change (only links, modes or directories)."
		}
		return commandDoneMsg{text: text, after: func(m *Model) tea.Cmd { return m.openRewindChoice(c) }}
	}
}

// runRewind rewinds off the UI loop, then shows the conversation as it
// now is, with the prompt's text in the editor when the conversation went
// back.
func (m *Model) runRewind(req agent.RewindRequest, text string) tea.Cmd {
	sess := m.sess
	m.status.setKeyed("command", "Rewinding…")
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), rewindLimit)
		defer cancel()
		res, err := sess.Rewind(ctx, req)
		return commandDoneMsg{after: func(m *Model) tea.Cmd {
			m.afterRewind(req, res, err, text)
			return nil
		}}
	}
}

func (m *Model) afterRewind(req agent.RewindRequest, res *agent.RewindResult, err error, text string) {
	if res != nil && res.Conversation {
		m.tr.clear()
		clear(m.tools)
		m.current = nil
		m.showConversation(m.sess.Messages())
		m.foot.reset(m.opts, m.sess)
		if text != "" && m.ed.Empty() {
			// The prompt goes back as it was typed (/skill:name args),
			// so sending it again runs the command again.
			m.ed.SetValue(m.typed.promptLabel(text))
		}
	}
	if res == nil {
		m.say(core.NotifyError, "Rewind failed: "+err.Error())
		return
	}
	var b strings.Builder
	switch {
	case req.Redo:
		b.WriteString("Undid the last rewind.")
	case res.Code != nil && res.Conversation:
		b.WriteString("Rewound code and conversation; edit the prompt and send it to start a new branch.")
	case res.Code != nil:
		b.WriteString("Rewound the code; the conversation is unchanged.")
	default:
		b.WriteString("Rewound the conversation; the files are unchanged.")
	}
	if r := res.Code; r != nil {
		fmt.Fprintf(&b, " %d path(s) restored.", len(r.Restored))
		for _, u := range r.NotRestored {
			fmt.Fprintf(&b, "\n  not restored: %s: %s", u.Path, u.Reason)
		}
		b.WriteString(" esc esc, then “undo the last rewind”, takes it back.")
	}
	if err != nil {
		m.say(core.NotifyWarning, b.String()+"\n"+err.Error())
		return
	}
	m.say(core.NotifyInfo, b.String())
}
