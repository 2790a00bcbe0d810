package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/regfile"
	"github.com/cairn-dev/cairn/core/shell/sandbox"
	"github.com/cairn-dev/cairn/tui/keymap"
)

// footer is what the two lines under the editor show. Token counts are
// summed as answers arrive, so drawing the footer never walks the
// conversation.
type footer struct {
	cwd, branch, name string
	model             core.Model
	thinking          core.ThinkingLevel
	mode              string
	usage             core.Usage
	context           agent.ContextUsage // read from the session at each answer
	// answeredBy is the model the last answer names, when it differs
	// from the one asked for (a router's choice).
	answeredBy string
	// processes counts the running background commands (processes.go).
	processes int
	// drawn is the last drawing, kept for the next frame (see drawnFooter).
	drawn drawnFooter
	// reading replaces the totals while a preview shows the end of a
	// session whose whole is still being read (see Preview).
	reading bool
	// sandbox says what the OS sandbox lets commands do, "" when commands
	// run unsandboxed.
	sandbox string
}

func newFooter(opts Options) footer {
	var f footer
	f.reset(opts, opts.Session)
	return f
}

// reset reads everything again (after a session switch).
func (f *footer) reset(opts Options, s *agent.Session) {
	f.cwd = opts.Cwd
	f.branch = gitBranch(opts.Cwd)
	f.name = s.Conversation().Name
	f.usage = core.Usage{}
	for _, msg := range s.Messages() {
		f.usage = f.usage.Add(agent.MessageUsage(msg))
	}
	f.context = s.ContextUsage()
	f.mode = ""
	if opts.Approvals != nil {
		f.mode = string(opts.Approvals.Mode())
	}
	f.sandbox = sandboxState(opts.Sandbox)
	f.refresh(s)
}

// sandboxState is the footer's note on the sandbox: where commands may
// write and what network they may use, or "" when there is none.
func sandboxState(p *sandbox.Policy) string {
	if p == nil {
		return ""
	}
	home, _ := os.UserHomeDir()
	return "sandbox: writes " + p.Writable(home) + " · network " + p.Network.String()
}

// refresh reads the model and thinking level.
func (f *footer) refresh(s *agent.Session) {
	st := s.State()
	f.model, f.thinking = st.Model, st.Thinking
}

// addUsage counts one answer's tokens and reads the context's size again
// (one formula for every front end: agent.Session.ContextUsage).
func (f *footer) addUsage(a *core.AssistantMessage, s *agent.Session) {
	f.answeredBy = a.ResponseModel
	f.usage = f.usage.Add(a.Usage)
	f.context = s.ContextUsage()
}

// view draws the footer's lines at width w.
func (m *Model) footerView(w int) string {
	f := &m.foot
	if m.opts.Approvals != nil {
		f.mode = string(m.opts.Approvals.Mode())
	}
	left := shortenHome(f.cwd)
	if f.branch != "" {
		left += " (" + f.branch + ")"
	}
	if f.name != "" {
		left += " • " + f.name
	}
	if f.sandbox != "" {
		left += " • " + f.sandbox
	}
	var stats []string
	stats = append(stats, "↑"+formatCount(f.usage.Input), "↓"+formatCount(f.usage.Output))
	if f.usage.CacheRead > 0 {
		stats = append(stats, "R"+formatCount(f.usage.CacheRead))
	}
	if f.usage.CacheWrite > 0 {
		stats = append(stats, "W"+formatCount(f.usage.CacheWrite))
	}
	stats = append(stats, fmt.Sprintf("$%.3f", f.usage.Cost.Total))
	if cw := f.model.ContextWindow; cw > 0 {
		pct := "?"
		if f.context.Known {
			pct = fmt.Sprintf("%.1f", 100*float64(f.context.Tokens)/float64(cw))
		}
		stats = append(stats, pct+"%/"+formatCount(cw))
	}
	model := f.model.ID
	if f.answeredBy != "" && f.answeredBy != f.model.ID {
		model += " → " + f.answeredBy
	}
	if f.model.Provider != "" {
		model = "(" + f.model.Provider + ") " + model
	}
	if m.firstRun != nil {
		model = "no model set up"
	}
	right := model
	if f.model.Reasoning {
		right += " • " + m.st.thinkingLevel(f.thinking).Render(string(f.thinking))
	}
	// The mode says how to change it, where a person looks for it.
	cycle := " (" + firstKey(m.keys, keymap.CycleApprovalMode) + ")"
	switch f.mode {
	case "":
	case string(approval.ModePlan):
		right += " • " + m.st.warning.Render("⏸ plan mode") + cycle
	default:
		right += " • " + f.mode + cycle
	}
	if f.processes > 0 {
		right += fmt.Sprintf(" • %d bg", f.processes)
	}
	statsText := strings.Join(stats, " ")
	if f.reading {
		statsText = "reading the session…"
	}
	key := footerKey{st: m.st, w: w, left: left, stats: statsText, right: right}
	if f.drawn.key == key {
		return f.drawn.text
	}
	line1 := m.st.muted.Render(ansi.Truncate(left, w, "…"))
	gap := w - ansi.StringWidth(statsText) - ansi.StringWidth(right)
	var line2 string
	if gap >= 2 {
		line2 = m.st.muted.Render(statsText) + strings.Repeat(" ", gap) + m.st.muted.Render(right)
	} else {
		line2 = m.st.muted.Render(ansi.Truncate(statsText+"  "+right, w, "…"))
	}
	f.drawn = drawnFooter{key: key, text: line1 + "\n" + line2}
	return f.drawn.text
}

