// Package faux is a scripted model for tests and demos. It answers from a
// queue of responses written in advance (text, thinking, tool calls, errors),
// streams them in fixed-size chunks at a chosen pace, honours cancellation,
// and says clearly when its script has run out. It never talks to a network
// and is never presented as a real model.
package faux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/provider"
)

// API is the api name of the faux provider, and ProviderName its provider.
const (
	API          = "faux"
	ProviderName = "faux"
)

// Model is the one model the faux provider serves by default.
var Model = core.Model{
	ID:            "faux-1",
	Name:          "Faux (scripted answers, not a real model)",
	API:           API,
	Provider:      ProviderName,
	BaseURL:       "http://localhost:0",
	Input:         []string{"text", "image"},
	ContextWindow: 128000,
	MaxTokens:     16384,
}

// ErrScriptExhausted is the error of a request made after every scripted
// response has been used.
var ErrScriptExhausted = errors.New("faux: no more scripted responses queued; add responses to the script")

// Response is one scripted answer. Content holds the blocks in pi's shape;
// Text and Thinking are shorthands that add a text or thinking block first.
// Error makes the answer fail with that message after its content streamed.
// StopReason overrides the natural one (stop, or toolUse with tool calls).
type Response struct {
	Thinking   string          `json:"thinking,omitempty"`
	Text       string          `json:"text,omitempty"`
	Content    []core.Content  `json:"content,omitempty"`
	StopReason core.StopReason `json:"stopReason,omitempty"`
	Error      string          `json:"error,omitempty"`
	// Usage, when set, replaces the estimate (a token is about four
	// characters of the request and the answer).
	Usage *core.Usage `json:"usage,omitempty"`
}

// Step produces the answer to one request; scripted Responses are steps that
// ignore the request.
type Step func(req *provider.Request) (Response, error)

// Options pace the stream.
type Options struct {
	// ChunkSize is how many characters each delta carries; 0 means 16.
	ChunkSize int `json:"chunkSize,omitempty"`
	// TokensPerSecond slows streaming to roughly that rate (a token being
	// four characters); 0 streams as fast as the consumer reads.
	TokensPerSecond float64 `json:"tokensPerSecond,omitempty"`
	// WhenExhausted, when set, answers every request made after the
	// script's last response with this text, instead of failing with
	// ErrScriptExhausted. A demo uses it to say that its script has ended.
	WhenExhausted string `json:"whenExhausted,omitempty"`
}

// Provider is the scripted model. It is safe for concurrent use; requests
// take steps from the queue in arrival order.
type Provider struct {
	opts  Options
	mu    sync.Mutex
	queue []Step
	calls int
}

// New returns a faux provider answering with responses, in order.
func New(opts Options, responses ...Response) *Provider {
	p := &Provider{opts: opts}
	p.Push(responses...)
	return p
}

// Script is the JSON form of a faux script file.
type Script struct {
	Options
	Responses []Response `json:"responses"`
}

// Load reads a script file: {"chunkSize":..,"tokensPerSecond":..,"whenExhausted":..,"responses":[...]}.
func Load(path string) (*Provider, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read faux script: %w", err)
	}
	s, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("faux script %s: %w", path, err)
	}
	return New(s.Options, s.Responses...), nil
}

// ParseScript decodes a script in Load's format.
func ParseScript(data []byte) (Script, error) {
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		return Script{}, fmt.Errorf("not valid JSON: %w", err)
	}
	return s, nil
}

// Push appends scripted responses to the queue.
func (p *Provider) Push(responses ...Response) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, r := range responses {
		p.queue = append(p.queue, func(*provider.Request) (Response, error) { return r, nil })
	}
}

// PushStep appends steps that compute their answer from the request.
func (p *Provider) PushStep(steps ...Step) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.queue = append(p.queue, steps...)
}

// Pending reports how many responses are still queued.
func (p *Provider) Pending() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// Calls reports how many requests the provider has answered.
func (p *Provider) Calls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.calls
}

func (p *Provider) next() (Step, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.calls++
	if len(p.queue) == 0 {
		return nil, false
	}
	s := p.queue[0]
	p.queue = p.queue[1:]
	return s, true
}

