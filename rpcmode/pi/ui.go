package pi

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/escape"
)

// questions translates the session's questions into pi's extension UI
// sub-protocol: a core.Question becomes an extension_ui_request frame (a
// tool approval is a select whose options are the approval labels), and
// the host's extension_ui_response with the same id becomes an answer
// (Session.Answer) or a dismissal (Session.Dismiss). The session owns
// every deadline: a late or unknown response is ignored, as pi ignores it.
// Its methods are safe for concurrent use.
type questions struct {
	mu   sync.Mutex
	open map[string]core.Question
}

func newQuestions() *questions { return &questions{open: map[string]core.Question{}} }

// opened records q before its frame is written, so that its answer can be
// translated back.
func (qs *questions) opened(q core.Question) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	qs.open[q.ID] = q
}

// closed forgets a question that ended.
func (qs *questions) closed(id string) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	delete(qs.open, id)
}

// lookup returns the open question id.
func (qs *questions) lookup(id string) (core.Question, bool) {
	qs.mu.Lock()
	defer qs.mu.Unlock()
	q, ok := qs.open[id]
	return q, ok
}

// uiAnswer is one extension_ui_response.
type uiAnswer struct {
	Value     *string `json:"value"`
	Confirmed *bool   `json:"confirmed"`
	Cancelled bool    `json:"cancelled"`
}

// answer hands a host's response to the session: an answer in the
// question's terms, or a dismissal when it was cancelled or carries no
// usable value.
func (s *server) answerQuestion(id string, a uiAnswer) {
	q, ok := s.questions.lookup(id)
	if !ok {
		return
	}
	ans, ok := translateAnswer(q, a)
	if !ok {
		_ = s.sess.Dismiss(id)
		return
	}
	_ = s.sess.Answer(id, ans)
}

// translateAnswer reads a response as an answer to q. A select answer
// names an option by its label (what pi hosts send back) or its value.
func translateAnswer(q core.Question, a uiAnswer) (core.Answer, bool) {
	if a.Cancelled {
		return core.Answer{}, false
	}
	switch q.Kind {
	case core.QuestionConfirm:
		if a.Confirmed == nil {
			return core.Answer{}, false
		}
		return core.Answer{Yes: *a.Confirmed}, true
	case core.QuestionSelect:
		if a.Value == nil {
			return core.Answer{}, false
		}
		for _, o := range q.Options {
			if o.Label == *a.Value || o.Value == *a.Value {
				return core.Answer{Value: o.Value}, true
			}
		}
		// Not an option: the asker treats it as a refusal.
		return core.Answer{Value: *a.Value}, true
	}
	if a.Value == nil {
		return core.Answer{}, false
	}
	return core.Answer{Value: *a.Value}, true
}

// uiRequest is the common head of every extension_ui_request frame.
type uiRequest struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Method string `json:"method"`
}

func newRequest(id, method string) uiRequest {
	return uiRequest{Type: "extension_ui_request", ID: id, Method: method}
}

// millis is a timeout as the wire gives it; zero (no timeout) is omitted.
func millis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return max(d.Milliseconds(), 1)
}

// questionFrame is the extension_ui_request for q.
func questionFrame(q core.Question) any {
	switch q.Kind {
	case core.QuestionConfirm:
		return struct {
			uiRequest
			Title   string `json:"title"`
			Message string `json:"message"`
			Timeout int64  `json:"timeout,omitempty"`
		}{newRequest(q.ID, "confirm"), escape.Visible(q.Title), escape.Visible(q.Message), millis(q.Timeout)}
	case core.QuestionInput:
		return struct {
			uiRequest
			Title       string `json:"title"`
			Placeholder string `json:"placeholder,omitempty"`
			Timeout     int64  `json:"timeout,omitempty"`
		}{newRequest(q.ID, "input"), escape.Visible(q.Title), q.Hint, millis(q.Timeout)}
	case core.QuestionEditor:
		return struct {
			uiRequest
			Title   string `json:"title"`
			Prefill string `json:"prefill,omitempty"`
		}{newRequest(q.ID, "editor"), escape.Visible(q.Title), q.Prefill}
	}
	labels := make([]string, len(q.Options))
	for i, o := range q.Options {
		labels[i] = o.Label
	}
	// pi's select has no message, so a question's message (a protected
	// file's warning, the rule remembering would save) follows its title.
	// The title quotes the model's command or path: its control
	// characters go to the host escaped, so a terminal showing it shows
	// all of it.
	title := escape.Visible(q.Title)
	if q.Message != "" {
		title += " " + escape.Visible(q.Message)
	}
	return struct {
		uiRequest
		Title   string   `json:"title"`
		Options []string `json:"options"`
		Timeout int64    `json:"timeout,omitempty"`
	}{newRequest(q.ID, "select"), title, labels, millis(q.Timeout)}
}

// notifyFrame is a notify request as a frame, for the session's notices.
func notifyFrame(message string, level core.NotifyLevel) []byte {
	line, _ := marshal(struct {
		uiRequest
		Message    string `json:"message"`
		NotifyType string `json:"notifyType,omitempty"`
	}{newRequest(core.NewUUID(), "notify"), message, string(level)})
	return line
}

// decodeUIAnswer reads an extension_ui_response line's id and answer.
func decodeUIAnswer(c *command) (string, uiAnswer, bool) {
	id, err := c.str("id")
	if err != nil {
		return "", uiAnswer{}, false
	}
	var a uiAnswer
	// Fields of the wrong type resolve to the default, as in pi.
	if raw, ok := c.present("value"); ok {
		var v string
		if json.Unmarshal(raw, &v) == nil {
			a.Value = &v
		}
	}
	if raw, ok := c.present("confirmed"); ok {
		var v bool
		if json.Unmarshal(raw, &v) == nil {
			a.Confirmed = &v
		}
	}
	if raw, ok := c.present("cancelled"); ok {
		_ = json.Unmarshal(raw, &a.Cancelled)
	}
	return id, a, true
}
