package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/cairn-dev/cairn/core"
)

// Conn is one live connection to a server: the little of MCP cairn uses.
// Its methods are safe for concurrent use.
type Conn interface {
	// ListTools returns every tool the server offers, following pages.
	ListTools(ctx context.Context) ([]ToolInfo, error)
	// CallTool calls a tool with JSON object arguments. progress, when
	// not nil, receives the server's progress notifications for the call
	// until CallTool returns. Cancelling ctx cancels the request on the
	// server.
	CallTool(ctx context.Context, name string, args json.RawMessage, progress func(Progress)) (Result, error)
	// ListResources returns the resources the server lists, following
	// pages (at most maxResources).
	ListResources(ctx context.Context) ([]ResourceInfo, error)
	// ReadResource reads one resource: text as text, images as images,
	// other binary content as a note of its size.
	ReadResource(ctx context.Context, uri string) ([]core.Content, error)
	// ListPrompts returns the prompts the server offers, following pages;
	// none (and no error) when the server offers no prompts.
	ListPrompts(ctx context.Context) ([]PromptInfo, error)
	// GetPrompt gets one prompt filled with args: the content of its
	// messages, in order (text as text, images as images).
	GetPrompt(ctx context.Context, name string, args map[string]string) ([]core.Content, error)
	// ToolsChanged receives when the server announces that its tool list
	// changed.
	ToolsChanged() <-chan struct{}
	// PromptsChanged receives when the server announces that its prompt
	// list changed.
	PromptsChanged() <-chan struct{}
	// Wait returns when the connection has ended, by Close or because the
	// server went away.
	Wait() error
	// Close ends the connection and, for a command, stops its process
	// group.
	Close() error
}

// Dialer connects to a server. stderr receives a command's standard
// error. The returned Conn is initialised and ready for requests.
type Dialer func(ctx context.Context, s Server, stderr io.Writer) (Conn, error)

// ErrConnectionClosed is returned by a call whose server went away before
// answering.
var ErrConnectionClosed = errors.New("the connection to the MCP server closed")

// ToolInfo is one tool a server offers.
type ToolInfo struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"inputSchema,omitempty"`
	// ReadOnly and Destructive are the server's hints (readOnlyHint,
	// destructiveHint); Destructive is nil when the server said nothing.
	// They are hints from the server, never a reason to skip approval.
	ReadOnly    bool  `json:"readOnly,omitempty"`
	Destructive *bool `json:"destructive,omitempty"`
}

// Progress is one progress notification of a running call.
type Progress struct {
	Progress float64
	Total    float64 // 0 when unknown
	Message  string
}

// Result is a tool call's answer in cairn's terms: text and image blocks
// (resource links and embedded resources become text naming them).
type Result struct {
	Content []core.Content
	IsError bool
}

// ResourceInfo is one resource a server lists.
type ResourceInfo struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
}

// PromptInfo is one prompt a server offers.
type PromptInfo struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument a prompt takes.
type PromptArgument struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}
