package core

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/core/jsonscan"
)

// RoleSystem is the role of a SystemMessage.
const RoleSystem Role = "system"

// PromptSection is one named part of the system prompt ("preamble",
// "tools", "rules", "context", "cwd"). The prompt is the sections' texts
// joined by blank lines.
type PromptSection struct {
	Name string
	Text string
}

// ToolRef names a tool a SystemMessage removes.
type ToolRef struct {
	Name string `json:"name"`
}

// SystemMessage declares the system prompt and the tools the model works
// with, as pi 0.87 records them in the conversation: the leading one
// declares them whole, later ones change sections and add or remove tools,
// and one with Replace starts over. Replaying them in order gives the
// current state (see SystemState). It never reaches a provider as a
// message: the prompt goes as the request's system text.
type SystemMessage struct {
	Content      string
	Sections     []PromptSection
	ToolsAdded   []ToolSpec
	ToolsRemoved []ToolRef
	Replace      bool
	Timestamp    int64
	// Replayed marks the replay of every system message before it (the
	// one a compaction keeps, pi's getCurrentSystemMessage), which pi
	// writes with its tools before its timestamp.
	Replayed bool
}

// MessageRole implements Message.
func (*SystemMessage) MessageRole() Role { return RoleSystem }

// MarshalJSON writes the message in pi's shape: role, content, sections
// (in order), timestamp, then the tool changes; a Replayed one has its
// tools before its timestamp, as pi writes it.
func (m SystemMessage) MarshalJSON() ([]byte, error) {
	b := []byte(`{"role":"system","content":`)
	b = jsonscan.AppendString(b, m.Content)
	if m.Sections != nil {
		b = append(b, `,"sections":{`...)
		for i, s := range m.Sections {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonscan.AppendString(b, s.Name)
			b = append(b, ':')
			b = jsonscan.AppendString(b, s.Text)
		}
		b = append(b, '}')
	}
	if !m.Replayed {
		b = append(b, `,"timestamp":`...)
		b = fmt.Appendf(b, "%d", m.Timestamp)
	}
	for _, part := range []struct {
		key string
		v   any
		set bool
	}{
		{"toolsAdded", m.ToolsAdded, m.ToolsAdded != nil},
		{"toolsRemoved", m.ToolsRemoved, m.ToolsRemoved != nil},
		{"replace", m.Replace, m.Replace},
	} {
		if !part.set {
			continue
		}
		v, err := json.Marshal(part.v)
		if err != nil {
			return nil, err
		}
		b = append(b, ',', '"')
		b = append(b, part.key...)
		b = append(b, '"', ':')
		b = append(b, v...)
	}
	if m.Replayed {
		b = append(b, `,"timestamp":`...)
		b = fmt.Appendf(b, "%d", m.Timestamp)
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads pi's shape; sections keep their order, and content
// given as text blocks is joined.
func (m *SystemMessage) UnmarshalJSON(data []byte) error {
	var raw struct {
		Content      json.RawMessage `json:"content"`
		Sections     json.RawMessage `json:"sections"`
		ToolsAdded   []ToolSpec      `json:"toolsAdded"`
		ToolsRemoved []ToolRef       `json:"toolsRemoved"`
		Replace      bool            `json:"replace"`
		Timestamp    int64           `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("system message: %w", err)
	}
	out := SystemMessage{ToolsAdded: raw.ToolsAdded, ToolsRemoved: raw.ToolsRemoved, Replace: raw.Replace, Timestamp: raw.Timestamp}
	if len(raw.Content) > 0 && string(raw.Content) != "null" {
		if err := json.Unmarshal(raw.Content, &out.Content); err != nil {
			var blocks []Content
			if json.Unmarshal(raw.Content, &blocks) != nil {
				return fmt.Errorf("system message: content is neither text nor blocks")
			}
			for _, c := range blocks {
				out.Content += c.Text
			}
		}
	}
	if len(raw.Sections) > 0 && string(raw.Sections) != "null" {
		var s jsonscan.Scanner
		s.Reset(raw.Sections)
		out.Sections = []PromptSection{}
		for key := range s.Object() {
			name := string(key)
			if s.Null() {
				// pi writes null to remove a section.
				out.Sections = append(out.Sections, PromptSection{Name: name})
				continue
			}
			out.Sections = append(out.Sections, PromptSection{Name: name, Text: s.Str()})
		}
		if err := s.Err(); err != nil {
			return fmt.Errorf("system message sections: %w", err)
		}
	}
	*m = out
	return nil
}

// SystemState is the prompt and tools a conversation has declared so far.
type SystemState struct {
	Content  string
	Sections []PromptSection
	Tools    []ToolSpec
	// Declared is false when the conversation holds no system message.
	Declared bool
}

// Apply replays m onto st.
func (st SystemState) Apply(m *SystemMessage) SystemState {
	if m.Replace {
		st = SystemState{}
	}
	st.Declared = true
	st.Content += m.Content
	st.Sections = slices.Clone(st.Sections)
	for _, sec := range m.Sections {
		i := slices.IndexFunc(st.Sections, func(s PromptSection) bool { return s.Name == sec.Name })
		switch {
		case i >= 0 && sec.Text == "":
			st.Sections = slices.Delete(st.Sections, i, i+1)
		case i >= 0:
			st.Sections[i] = sec
		case sec.Text != "":
			st.Sections = append(st.Sections, sec)
		}
	}
	st.Tools = slices.DeleteFunc(slices.Clone(st.Tools), func(t ToolSpec) bool {
		return slices.ContainsFunc(m.ToolsRemoved, func(r ToolRef) bool { return r.Name == t.Name })
	})
	for _, t := range m.ToolsAdded {
		st.Tools = slices.DeleteFunc(st.Tools, func(o ToolSpec) bool { return o.Name == t.Name })
		st.Tools = append(st.Tools, t)
	}
	return st
}

// SystemStateOf replays the system messages of a conversation.
func SystemStateOf(messages []Message) SystemState {
	var st SystemState
	for _, m := range messages {
		if sm, ok := m.(*SystemMessage); ok {
			st = st.Apply(sm)
		}
	}
	return st
}

// Same reports whether st already declares sections and tools.
func (st SystemState) Same(sections []PromptSection, tools []ToolSpec) bool {
	if !st.Declared || !slices.Equal(st.Sections, sections) || len(st.Tools) != len(tools) {
		return false
	}
	for i, t := range tools {
		o := st.Tools[i]
		if o.Name != t.Name || o.Description != t.Description || string(o.Parameters) != string(t.Parameters) {
			return false
		}
	}
	return true
}

// readSystem reads a system message at s's position. They are rare (one a
// run at most), so encoding/json does the work.
func readSystem(s *jsonscan.Scanner) (Message, error) {
	raw := s.Raw()
	if raw == nil {
		return nil, s.Err()
	}
	m := &SystemMessage{}
	if err := m.UnmarshalJSON(raw); err != nil {
		return nil, err
	}
	return m, nil
}
