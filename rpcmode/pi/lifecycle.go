package pi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
)

// errShuttingDown answers commands that were still waiting at shutdown.
var errShuttingDown = errors.New("cairn is shutting down: its input ended")

// stop aborts a running prompt and a manual compaction and waits for the
// prompt to settle and the compaction to be answered, so that, as in pi,
// an abort's response follows the compaction's compaction_end and compact
// response. Queued steering and follow-up messages stay queued, as in pi.
func (s *server) stop() error {
	s.mu.Lock()
	run := s.compacting
	s.mu.Unlock()
	if run != nil {
		run.cancel()
	}
	if err := s.sess.AbortAndWait(s.ctx); err != nil {
		return errShuttingDown
	}
	if run != nil {
		select {
		case <-run.answered:
		case <-s.ctx.Done():
			return errShuttingDown
		}
	}
	return nil
}

// compaction is a manual compaction that is running: cancel stops it, and
// answered is closed once its compact command has been answered.
type compaction struct {
	cancel   context.CancelFunc
	answered chan struct{}
}

func (s *server) abort(*command) (any, error) { return nil, s.stop() }

// abortRetry cancels the wait before an automatic retry, which ends the
// prompt. As in pi, its response follows the wait's auto_retry_end and
// comes before the prompt's agent_settled: the writer sends it once it has
// written the end of the wait (see retryWait). Outside such a wait it does
// nothing and answers at once.
func (s *server) abortRetry(c *command) {
	answer := s.response(c, nil, nil).appendTo(nil)
	if s.retry.answerAfterWait(answer) {
		s.sess.Abort()
		return
	}
	s.send(answer)
}

// cancelled is the data of the session commands: an extension's
// BeforeSwitch handler (pi's session_before_switch, session_before_fork)
// may cancel them.
type cancelled struct {
	Cancelled bool `json:"cancelled"`
}

// switched is a session command's answer to err: cancelled when a
// BeforeSwitch handler cancelled it (the reason is shown as a notice by
// the handler's extension, as pi's examples do), the error otherwise.
func switched(err error) (any, error) {
	if errors.Is(err, agent.ErrSwitchCancelled) {
		return cancelled{Cancelled: true}, nil
	}
	return cancelled{}, err
}

func (s *server) newSession(c *command) (any, error) {
	parent, _, err := c.optStr("parentSession")
	if err != nil {
		return nil, err
	}
	if err := s.stop(); err != nil {
		return nil, err
	}
	return switched(s.sess.NewConversation(parent))
}

func (s *server) switchSession(c *command) (any, error) {
	path, err := c.str("sessionPath")
	if err != nil {
		return nil, err
	}
	if err := s.stop(); err != nil {
		return nil, err
	}
	return switched(s.sess.OpenConversation(path))
}

// fork answers fork (pi) and branch (oh-my-pi).
func (s *server) fork(c *command) (any, error) {
	entry, err := c.str("entryId")
	if err != nil {
		return nil, err
	}
	if err := s.stop(); err != nil {
		return nil, err
	}
	text, err := s.sess.Fork(entry)
	if errors.Is(err, agent.ErrSwitchCancelled) {
		return struct {
			Text      string `json:"text"`
			Cancelled bool   `json:"cancelled"`
		}{"", true}, nil
	}
	if err != nil {
		return nil, err
	}
	return struct {
		Text      string `json:"text"`
		Cancelled bool   `json:"cancelled"`
	}{text, false}, nil
}

// errNothingToCompact is pi's answer to compact when compaction would keep
// the whole conversation.
var errNothingToCompact = errors.New("Nothing to compact (session too small)")

// compactionFrame is pi 0.73's compaction_start/compaction_end event of a
// manual compaction.
type compactionFrame struct {
	Type         string            `json:"type"`
	Reason       string            `json:"reason"`
	Result       *CompactionResult `json:"result,omitempty"`
	Aborted      *bool             `json:"aborted,omitempty"`
	WillRetry    *bool             `json:"willRetry,omitempty"`
	ErrorMessage string            `json:"errorMessage,omitempty"`
}