// drawnFooter is the footer's last drawing and the text it was drawn from:
// the footer rarely changes while an answer streams, and styling its two
// screen-wide lines on every frame was a fifth of a frame's drawing.
type drawnFooter struct {
	key  footerKey
	text string
}

// footerKey is what the footer's drawing depends on.
type footerKey struct {
	st                 *styles
	w                  int
	left, stats, right string
}

// formatCount writes a count briefly: 950, 12.3k, 1.2M.
func formatCount(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 10000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1000000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// shortenHome writes the home directory as ~.
func shortenHome(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		if p == home {
			return "~"
		}
		if rel, ok := strings.CutPrefix(p, home+string(filepath.Separator)); ok {
			return "~/" + rel
		}
	}
	return p
}

// maxGitPointer bounds the .git file of a worktree and HEAD, each a line.
const maxGitPointer = 64 << 10

// gitBranch reads the current branch from .git/HEAD in dir or a parent;
// "" when there is none. A detached HEAD shows as a short hash. It reads
// the files rather than run git, which would obey the repository's own
// configuration (core.fsmonitor runs a command), and only regular files
// (see regfile), so a planted named pipe cannot hang the interface.
func gitBranch(dir string) string {
	for d := dir; d != ""; {
		head := filepath.Join(d, ".git", "HEAD")
		if fi, err := os.Stat(filepath.Join(d, ".git")); err == nil && !fi.IsDir() {
			// A worktree or submodule: .git is a file naming the real dir.
			if b, err := regfile.Read(filepath.Join(d, ".git"), maxGitPointer); err == nil {
				if gd, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
					if !filepath.IsAbs(gd) {
						gd = filepath.Join(d, gd)
					}
					head = filepath.Join(gd, "HEAD")
				}
			}
		}
		if b, err := regfile.Read(head, maxGitPointer); err == nil {
			s := strings.TrimSpace(string(b))
			if ref, ok := strings.CutPrefix(s, "ref: refs/heads/"); ok {
				return ref
			}
			if len(s) >= 7 {
				return s[:7]
			}
			return s
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return ""
}

// status is the line above the footer: the latest notice, which fades
// after a while, and keyed texts that stay until cleared.
type status struct {
	text  string
	level core.NotifyLevel
	at    time.Time
	keyed map[string]string
}

// statusLife is how long a notice stays.
const statusLife = 8 * time.Second

func (s *status) set(level core.NotifyLevel, text string, now time.Time) {
	s.text, s.level, s.at = text, level, now
}

// clearNote takes the latest notice off the line; keyed texts stay.
func (s *status) clearNote() { s.text = "" }

func (s *status) setKeyed(key, text string) {
	if s.keyed == nil {
		s.keyed = map[string]string{}
	}
	if text == "" {
		delete(s.keyed, key)
		return
	}
	s.keyed[key] = text
}

// line returns the status text and its level; "" when there is none.
func (s *status) line(now time.Time) (string, core.NotifyLevel) {
	if len(s.keyed) > 0 {
		keys := make([]string, 0, len(s.keyed))
		for k := range s.keyed {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = s.keyed[k]
		}
		text := strings.Join(parts, " · ")
		if s.text != "" && now.Sub(s.at) < statusLife {
			text = s.text + " · " + text
		}
		return text, core.NotifyInfo
	}
	if s.text != "" && now.Sub(s.at) < statusLife {
		return s.text, s.level
	}
	return "", ""
}
