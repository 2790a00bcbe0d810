package compaction

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// Preparation is one planned compaction: what to summarise, what to keep,
// and what to record about it. Prepare makes it; SummaryRequest,
// TurnPrefixRequest and Compact read it.
type Preparation struct {
	// FirstKept is the index, in the messages given to Prepare, of the first
	// message kept verbatim. The agent records the session entry it came
	// from as the compaction's firstKeptEntryId.
	FirstKept int
	// Summarize is the history to summarise: everything before the cut (or,
	// for a split turn, before the turn's start), without the leading
	// compaction summary.
	Summarize []core.Message
	// TurnPrefix is the beginning of the turn the cut divides, summarised on
	// its own; empty unless the cut splits a turn.
	TurnPrefix []core.Message
	// Kept are the messages kept verbatim, from FirstKept on.
	//
	// Summarize, TurnPrefix and Kept share the slice given to Prepare; do
	// not modify their messages.
	Kept []core.Message
	// PreviousSummary is the summary of an earlier compaction, which the new
	// summary updates, without its file lists; empty for a first compaction.
	PreviousSummary string
	// TokensBefore is the size of the conversation before compaction.
	TokensBefore int
	// ReadFiles lists the files the summarised part read but did not change,
	// and ModifiedFiles those it wrote or edited, both sorted, including the
	// lists carried by the previous summary.
	ReadFiles     []string
	ModifiedFiles []string
	// Settings are the settings the compaction runs with.
	Settings Settings
}

// IsSplitTurn reports whether the compaction divides a turn.
func (p *Preparation) IsSplitTurn() bool { return len(p.TurnPrefix) > 0 }

// Prepare plans the compaction of a conversation (the agent's context, in
// its agent roles). A compaction summary leading the conversation is not
// summarised again: its text is the previous summary, unless previousSummary
// is given. Prepare returns false when there is nothing to compact: the
// conversation is empty, already compacted, or small enough to keep whole.
func Prepare(messages []core.Message, previousSummary string, s Settings) (*Preparation, bool) {
	start := 0
	if len(messages) > 0 {
		if cs, ok := messages[0].(*core.CompactionSummaryMessage); ok {
			start = 1
			if previousSummary == "" {
				previousSummary = cs.Summary
			}
		}
	}
	rest := messages[start:]
	if len(rest) == 0 {
		return nil, false
	}
	cut := FindCutPoint(rest, s.KeepRecentTokens)
	if cut.FirstKept == 0 {
		return nil, false
	}
	historyEnd := cut.FirstKept
	if cut.IsSplitTurn() {
		historyEnd = cut.SplitTurnStart
	}
	p := &Preparation{
		FirstKept:    start + cut.FirstKept,
		Summarize:    rest[:historyEnd:historyEnd],
		Kept:         rest[cut.FirstKept:],
		TokensBefore: ContextTokens(messages),
		Settings:     s,
	}
	if cut.IsSplitTurn() {
		p.TurnPrefix = rest[cut.SplitTurnStart:cut.FirstKept:cut.FirstKept]
	}
	files := newFileOps()
	p.PreviousSummary = files.takeFrom(previousSummary)
	files.addCalls(p.Summarize)
	files.addCalls(p.TurnPrefix)
	p.ReadFiles, p.ModifiedFiles = files.lists()
	return p, true
}

// fileOps collects the paths the summarised messages touched.
type fileOps struct {
	read, modified map[string]bool
}

func newFileOps() *fileOps {
	return &fileOps{read: map[string]bool{}, modified: map[string]bool{}}
}

// addCalls records the paths of read, write and edit tool calls.
func (f *fileOps) addCalls(messages []core.Message) {
	for _, m := range messages {
		a, ok := m.(*core.AssistantMessage)
		if !ok {
			continue
		}
		for _, c := range a.Content {
			if c.Type != core.ContentToolCall {
				continue
			}
			var args struct {
				Path string `json:"path"`
			}
			if json.Unmarshal(c.Arguments, &args) != nil || args.Path == "" {
				continue
			}
			switch c.Name {
			case "read":
				f.read[args.Path] = true
			case "write", "edit":
				f.modified[args.Path] = true
			}
		}
	}
}

// The tags that hold a summary's file lists, as pi writes them.
const (
	readFilesTag     = "read-files"
	modifiedFilesTag = "modified-files"
)

// takeFrom records the file lists of an earlier summary and returns the
// summary without them.
func (f *fileOps) takeFrom(summary string) string {
	summary, read := cutTagged(summary, readFilesTag)
	summary, modified := cutTagged(summary, modifiedFilesTag)
	for _, path := range read {
		f.read[path] = true
	}
	for _, path := range modified {
		f.modified[path] = true
	}
	return strings.TrimRight(summary, "\n")
}

// cutTagged removes the last <tag>…</tag> block from s and returns its
// non-empty lines.
func cutTagged(s, tag string) (string, []string) {
	open, closing := "<"+tag+">", "</"+tag+">"
	i := strings.LastIndex(s, open)
	if i < 0 {
		return s, nil
	}
	j := strings.Index(s[i:], closing)
	if j < 0 {
		return s, nil
	}
	body := s[i+len(open) : i+j]
	var lines []string
	for _, line := range strings.Split(body, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return strings.TrimRight(s[:i], "\n") + s[i+j+len(closing):], lines
}

// lists returns the files only read and the files modified, each sorted.
func (f *fileOps) lists() (read, modified []string) {
	for path := range f.modified {
		modified = append(modified, path)
	}
	for path := range f.read {
		if !f.modified[path] {
			read = append(read, path)
		}
	}
	slices.Sort(read)
	slices.Sort(modified)
	return read, modified
}

// FinishSummary appends the preparation's file lists to a summary the model
// wrote, in pi's format: a <read-files> block and a <modified-files> block,
// one path a line, each present only when it lists something. A later
// compaction reads them back.
func FinishSummary(summary string, p *Preparation) string {
	var b strings.Builder
	b.WriteString(summary)
	writeList := func(tag string, paths []string) {
		if len(paths) == 0 {
			return
		}
		b.WriteString("\n\n<" + tag + ">\n")
		for _, path := range paths {
			b.WriteString(path)
			b.WriteByte('\n')
		}
		b.WriteString("</" + tag + ">")
	}
	writeList(readFilesTag, p.ReadFiles)
	writeList(modifiedFilesTag, p.ModifiedFiles)
	return b.String()
}