// compactCommand answers compact; the compaction counts as running (for
// stop) until it has been answered.
func (s *server) compactCommand(c *command) {
	ctx, cancel := context.WithCancel(s.ctx)
	run := &compaction{cancel: cancel, answered: make(chan struct{})}
	defer func() {
		cancel()
		s.mu.Lock()
		if s.compacting == run {
			s.compacting = nil
		}
		s.mu.Unlock()
		close(run.answered)
	}()
	data, err := s.compact(ctx, c, run)
	s.reply(s.response(c, data, err))
}

// compact summarises the conversation now. A running prompt is aborted
// first; compaction_start and compaction_end frame the work, as pi 0.73
// writes them for a manual compaction.
func (s *server) compact(ctx context.Context, c *command, run *compaction) (any, error) {
	instructions, _, err := c.optStr("customInstructions")
	if err != nil {
		return nil, err
	}
	if err := s.stop(); err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.compacting = run
	s.mu.Unlock()
	s.sendEvent("compaction_start", compactionFrame{Type: "compaction_start", Reason: "manual"})
	// As in pi, a steer or follow_up sent meanwhile stays queued.
	res, err := s.sess.CompactKeepingQueue(ctx, instructions)
	aborted, no := ctx.Err() != nil, false
	end := compactionFrame{Type: "compaction_end", Reason: "manual", Aborted: &aborted, WillRetry: &no}
	switch {
	case aborted:
		// pi's words.
		err = errors.New("Compaction cancelled")
	case errors.Is(err, agent.ErrNothingToCompact):
		// pi's words, which hosts show.
		err = errNothingToCompact
		end.ErrorMessage = "Compaction failed: " + err.Error()
	case err != nil:
		end.ErrorMessage = err.Error()
	default:
		end.Result = NewCompactionResult(&res, s.host.Compat073)
	}
	s.sendEvent("compaction_end", end)
	if err != nil {
		return nil, err
	}
	return end.Result, nil
}

// startBash answers the bash command: it runs the command on its own
// goroutine and records it as a bashExecution message, which the model
// sees with the next prompt (at once when idle, else when the running
// prompt settles). The run is registered before the next command is read,
// so an abort_bash sent right after it always reaches it.
func (s *server) startBash(c *command) {
	line, err := c.str("command")
	var exclude bool
	if err == nil {
		exclude, _, err = c.optBool("excludeFromContext")
	}
	if err != nil {
		s.reply(s.response(c, nil, err))
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	id := s.nextBash
	s.nextBash++
	s.bashRuns[id] = cancel
	s.mu.Unlock()
	s.goSlow(func() {
		defer func() {
			cancel()
			s.mu.Lock()
			delete(s.bashRuns, id)
			s.mu.Unlock()
		}()
		res, err := s.runBash(ctx, c.id, line, exclude)
		s.reply(s.response(c, res, err))
	})
}

func (s *server) runBash(ctx context.Context, id json.RawMessage, line string, exclude bool) (any, error) {
	gen := s.sess.Generation()
	var output func(string)
	if !s.host.Compat073 {
		// pi 0.82+: the output streams as bash_execution_update frames,
		// with the command's id, before the response.
		output = func(delta string) {
			s.sendEvent("bash_execution_update", bashUpdate{Type: "bash_execution_update", ID: id, Delta: delta})
		}
	}
	res, err := s.bash.Run(ctx, line, output)
	if err != nil {
		return nil, fmt.Errorf("could not run the command: %w", err)
	}
	msg := &core.BashExecutionMessage{
		Command:            line,
		Output:             res.Output,
		ExitCode:           res.ExitCode,
		Cancelled:          res.Cancelled,
		Truncated:          res.Truncated,
		FullOutputPath:     res.FullOutputPath,
		Timestamp:          time.Now().UnixMilli(),
		ExcludeFromContext: exclude,
	}
	// A command that ran across new_session, switch_session or fork
	// belongs to the conversation that is gone: the session drops it.
	s.sess.AddBashExecution(msg, gen)
	return res, nil
}

// bashUpdate is a bash_execution_update frame.
type bashUpdate struct {
	Type  string          `json:"type"`
	ID    json.RawMessage `json:"id,omitempty"`
	Delta string          `json:"delta"`
}

// abortBash stops every running bash command (not the model's bash tool).
// Its response is queued before the runs are cancelled, so it always comes
// before theirs, as pi's does.
func (s *server) abortBash(c *command) {
	s.reply(s.response(c, nil, nil))
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.bashRuns {
		cancel()
	}
}
