package extension

// Version 2's session calls of pi's ExtensionAPI beyond entries:
// set_label (pi.setLabel), get_commands (pi.getCommands), send_message
// (pi.sendMessage), new_session (ctx.newSession), get_session (the session
// manager's id, file and name), and session_before_compact with pi's
// preparation.

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/jsonrpc2"
)

// Methods an extension calls on cairn about the session (version 2).
const (
	// MethodSetLabel bookmarks an entry of the session, or clears its
	// bookmark (pi's setLabel).
	MethodSetLabel = "set_label"
	// MethodGetCommands lists the session's slash commands (pi's
	// getCommands): the extensions', the prompt templates and the skills.
	MethodGetCommands = "get_commands"
	// MethodSendMessage adds the extension's own message to the
	// conversation (pi's sendMessage): a custom_message entry the model
	// reads.
	MethodSendMessage = "send_message"
	// MethodNewSession starts a new conversation (pi's ctx.newSession);
	// the active prompt, the one running the extension's command, is
	// aborted first.
	MethodNewSession = "new_session"
	// MethodGetSession names the session (pi's sessionManager
	// getSessionId, getSessionFile, getSessionDir, getSessionName).
	MethodGetSession = "get_session"
)

// GetSessionResult is the session's id, file (the path it is or will be
// written to; absent when kept in memory), directory and name.
type GetSessionResult struct {
	ID   string `json:"id"`
	File string `json:"file,omitempty"`
	Dir  string `json:"dir,omitempty"`
	Name string `json:"name,omitempty"`
}

// ConversationNamer is a Host that says which conversation it holds
// (get_session); *agent.Session is one.
type ConversationNamer interface {
	Conversation() agent.ConversationInfo
}

// NewSessionParams is pi's ctx.newSession options that reach cairn.
type NewSessionParams struct {
	ParentSession string `json:"parentSession,omitempty"`
}

// NewSessionResult says whether a session_before_switch handler
// cancelled the new session.
type NewSessionResult struct {
	Cancelled bool `json:"cancelled"`
}

// SessionReplacer is a Host that starts a new conversation for an
// extension (new_session); *agent.Session is one.
type SessionReplacer interface {
	NewConversationFor(ctx context.Context, parent string) (cancelled bool, err error)
}

// newSessionTimeout bounds new_session: the abort of the active prompt,
// the before-switch handlers, and the switch.
const newSessionTimeout = 2 * time.Minute

// SendMessageParams is pi's sendMessage: the message (customType,
// content, display, details) and its options (triggerTurn, deliverAs
// "steer", "followUp" or "nextTurn").
type SendMessageParams struct {
	CustomType  string          `json:"customType"`
	Content     []core.Content  `json:"content"`
	Display     bool            `json:"display,omitempty"`
	Details     json.RawMessage `json:"details,omitempty"`
	TriggerTurn *bool           `json:"triggerTurn,omitempty"`
	DeliverAs   string          `json:"deliverAs,omitempty"`
}

// CustomSender is a Host that takes an extension's messages into the
// conversation (send_message); *agent.Session is one.
type CustomSender interface {
	SendCustom(m *core.CustomMessage, triggerTurn *bool, deliverAs string) error
}

// SetLabelParams labels the entry TargetID; an empty Label clears it.
type SetLabelParams struct {
	TargetID string `json:"targetId"`
	Label    string `json:"label,omitempty"`
}

// Labeler is a Host that bookmarks the session's entries (set_label);
// *agent.Session is one.
type Labeler interface {
	SetLabel(targetID, label string) error
}

// SlashCommand is one command of get_commands, in pi's SlashCommandInfo
// shape: Source is "extension", "prompt" or "skill" (a skill is named
// "skill:<name>").
type SlashCommand struct {
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Source      string      `json:"source"`
	SourceInfo  *SourceInfo `json:"sourceInfo,omitempty"`
}

// SourceInfo says where a command was found, as pi's sourceInfo does.
type SourceInfo struct {
	Path string `json:"path"`
	// Source is how it was found ("local": a file of a prompts or skills
	// directory); Scope is "user" or "project".
	Source string `json:"source,omitempty"`
	Scope  string `json:"scope,omitempty"`
	// BaseDir is a skill's directory.
	BaseDir string `json:"baseDir,omitempty"`
}

// GetCommandsResult answers get_commands.
type GetCommandsResult struct {
	Commands []SlashCommand `json:"commands"`
}

// CommandLister is a Host that lists the session's slash commands for
// get_commands, as pi's getCommands does: the extensions' first, then the
// prompt templates, then the skills.
type CommandLister interface {
	SlashCommands() []SlashCommand
}

