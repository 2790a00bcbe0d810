// Package agent is cairn's agent session: the one conversation that every
// front end drives. A Session runs the loop (model request, tool calls,
// results, next request, until the model stops), queues steering and
// follow-up messages, retries failed requests, compacts long conversations,
// asks for approvals, persists what happened, and publishes pi's event set
// in one total order to any number of subscribers.
//
// Commands are methods; events come out of Subscribe. Front ends never reach
// into the session's state: they send commands and render events.
package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/background"
	"github.com/cairn-dev/cairn/core/checkpoint"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/toolset"
)

// QueueMode says how many queued messages are taken at a time.
type QueueMode string

// The queue modes, as pi names them.
const (
	OneAtATime QueueMode = "one-at-a-time"
	AllAtOnce  QueueMode = "all"
)

// InterruptMode says when a steering message takes effect: right after the
// running tools are prepared (skipping the rest, pi 0.73's behaviour), or
// only when the turn's tools have all finished (pi 0.87's, the default).
type InterruptMode string

// The interrupt modes, as oh-my-pi names them.
const (
	InterruptImmediate InterruptMode = "immediate"
	InterruptWait      InterruptMode = "wait"
)

// RetrySettings configure automatic retries of failed model requests.
type RetrySettings struct {
	Enabled    bool
	MaxRetries int
	BaseDelay  time.Duration
	MaxDelay   time.Duration
}

// DefaultRetry is pi's: three retries after 2 s, 4 s and 8 s.
var DefaultRetry = RetrySettings{Enabled: true, MaxRetries: 3, BaseDelay: 2 * time.Second, MaxDelay: 60 * time.Second}

// CompactionSettings configure automatic compaction.
type CompactionSettings struct {
	Enabled          bool
	ReserveTokens    int
	KeepRecentTokens int
}

// DefaultCompaction is pi's: compact when fewer than 16,384 tokens of the
// window remain, keeping about 20,000 tokens of recent conversation.
var DefaultCompaction = CompactionSettings{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}

// Connection is a provider ready to serve one model.
type Connection struct {
	Provider provider.Provider
	APIKey   string
	Headers  map[string]string
}

// Approver decides whether a tool call may run; *approval.Gate is one. It
// asks through ask, which puts questions in the session's event stream.
// The context carries the interceptors' verdict on the call
// (approval.VerdictOf): an Approver honours it, or passes the context on
// to one that does.
type Approver interface {
	Check(ctx context.Context, tool core.Tool, call core.ToolCall, ask core.Asker) approval.Decision
}

// Store records a conversation; *session.File is one.
type Store interface {
	// AppendMessage records a message that ended and returns its entry id.
	AppendMessage(m core.Message) (string, error)
	// AppendModelChange records a switch of model.
	AppendModelChange(providerName, modelID string) error
	// AppendThinkingLevel records a change of thinking level.
	AppendThinkingLevel(level core.ThinkingLevel) error
	// AppendCompaction records a compaction and returns its entry id.
	AppendCompaction(r core.CompactionResult) (string, error)
}

