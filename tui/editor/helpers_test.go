package editor

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// namedKeys builds the key presses the tests use by name, the way Bubble
// Tea v2 reports them.
var namedKeys = map[string]tea.KeyPressMsg{
	"enter":         {Code: tea.KeyEnter},
	"shift+enter":   {Code: tea.KeyEnter, Mod: tea.ModShift},
	"alt+enter":     {Code: tea.KeyEnter, Mod: tea.ModAlt},
	"ctrl+j":        {Code: 'j', Mod: tea.ModCtrl},
	"up":            {Code: tea.KeyUp},
	"down":          {Code: tea.KeyDown},
	"left":          {Code: tea.KeyLeft},
	"right":         {Code: tea.KeyRight},
	"home":          {Code: tea.KeyHome},
	"end":           {Code: tea.KeyEnd},
	"tab":           {Code: tea.KeyTab},
	"esc":           {Code: tea.KeyEscape},
	"backspace":     {Code: tea.KeyBackspace},
	"delete":        {Code: tea.KeyDelete},
	"ctrl+w":        {Code: 'w', Mod: tea.ModCtrl},
	"ctrl+u":        {Code: 'u', Mod: tea.ModCtrl},
	"ctrl+k":        {Code: 'k', Mod: tea.ModCtrl},
	"ctrl+a":        {Code: 'a', Mod: tea.ModCtrl},
	"ctrl+e":        {Code: 'e', Mod: tea.ModCtrl},
	"alt+b":         {Code: 'b', Mod: tea.ModAlt},
	"alt+f":         {Code: 'f', Mod: tea.ModAlt},
	"alt+d":         {Code: 'd', Mod: tea.ModAlt},
	"alt+backspace": {Code: tea.KeyBackspace, Mod: tea.ModAlt},
	"ctrl+home":     {Code: tea.KeyHome, Mod: tea.ModCtrl},
	"ctrl+end":      {Code: tea.KeyEnd, Mod: tea.ModCtrl},
}

func keyMsg(t testing.TB, name string) tea.KeyPressMsg {
	t.Helper()
	k, ok := namedKeys[name]
	if !ok {
		t.Fatalf("no key named %q", name)
	}
	if k.String() != name {
		t.Fatalf("key %q reports itself as %q", name, k.String())
	}
	return k
}

// driver sends messages to an editor and runs the commands it returns,
// feeding InternalMsg results back in and keeping every other message.
type driver struct {
	t   testing.TB
	m   Model
	out []tea.Msg
}

func newDriver(t testing.TB, opts Options) *driver {
	t.Helper()
	d := &driver{t: t, m: New(opts)}
	d.run(d.m.Init())
	return d
}

func (d *driver) send(msg tea.Msg) *driver {
	d.t.Helper()
	var cmd tea.Cmd
	d.m, cmd = d.m.Update(msg)
	d.run(cmd)
	return d
}

func (d *driver) run(cmd tea.Cmd) {
	d.t.Helper()
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case InternalMsg:
		d.send(msg)
	default:
		d.out = append(d.out, msg)
	}
}

// keys presses the named keys in order.
func (d *driver) keys(names ...string) *driver {
	d.t.Helper()
	for _, n := range names {
		d.send(keyMsg(d.t, n))
	}
	return d
}

// typ types text one rune at a time.
func (d *driver) typ(text string) *driver {
	d.t.Helper()
	for _, r := range text {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return d
}

func (d *driver) paste(text string) *driver {
	d.t.Helper()
	return d.send(tea.PasteMsg{Content: text})
}

// take returns and forgets the messages the editor sent out.
func (d *driver) take() []tea.Msg {
	out := d.out
	d.out = nil
	return out
}

// submitted returns the SubmitMsgs sent since the last take.
func (d *driver) submitted() []SubmitMsg {
	var subs []SubmitMsg
	for _, msg := range d.take() {
		if s, ok := msg.(SubmitMsg); ok {
			subs = append(subs, s)
		}
	}
	return subs
}

// cursor returns the cursor's logical position.
func (d *driver) cursor() (row, col int) { return d.m.s.buf.row, d.m.s.buf.col }

// items returns the texts of the popup's items.
func (d *driver) items() []string {
	if !d.m.CompletionOpen() {
		return nil
	}
	var out []string
	for _, it := range d.m.s.comp.items {
		out = append(out, it.text)
	}
	return out
}