// session serves set_label and get_commands.
func (e *extension) session(m jsonrpc2.Message) (any, *jsonrpc2.Error) {
	if err := e.needV2(m.Method); err != nil {
		return nil, err
	}
	h := e.m.host(context.Background())
	if h == nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "the session has ended")
	}
	if m.Method == MethodGetSession {
		if err := decodeParams(m.Params, &struct{}{}); err != nil {
			return nil, err
		}
		c, ok := h.(ConversationNamer)
		if !ok {
			return nil, jsonrpc2.Errorf(CodeRefused, "this session has no name or file")
		}
		info := c.Conversation()
		out := GetSessionResult{ID: info.ID, File: info.Path, Name: info.Name}
		if info.Path != "" {
			out.Dir = filepath.Dir(info.Path)
		}
		return out, nil
	}
	if m.Method == MethodNewSession {
		var p NewSessionParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		r, ok := h.(SessionReplacer)
		if !ok {
			return nil, jsonrpc2.Errorf(CodeRefused, "this front end cannot start a new session for an extension")
		}
		ctx, cancel := context.WithTimeout(context.Background(), newSessionTimeout)
		defer cancel()
		cancelled, err := r.NewConversationFor(ctx, p.ParentSession)
		if err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return NewSessionResult{Cancelled: cancelled}, nil
	}
	if m.Method == MethodSendMessage {
		var p SendMessageParams
		if err := decodeParams(m.Params, &p); err != nil {
			return nil, err
		}
		if p.CustomType == "" {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "send_message needs a customType")
		}
		if checkContent(p.Content) != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "a message holds text and image blocks only")
		}
		cs, ok := h.(CustomSender)
		if !ok {
			return nil, jsonrpc2.Errorf(CodeRefused, "this session takes no extension messages")
		}
		msg := &core.CustomMessage{CustomType: p.CustomType, Content: p.Content, Display: p.Display, Details: p.Details}
		if msg.Content == nil {
			msg.Content = []core.Content{}
		}
		if err := cs.SendCustom(msg, p.TriggerTurn, p.DeliverAs); err != nil {
			return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
		}
		return nil, nil
	}
	if m.Method == MethodGetCommands {
		if err := decodeParams(m.Params, &struct{}{}); err != nil {
			return nil, err
		}
		out := GetCommandsResult{Commands: []SlashCommand{}}
		if l, ok := h.(CommandLister); ok {
			out.Commands = append(out.Commands, l.SlashCommands()...)
		} else {
			// A host that lists nothing else still has the extensions'.
			for _, c := range e.m.Commands() {
				out.Commands = append(out.Commands, SlashCommand{Name: c.Name, Description: c.Description, Source: "extension"})
			}
		}
		return out, nil
	}
	var p SetLabelParams
	if err := decodeParams(m.Params, &p); err != nil {
		return nil, err
	}
	if p.TargetID == "" {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "set_label needs the targetId of an entry")
	}
	l, ok := h.(Labeler)
	if !ok {
		return nil, jsonrpc2.Errorf(CodeRefused, "this session keeps no entries to label")
	}
	if err := l.SetLabel(p.TargetID, p.Label); err != nil {
		return nil, jsonrpc2.Errorf(CodeRefused, "%v", err)
	}
	return nil, nil
}

// beforeCompact asks the extension about a prepared compaction (pi's
// session_before_compact, with pi's preparation): {"cancel": true} stops
// it, {"compaction": {...}} is the compaction cairn keeps in place of the
// summary the model would write.
func (e *extension) beforeCompact(ctx context.Context, ev agent.CompactEvent) (agent.CompactResult, error) {
	var r struct {
		Cancel     bool   `json:"cancel"`
		Reason     string `json:"reason"`
		Compaction *struct {
			Summary          string          `json:"summary"`
			FirstKeptEntryID string          `json:"firstKeptEntryId"`
			TokensBefore     int             `json:"tokensBefore"`
			Details          json.RawMessage `json:"details"`
			Usage            json.RawMessage `json:"usage"`
		} `json:"compaction"`
	}
	p := map[string]any{"reason": string(ev.Reason), "customInstructions": ev.Instructions}
	if prep := ev.Preparation; prep != nil {
		p["preparation"] = map[string]any{
			"firstKeptEntryId":    ev.FirstKeptEntryID,
			"messagesToSummarize": nonNil(prep.Summarize),
			"turnPrefixMessages":  nonNil(prep.TurnPrefix),
			"isSplitTurn":         len(prep.TurnPrefix) > 0,
			"tokensBefore":        prep.TokensBefore,
			"previousSummary":     prep.PreviousSummary,
			// pi's sets of paths, as lists; cairn does not tell written
			// files from edited ones.
			"fileOps":  map[string]any{"read": nonNil(prep.ReadFiles), "written": []string{}, "edited": nonNil(prep.ModifiedFiles)},
			"settings": map[string]any{"enabled": prep.Settings.Enabled, "reserveTokens": prep.Settings.ReserveTokens, "keepRecentTokens": prep.Settings.KeepRecentTokens},
		}
	}
	if err := e.call(ctx, "session_before_compact", p, &r); err != nil {
		return agent.CompactResult{}, err
	}
	out := agent.CompactResult{Cancel: r.Cancel, Reason: r.Reason}
	if c := r.Compaction; c != nil && !r.Cancel {
		if c.Summary == "" {
			return agent.CompactResult{}, errors.New("its session_before_compact compaction has no summary")
		}
		out.Compaction = &agent.SuppliedCompaction{Summary: c.Summary, FirstKeptEntryID: c.FirstKeptEntryID, TokensBefore: c.TokensBefore, Details: c.Details}
		// pi-ai's usage, when it reads as cairn's; the summary stands
		// without it.
		var u core.Usage
		if len(c.Usage) > 0 && json.Unmarshal(c.Usage, &u) == nil {
			out.Compaction.Usage = u
		}
	}
	return out, nil
}