// Config is everything a Session is built from.
type Config struct {
	Model    core.Model
	Thinking core.ThinkingLevel
	// Open connects to the provider serving a model.
	Open func(core.Model) (Connection, error)
	// Models is the list that CycleModel steps through; empty means only
	// the current model.
	Models []core.Model
	// Tools is a fixed set of tools, used when Toolset is nil.
	Tools []core.Tool
	// Toolset, when set, is where every request reads the tools available
	// now and every call finds its tool (the live registry, or a view of
	// it); Tools is then unused. Before a run's first request the session
	// waits, bounded, for tools still starting (Toolset.Wait) and says so.
	Toolset toolset.Set
	// Approver checks tool calls; nil allows everything.
	Approver Approver
	// SystemPrompt returns the system prompt for the given tools.
	SystemPrompt func(tools []core.Tool) string
	// SystemSections, when set, returns the system prompt in named
	// sections instead (their texts joined by blank lines are the prompt);
	// the conversation declares them in system messages.
	SystemSections func(tools []core.Tool) []core.PromptSection
	// PromptOptions, when set, says what the system prompt is built from,
	// for BeforeAgentStart handlers (pi's systemPromptOptions).
	PromptOptions func() PromptOptions
	// Conversations keeps the conversations the session moves between;
	// nil keeps one in memory, recorded also in Store when that is set.
	Conversations Conversations
	// Store records the conversation when Conversations is nil (tests).
	Store Store
	// History is the conversation to resume with, oldest first, and
	// EntryIDs its entry ids in the store (may be nil).
	History  []core.Message
	EntryIDs []string
	// FindModel resolves the model a loaded conversation last used; nil
	// keeps the current model when conversations change.
	FindModel func(provider, id string) (core.Model, error)
	// MaxTokens caps every answer's length in tokens (--max-tokens), below
	// the model's own maximum; zero means the model's maximum.
	MaxTokens int
	// Unattended says no front end can answer questions (print and json
	// modes): a call that needs approval is refused by policy at once,
	// with a result that says how to allow it.
	Unattended bool

	SteeringMode  QueueMode
	FollowUpMode  QueueMode
	InterruptMode InterruptMode
	Retry         RetrySettings
	Compaction    CompactionSettings

	// Sleep waits for a retry delay; nil means a real, cancellable sleep.
	Sleep func(ctx context.Context, d time.Duration) error
	// Now is the clock for timestamps; nil means time.Now.
	Now func() time.Time
	// After is the timer for question deadlines; nil means time.After.
	After func(time.Duration) <-chan time.Time

	// Processes holds the session's background commands (see
	// processes.go); nil means none can be started.
	Processes *background.Table

	// Interceptors watch and steer the loop at fixed points (hooks,
	// extensions), in order; see Interceptor.
	Interceptors []Interceptor
	// Checkpoints records the project's files before each prompt and
	// when it settles, for rewinds (see rewind.go); nil turns that off.
	Checkpoints *checkpoint.Store
}

// Errors returned by commands.
var (
	ErrBusy        = errors.New("the agent is already working on a prompt: send it as a steer or follow-up message, or abort first")
	ErrEmptyPrompt = errors.New("the prompt is empty")
	ErrClosed      = errors.New("the session is closed")
)

// Session is one agent conversation. Its methods are safe for concurrent
// use; the loop runs on a goroutine of its own while a prompt is active.
type Session struct {
	cfg  Config
	bus  *bus
	base context.Context
	stop context.CancelFunc

	// convMu serialises calls into convs.
	convMu sync.Mutex
	convs  Conversations

	mu        sync.Mutex
	store     Store
	questions map[string]*openQuestion
	// pendingBash holds `!cmd` results waiting for the session to settle;
	// generation counts conversation changes, so a result from a command
	// that ran across one is dropped.
	pendingBash []*core.BashExecutionMessage
	// pendingCustom and nextTurn are extensions' messages waiting: to
	// join the conversation when the session settles, and to go with the
	// next prompt (custommsg.go).
	pendingCustom []*core.CustomMessage
	nextTurn      []core.Message
	generation    Generation
	// contextStale is set from a compaction until the model's next answer:
	// until then the context's size is unknown.
	contextStale bool
	model        core.Model
	thinking     core.ThinkingLevel
	messages     []core.Message
	entryIDs     []string
	steering     []*queued
	followUp     []*queued
	run          *activeRun
	compacting   bool
	closed       bool
	runs         sync.WaitGroup
	icpt         interceptState

	// entering holds the messages taken from a queue that have not yet
	// entered the conversation (see take); queue_update still lists them.
	entering []*queued
	// enteringSteering says which queue entering came from.
	enteringSteering bool
	// rewound is what undoing the last rewind needs; nil when none.
	rewound *lastRewind
}

type queued struct {
	msg  core.Message
	text string
	// hidden is an extension's custom message: queue_update does not list
	// it, as pi's does not.
	hidden bool
}

// activeRun is the prompt being worked on.
type activeRun struct {
	cancel context.CancelFunc
	done   chan struct{}
	// prompted is set (under Session.mu) once the run's prompt is in the
	// conversation; until then a rewind counts it as a point to come.
	prompted bool
}

