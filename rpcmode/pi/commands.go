package pi

import (
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/agent"
)

// handler answers one command type. run returns the response's data (nil
// for none; jsonNull for "data":null) or an error. Slow handlers run on
// their own goroutine so the commands after them are answered meanwhile.
type handler struct {
	slow bool
	run  func(s *server, c *command) (any, error)
}

// handlers maps every command type to its handler but prompt, steer,
// follow_up and abort_and_prompt (see prompt.go), bash (startBash),
// abort_bash (abortBash), abort_retry (abortRetry) and compact
// (compactCommand).
var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"abort":                         {slow: true, run: (*server).abort},
		"new_session":                   {slow: true, run: (*server).newSession},
		"get_state":                     {run: (*server).getState},
		"set_model":                     {run: (*server).setModel},
		"cycle_model":                   {run: (*server).cycleModel},
		"get_available_models":          {run: (*server).availableModels},
		"set_thinking_level":            {run: (*server).setThinkingLevel},
		"cycle_thinking_level":          {run: (*server).cycleThinkingLevel},
		"get_available_thinking_levels": {run: (*server).availableThinkingLevels},
		"set_steering_mode":             {run: (*server).setSteeringMode},
		"set_follow_up_mode":            {run: (*server).setFollowUpMode},
		"set_interrupt_mode":            {run: (*server).setInterruptMode},
		"set_approval_mode":             {run: (*server).setApprovalMode},
		"set_auto_compaction":           {run: (*server).setAutoCompaction},
		"set_auto_retry":                {run: (*server).setAutoRetry},
		"get_session_stats":             {run: (*server).sessionStats},
		"export_html":                   {slow: true, run: (*server).exportHTML},
		"switch_session":                {slow: true, run: (*server).switchSession},
		"fork":                          {slow: true, run: (*server).fork},
		"branch":                        {slow: true, run: (*server).fork},
		"get_fork_messages":             {run: (*server).forkMessages},
		"get_branch_messages":           {run: (*server).forkMessages},
		"get_last_assistant_text":       {run: (*server).lastAssistantText},
		"set_session_name":              {run: (*server).setSessionName},
		"get_messages":                  {run: (*server).messages},
		"get_commands":                  {run: (*server).commands},
		"clear_queue":                   {run: (*server).clearQueue},
		"clone":                         {slow: true, run: (*server).clone},
		"get_entries":                   {run: (*server).getEntries},
		"get_tree":                      {run: (*server).getTree},
		"set_event_filter":              {run: (*server).setEventFilter},
		"get_mcp_servers":               {run: (*server).mcpServers},
		"list_processes":                {run: (*server).listProcesses},
		"kill_process":                  {slow: true, run: (*server).killProcess},
		"rewind":                        {slow: true, run: (*server).rewind},
	}
}

// jsonNull is the data of a response that says "nothing" explicitly.
var jsonNull = rawJSON("null")

// rawJSON is pre-encoded response data.
type rawJSON []byte

// dispatchFrame decodes one frame and answers it.
func (s *server) dispatchFrame(frame []byte) {
	if isBlank(frame) {
		// pi answers a blank line with a parse error without id; a blank
		// line is no command, so cairn skips it (as oh-my-pi does).
		return
	}
	if isAbort(frame) {
		// Counted with the reader's test, whatever the frame turns out to
		// be, so that the two counts agree (see readLoop).
		s.mu.Lock()
		s.abortsDone++
		s.mu.Unlock()
	}
	c, err := decodeCommand(frame)
	if err != nil {
		r := response{id: c.id, err: err.Error()}
		if errors.Is(err, errParse) {
			r.command = "parse"
		}
		s.reply(r)
		return
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return
	}
	switch c.typ {
	case "extension_ui_response":
		if id, a, ok := decodeUIAnswer(&c); ok {
			s.answerQuestion(id, a)
		}
		return
	case "prompt":
		s.prompt(&c, "", true)
		return
	case "steer":
		s.prompt(&c, agent.BehaviorSteer, false)
		return
	case "follow_up":
		s.prompt(&c, agent.BehaviorFollowUp, false)
		return
	case "bash":
		s.startBash(&c)
		return
	case "abort_bash":
		s.abortBash(&c)
		return
	case "abort_retry":
		s.abortRetry(&c)
		return
	case "compact":
		s.goSlow(func() { s.compactCommand(&c) })
		return
	case "abort_and_prompt":
		s.goSlow(func() { s.abortAndPrompt(&c) })
		return
	}
	h, ok := handlers[c.typ]
	if !ok {
		s.reply(response{id: c.id, command: c.typ, err: fmt.Sprintf("Unknown command: %s", c.typ)})
		return
	}
	if h.slow {
		s.goSlow(func() { s.answer(&c, h) })
		return
	}
	s.answer(&c, h)
}

// answer runs a handler and writes its response.
func (s *server) answer(c *command, h handler) {
	data, err := h.run(s, c)
	s.reply(s.response(c, data, err))
}

// response builds the response to c from a handler's result.
func (s *server) response(c *command, data any, err error) response {
	r := response{id: c.id, command: c.typ}
	if err != nil {
		r.err = err.Error()
		return r
	}
	switch d := data.(type) {
	case nil:
	case rawJSON:
		r.data = d
	case *streamedData:
		r.stream = d
	default:
		b, err := marshal(d)
		if err != nil {
			r.err = fmt.Sprintf("cannot encode the %s response: %v", c.typ, err)
			return r
		}
		r.data = b
	}
	return r
}

func isBlank(frame []byte) bool {
	for _, c := range frame {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}
