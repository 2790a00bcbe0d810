package pi

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/skills"
)

// stateData is pi's RpcSessionState, with oh-my-pi's interruptMode added
// at the end.
type stateData struct {
	Model                 *core.Model `json:"model,omitempty"`
	ThinkingLevel         string      `json:"thinkingLevel"`
	IsStreaming           bool        `json:"isStreaming"`
	IsCompacting          bool        `json:"isCompacting"`
	SteeringMode          string      `json:"steeringMode"`
	FollowUpMode          string      `json:"followUpMode"`
	SessionFile           string      `json:"sessionFile,omitempty"`
	SessionID             string      `json:"sessionId"`
	SessionName           string      `json:"sessionName,omitempty"`
	AutoCompactionEnabled bool        `json:"autoCompactionEnabled"`
	MessageCount          int         `json:"messageCount"`
	PendingMessageCount   int         `json:"pendingMessageCount"`
	InterruptMode         string      `json:"interruptMode"`
	// ApprovalMode is cairn's own: which tool calls need approval
	// (plan, default, auto_edit, auto or yolo), so a front end can always show it.
	ApprovalMode string `json:"approvalMode,omitempty"`
	// BackgroundProcesses is cairn's own: how many of the session's
	// background processes are running (list_processes lists them); left
	// out when none is.
	BackgroundProcesses int `json:"backgroundProcesses,omitempty"`
	// Rewind is cairn's own: whether checkpoints are on, how many prompts
	// a rewind can go back, and whether the last rewind can be undone.
	Rewind *rewindState `json:"rewind,omitempty"`
}

func (s *server) getState(*command) (any, error) {
	st := s.sess.State()
	info := s.sess.Conversation()
	d := stateData{
		ThinkingLevel:         string(st.Thinking),
		IsStreaming:           st.IsStreaming,
		IsCompacting:          st.IsCompacting,
		SteeringMode:          string(st.SteeringMode),
		FollowUpMode:          string(st.FollowUpMode),
		SessionFile:           info.Path,
		SessionID:             info.ID,
		SessionName:           info.Name,
		AutoCompactionEnabled: st.AutoCompaction,
		MessageCount:          s.messageCount(st.MessageCount),
		PendingMessageCount:   st.PendingMessageCount,
		InterruptMode:         string(st.InterruptMode),
	}
	if st.Model.ID != "" {
		shown := st.Model.Shown()
		d.Model = &shown
	}
	if s.host.Approvals != nil {
		d.ApprovalMode = string(s.host.Approvals.Mode())
	}
	d.BackgroundProcesses = s.runningProcesses()
	d.Rewind = s.rewindState()
	return d, nil
}

// statsData is pi's SessionStats.
type statsData struct {
	SessionFile       string       `json:"sessionFile,omitempty"`
	SessionID         string       `json:"sessionId"`
	UserMessages      int          `json:"userMessages"`
	AssistantMessages int          `json:"assistantMessages"`
	ToolCalls         int          `json:"toolCalls"`
	ToolResults       int          `json:"toolResults"`
	TotalMessages     int          `json:"totalMessages"`
	Tokens            tokenTotals  `json:"tokens"`
	Cost              float64      `json:"cost"`
	ContextUsage      contextUsage `json:"contextUsage"`
}

type tokenTotals struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cacheRead"`
	CacheWrite int `json:"cacheWrite"`
	Total      int `json:"total"`
}

// contextUsage is how full the context window is. Tokens and Percent are
// null right after a compaction, until the model has answered again.
type contextUsage struct {
	Tokens        *int     `json:"tokens"`
	ContextWindow int      `json:"contextWindow"`
	Percent       *float64 `json:"percent"`
}

func (s *server) sessionStats(*command) (any, error) {
	st := s.sess.Stats()
	info := s.sess.Conversation()
	u := st.Usage
	usage := s.sess.ContextUsage()
	d := statsData{
		SessionFile:       info.Path,
		SessionID:         info.ID,
		UserMessages:      st.UserMessages,
		AssistantMessages: st.AssistantMessages,
		ToolCalls:         st.ToolCalls,
		ToolResults:       st.ToolResults,
		TotalMessages:     st.TotalMessages,
		Tokens:            tokenTotals{u.Input, u.Output, u.CacheRead, u.CacheWrite, u.TotalTokens},
		Cost:              u.Cost.Total,
		ContextUsage:      contextUsage{ContextWindow: usage.Window},
	}
	if usage.Known {
		tokens, percent := usage.Tokens, usage.Percent()
		d.ContextUsage.Tokens, d.ContextUsage.Percent = &tokens, &percent
	}
	return d, nil
}