// New starts a session from cfg.
func New(cfg Config) (*Session, error) {
	if cfg.Open == nil {
		return nil, errors.New("agent: Config.Open is required")
	}
	if cfg.Thinking == "" {
		cfg.Thinking = core.ThinkingOff
	}
	if cfg.SteeringMode == "" {
		cfg.SteeringMode = OneAtATime
	}
	if cfg.FollowUpMode == "" {
		cfg.FollowUpMode = OneAtATime
	}
	if cfg.InterruptMode == "" {
		cfg.InterruptMode = InterruptWait
	}
	if cfg.Sleep == nil {
		cfg.Sleep = provider.Sleep
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.After == nil {
		cfg.After = time.After
	}
	if cfg.Conversations == nil {
		cfg.Conversations = NewMemoryConversations(cfg.Store)
	}
	if cfg.Toolset == nil {
		cfg.Toolset = toolset.Static(cfg.Tools)
	}
	if cfg.SystemPrompt == nil {
		cfg.SystemPrompt = func([]core.Tool) string { return "" }
	}
	if cfg.EntryIDs != nil && len(cfg.EntryIDs) != len(cfg.History) {
		return nil, fmt.Errorf("agent: %d entry ids for %d history messages", len(cfg.EntryIDs), len(cfg.History))
	}
	s := &Session{cfg: cfg, bus: newBus(), model: cfg.Model, thinking: ClampThinking(cfg.Model, cfg.Thinking),
		convs: cfg.Conversations, store: cfg.Conversations.Store(), questions: map[string]*openQuestion{}}
	s.base, s.stop = context.WithCancel(context.Background())
	s.messages = append(s.messages, cfg.History...)
	s.entryIDs = make([]string, len(cfg.History))
	copy(s.entryIDs, cfg.EntryIDs)
	return s, nil
}

// Subscribe returns every event published from now on, in order, and a
// function that stops delivery.
func (s *Session) Subscribe() (<-chan core.Event, func()) { return s.bus.subscribe() }

// Follow is Subscribe for a front end that orders output of its own among
// the events (see Subscription.Mark).
func (s *Session) Follow() *Subscription { return s.bus.follow() }

// Close aborts any active prompt, waits for it to end, kills the
// background commands, and closes the conversation's storage (flushing its
// session file).
func (s *Session) Close() {
	s.mu.Lock()
	already := s.closed
	s.closed = true
	s.mu.Unlock()
	s.stop()
	s.runs.Wait()
	s.icpt.notes.Wait()
	if !already {
		s.endSession(EndExit)
	}
	s.closeProcesses()
	if !already {
		s.convMu.Lock()
		_ = s.convs.Close()
		s.convMu.Unlock()
	}
}

// currentStore returns the store recording the current conversation.
func (s *Session) currentStore() Store {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.store
}

// Wait blocks until no prompt is active or ctx ends.
func (s *Session) Wait(ctx context.Context) error {
	for {
		s.mu.Lock()
		r := s.run
		s.mu.Unlock()
		if r == nil {
			return nil
		}
		select {
		case <-r.done:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (s *Session) publish(e core.Event) { s.bus.publish(e) }

func (s *Session) now() int64 { return s.cfg.Now().UnixMilli() }

// ThinkingLevels lists the levels m offers, lowest first: only off for a
// model that cannot reason, xhigh only where the model has it.
func ThinkingLevels(m core.Model) []core.ThinkingLevel {
	if !m.Reasoning {
		return []core.ThinkingLevel{core.ThinkingOff}
	}
	if core.SupportsXHigh(m.ID) {
		return slices.Clone(core.ThinkingLevels)
	}
	return slices.Clone(core.ThinkingLevels[:len(core.ThinkingLevels)-1])
}

// ClampThinking is the nearest level m offers to level, as pi clamps it:
// off for a model that cannot reason, high for xhigh on a model without
// it, and max (which no model cairn knows offers) as the highest there is.
func ClampThinking(m core.Model, level core.ThinkingLevel) core.ThinkingLevel {
	if level == core.ThinkingMax {
		level = core.ThinkingXHigh
	}
	switch {
	case !m.Reasoning:
		return core.ThinkingOff
	case level == core.ThinkingXHigh && !core.SupportsXHigh(m.ID):
		return core.ThinkingHigh
	}
	return level
}