// Stream implements provider.Provider.
func (p *Provider) Stream(ctx context.Context, req *provider.Request, emit func(provider.Event)) (*core.AssistantMessage, error) {
	b := provider.NewBuilder(&req.Model, emit)
	step, ok := p.next()
	if !ok && p.opts.WhenExhausted != "" {
		step, ok = func(*provider.Request) (Response, error) { return Response{Text: p.opts.WhenExhausted}, nil }, true
	}
	if !ok {
		return provider.Fail(ctx, b, ErrScriptExhausted)
	}
	resp, err := step(req)
	if err != nil {
		return provider.Fail(ctx, b, fmt.Errorf("faux: scripted step failed: %w", err))
	}
	s := streamer{ctx: ctx, b: b, opts: p.opts}
	b.Start()
	if err := s.blocks(resp.blocks()); err != nil {
		return provider.Fail(ctx, b, err)
	}
	if resp.Usage != nil {
		b.SetUsage(*resp.Usage)
	} else {
		b.SetUsage(estimateUsage(req, b.Message()))
	}
	if resp.Error != "" {
		return provider.Fail(ctx, b, errors.New(resp.Error))
	}
	reason := resp.StopReason
	if reason == "" {
		reason = core.StopEnd
	}
	return b.Finish(reason), nil
}

// blocks returns the response's content with the shorthands expanded.
func (r Response) blocks() []core.Content {
	var out []core.Content
	if r.Thinking != "" {
		out = append(out, core.Content{Type: core.ContentThinking, Thinking: r.Thinking})
	}
	if r.Text != "" {
		out = append(out, core.TextBlock(r.Text))
	}
	return append(out, r.Content...)
}

// streamer paces one answer's deltas and stops when ctx is cancelled.
type streamer struct {
	ctx  context.Context
	b    *provider.Builder
	opts Options
}

func (s *streamer) blocks(blocks []core.Content) error {
	for i, c := range blocks {
		var idx int
		var body string
		switch c.Type {
		case core.ContentText:
			idx, body = s.b.BeginText(), c.Text
		case core.ContentThinking:
			idx, body = s.b.BeginThinking(), c.Thinking
		case core.ContentToolCall:
			id := c.ID
			if id == "" {
				id = fmt.Sprintf("faux_call_%d", i+1)
			}
			idx, body = s.b.BeginToolCall(id, c.Name), string(c.Arguments)
			if body == "" {
				body = "{}"
			}
		default:
			return fmt.Errorf("faux: scripted block has unsupported type %q", c.Type)
		}
		if err := s.chunks(idx, body); err != nil {
			return err
		}
		if c.Type == core.ContentThinking && c.ThinkingSignature != "" {
			s.b.Block(idx).ThinkingSignature = c.ThinkingSignature
		}
		s.b.End(idx)
	}
	return nil
}

func (s *streamer) chunks(idx int, body string) error {
	size := s.opts.ChunkSize
	if size <= 0 {
		size = 16
	}
	var delay time.Duration
	if s.opts.TokensPerSecond > 0 {
		delay = time.Duration(float64(size) / 4 / s.opts.TokensPerSecond * float64(time.Second))
	}
	var timer *time.Timer
	if delay > 0 {
		timer = time.NewTimer(time.Hour)
		timer.Stop()
		defer timer.Stop()
	}
	for start := 0; start < len(body); {
		if err := s.ctx.Err(); err != nil {
			return err
		}
		if timer != nil {
			timer.Reset(delay)
			select {
			case <-s.ctx.Done():
				return s.ctx.Err()
			case <-timer.C:
			}
		}
		end := cutRunes(body, start, size)
		s.b.Append(idx, body[start:end])
		start = end
	}
	return s.ctx.Err()
}

// cutRunes returns the end of a chunk of about size bytes starting at start,
// never splitting a UTF-8 sequence.
func cutRunes(s string, start, size int) int {
	end := start + size
	if end >= len(s) {
		return len(s)
	}
	for end > start+1 && end < len(s) && s[end]&0xC0 == 0x80 {
		end--
	}
	return end
}

// estimateUsage approximates token counts at four characters a token.
func estimateUsage(req *provider.Request, msg *core.AssistantMessage) core.Usage {
	in := len(req.System)
	for _, m := range req.Messages {
		data, _ := json.Marshal(m)
		in += len(data)
	}
	out := 0
	for _, c := range msg.Content {
		out += len(c.Text) + len(c.Thinking) + len(c.Arguments)
	}
	return core.Usage{Input: (in + 3) / 4, Output: (out + 3) / 4}
}