// messages answers get_messages: {"messages":[...]}, the array written by
// the writer one message at a time (core.MessagesJSON), so a long
// session's history is never encoded whole in memory. The list is the
// conversation as it stands when the command is read, however late the
// writer gets to it.
func (s *server) messages(c *command) (any, error) {
	msgs := s.sess.Messages()
	if s.host.Compat073 {
		msgs = withoutSystem(msgs)
	}
	list := core.MessagesJSON(msgs)
	if err := list.Check(); err != nil {
		return nil, fmt.Errorf("cannot encode the %s response: %w", c.typ, err)
	}
	return &streamedData{head: []byte(`{"messages":`), body: list, tail: []byte{'}'}}, nil
}

func (s *server) lastAssistantText(*command) (any, error) {
	text, ok := s.sess.LastAssistantText()
	text = strings.TrimSpace(text)
	if !ok || text == "" {
		// pi leaves text undefined, which JSON.stringify drops: {}.
		return rawJSON("{}"), nil
	}
	return struct {
		Text string `json:"text"`
	}{text}, nil
}

// commandEntry is one command of get_commands: pi 0.73's location and
// path, and the same facts as pi 0.87's sourceInfo.
type commandEntry struct {
	SlashCommand
	SourceInfo *sourceInfo `json:"sourceInfo,omitempty"`
}

// sourceInfo says where a command was found, in pi 0.87's words.
type sourceInfo struct {
	Path   string `json:"path"`
	Source string `json:"source"` // how it was found: "local" for a file in a prompts directory
	Scope  string `json:"scope"`  // "user" or "project"
	Origin string `json:"origin"` // "top-level": not from a package
	// BaseDir is a skill's directory, which its SKILL.md's relative paths
	// start from (pi sends it for skills).
	BaseDir string `json:"baseDir,omitempty"`
}

// commands answers get_commands: the host's commands, then the prompt
// templates (source "prompt") and skills (source "skill", named
// "skill:<name>").
func (s *server) commands(*command) (any, error) {
	var list []SlashCommand
	if s.host.Commands != nil {
		list = append(list, s.host.Commands()...)
	}
	for _, t := range s.host.Prompts {
		source := "prompt"
		if skills.IsCommand(t) {
			source = "skill"
		}
		list = append(list, SlashCommand{Name: t.Name, Description: t.Description, Source: source, Location: string(t.Scope), Path: t.Path})
	}
	for _, c := range s.host.MCPPrompts.PromptCommands() {
		list = append(list, SlashCommand{Name: c.Name, Description: c.Description(), Source: "mcp"})
	}
	out := make([]commandEntry, len(list))
	for i, c := range list {
		out[i] = commandEntry{SlashCommand: c}
		if c.Path != "" && (c.Location == "user" || c.Location == "project") {
			out[i].SourceInfo = &sourceInfo{Path: c.Path, Source: "local", Scope: c.Location, Origin: "top-level"}
			if c.Source == "skill" {
				out[i].SourceInfo.BaseDir = filepath.Dir(c.Path)
			}
		}
	}
	return struct {
		Commands []commandEntry `json:"commands"`
	}{out}, nil
}

func (s *server) forkMessages(*command) (any, error) {
	points, err := s.sess.ForkPoints()
	if err != nil {
		return nil, err
	}
	list := make([]ForkMessage, len(points))
	for i, p := range points {
		list[i] = ForkMessage{EntryID: p.EntryID, Text: p.Text}
	}
	return struct {
		Messages []ForkMessage `json:"messages"`
	}{list}, nil
}

func (s *server) setSessionName(c *command) (any, error) {
	name, err := c.str("name")
	if err != nil {
		return nil, err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, errEmptyName
	}
	return nil, s.sess.SetName(name)
}

// messageCount is get_state's count: without the system messages in pi
// 0.73's shapes, which had none.
func (s *server) messageCount(n int) int {
	if s.host.Compat073 {
		n = len(withoutSystem(s.sess.Messages()))
	}
	return n
}
