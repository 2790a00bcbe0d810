package pi

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// UI is core.UI over pi's extension UI sub-protocol: dialogs (select,
// confirm, input, editor) become extension_ui_request frames and wait for
// the host's extension_ui_response with the same id; notify, setStatus,
// setWidget, setTitle and set_editor_text are sent without waiting.
// Approvals reach rpc hosts this way: the approval gate's Select is a select
// request whose title names the tool and the command or file.
//
// Create it with NewUI before the session (the approval gate needs it) and
// hand it to Serve in Host.UI. Timeouts are enforced here, not by the host:
// when one passes, or the asking context ends, the dialog resolves as
// cancelled and a late answer is ignored. While no Serve is running, dialogs
// resolve as cancelled at once and everything else is dropped. A UI's
// methods are safe for concurrent use.
type UI struct {
	mu      sync.Mutex
	send    func(line []byte) // nil while no server is attached
	pending map[string]chan uiAnswer
}

// uiAnswer is one extension_ui_response.
type uiAnswer struct {
	Value     *string `json:"value"`
	Confirmed *bool   `json:"confirmed"`
	Cancelled bool    `json:"cancelled"`
}

// NewUI returns a UI that is not yet attached to a server.
func NewUI() *UI { return &UI{pending: map[string]chan uiAnswer{}} }

// attach routes the UI's frames to send until detach.
func (u *UI) attach(send func(line []byte)) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.send = send
}

// detach stops sending and resolves every open dialog as cancelled.
func (u *UI) detach() {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.send = nil
	for id, ch := range u.pending {
		close(ch)
		delete(u.pending, id)
	}
}

// answer delivers a host's response to the dialog with id. Unknown, stale
// and fire-and-forget ids are ignored, as pi ignores them.
func (u *UI) answer(id string, a uiAnswer) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if ch, ok := u.pending[id]; ok {
		ch <- a // buffered: never blocks
		delete(u.pending, id)
	}
}

// uiRequest is the common head of every extension_ui_request frame.
type uiRequest struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Method string `json:"method"`
}

func newRequest(method string) uiRequest {
	return uiRequest{Type: "extension_ui_request", ID: newUUID(), Method: method}
}

// dialog sends a request and waits for its answer, the timeout or the end
// of ctx. ok is false when the dialog was not answered.
func (u *UI) dialog(ctx context.Context, id string, frame any, timeout time.Duration) (uiAnswer, bool) {
	if ctx.Err() != nil {
		return uiAnswer{}, false
	}
	line, err := marshal(frame)
	if err != nil {
		return uiAnswer{}, false
	}
	ch := make(chan uiAnswer, 1)
	u.mu.Lock()
	send := u.send
	if send != nil {
		u.pending[id] = ch
	}
	u.mu.Unlock()
	if send == nil {
		return uiAnswer{}, false
	}
	send(line)
	var expired <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expired = t.C
	}
	select {
	case a, ok := <-ch:
		if !ok || a.Cancelled {
			return uiAnswer{}, false
		}
		return a, true
	case <-ctx.Done():
	case <-expired:
	}
	u.mu.Lock()
	delete(u.pending, id)
	u.mu.Unlock()
	return uiAnswer{}, false
}

// fire sends a request that expects no answer.
func (u *UI) fire(frame any) {
	line, err := marshal(frame)
	if err != nil {
		return
	}
	u.mu.Lock()
	send := u.send
	u.mu.Unlock()
	if send != nil {
		send(line)
	}
}

// millis is a timeout as the wire gives it; zero (no timeout) is omitted.
func millis(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return max(d.Milliseconds(), 1)
}

// Select implements core.UI.
func (u *UI) Select(ctx context.Context, req core.SelectRequest) (string, bool) {
	r := newRequest("select")
	options := req.Options
	if options == nil {
		options = []string{}
	}
	a, ok := u.dialog(ctx, r.ID, struct {
		uiRequest
		Title   string   `json:"title"`
		Options []string `json:"options"`
		Timeout int64    `json:"timeout,omitempty"`
	}{r, req.Title, options, millis(req.Timeout)}, req.Timeout)
	if !ok || a.Value == nil {
		return "", false
	}
	return *a.Value, true
}

// Confirm implements core.UI.
func (u *UI) Confirm(ctx context.Context, req core.ConfirmRequest) (bool, bool) {
	r := newRequest("confirm")
	a, ok := u.dialog(ctx, r.ID, struct {
		uiRequest
		Title   string `json:"title"`
		Message string `json:"message"`
		Timeout int64  `json:"timeout,omitempty"`
	}{r, req.Title, req.Message, millis(req.Timeout)}, req.Timeout)
	if !ok || a.Confirmed == nil {
		return false, false
	}
	return *a.Confirmed, true
}

// Input implements core.UI.
func (u *UI) Input(ctx context.Context, req core.InputRequest) (string, bool) {
	r := newRequest("input")
	a, ok := u.dialog(ctx, r.ID, struct {
		uiRequest
		Title       string `json:"title"`
		Placeholder string `json:"placeholder,omitempty"`
		Timeout     int64  `json:"timeout,omitempty"`
	}{r, req.Title, req.Placeholder, millis(req.Timeout)}, req.Timeout)
	if !ok || a.Value == nil {
		return "", false
	}
	return *a.Value, true
}

// Editor implements core.UI. As in pi it has no timeout; it ends when the
// host answers or ctx ends.
func (u *UI) Editor(ctx context.Context, req core.EditorRequest) (string, bool) {
	r := newRequest("editor")
	a, ok := u.dialog(ctx, r.ID, struct {
		uiRequest
		Title   string `json:"title"`
		Prefill string `json:"prefill,omitempty"`
	}{r, req.Title, req.Prefill}, 0)
	if !ok || a.Value == nil {
		return "", false
	}
	return *a.Value, true
}

// Notify implements core.UI.
func (u *UI) Notify(message string, level core.NotifyLevel) {
	u.fire(notifyRequest(message, level))
}

// notifyFrame is a notify request as a frame, for the writer's notices.
func (u *UI) notifyFrame(message string, level core.NotifyLevel) []byte {
	line, _ := marshal(notifyRequest(message, level))
	return line
}

func notifyRequest(message string, level core.NotifyLevel) any {
	return struct {
		uiRequest
		Message    string `json:"message"`
		NotifyType string `json:"notifyType,omitempty"`
	}{newRequest("notify"), message, string(level)}
}

// SetStatus implements core.UI; empty text clears the status (the
// statusText key is then left out, as pi leaves it out).
func (u *UI) SetStatus(key, text string) {
	u.fire(struct {
		uiRequest
		StatusKey  string `json:"statusKey"`
		StatusText string `json:"statusText,omitempty"`
	}{newRequest("setStatus"), key, text})
}

// SetWidget implements core.UI; nil lines clear the widget.
func (u *UI) SetWidget(key string, lines []string, placement core.WidgetPlacement) {
	u.fire(struct {
		uiRequest
		WidgetKey       string   `json:"widgetKey"`
		WidgetLines     []string `json:"widgetLines,omitempty"`
		WidgetPlacement string   `json:"widgetPlacement,omitempty"`
	}{newRequest("setWidget"), key, lines, string(placement)})
}

// SetTitle implements core.UI.
func (u *UI) SetTitle(title string) {
	u.fire(struct {
		uiRequest
		Title string `json:"title"`
	}{newRequest("setTitle"), title})
}

// SetEditorText implements core.UI.
func (u *UI) SetEditorText(text string) {
	u.fire(struct {
		uiRequest
		Text string `json:"text"`
	}{newRequest("set_editor_text"), text})
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

// newUUID returns a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
