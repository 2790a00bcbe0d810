package bashmode

import (
	"context"
	"errors"
	"testing"
)

func TestTermInputModes(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  InputModes
	}{
		{"none", "plain text", InputModes{}},
		{"bracketed paste on", "\x1b[?2004h", InputModes{BracketedPaste: true}},
		{"both in one sequence", "\x1b[?1;2004h", InputModes{AppCursor: true, BracketedPaste: true}},
		{"set then reset", "\x1b[?2004h\x1b[?1h\x1b[?2004l", InputModes{AppCursor: true}},
		{"other modes ignored", "\x1b[?25l\x1b[?1049h", InputModes{}},
		{"not private", "\x1b[1h\x1b[2004h", InputModes{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, term := feed(t, 80, 24, 100, tt.input)
			if term.modes != tt.want {
				t.Errorf("modes %+v, want %+v", term.modes, tt.want)
			}
		})
	}
}

func TestPasteBytes(t *testing.T) {
	tests := []struct {
		text      string
		bracketed bool
		want      string
	}{
		{"one line", false, "one line"},
		{"a\nb\r\nc", false, "a\rb\rc"},
		{"a\nb", true, "\x1b[200~a\rb\x1b[201~"},
		{"x\x1b[201~; rm -rf ~\n", true, "\x1b[200~x; rm -rf ~\r\x1b[201~"},
	}
	for _, tt := range tests {
		if got := string(pasteBytes(tt.text, tt.bracketed)); got != tt.want {
			t.Errorf("pasteBytes(%q, %v) = %q, want %q", tt.text, tt.bracketed, got, tt.want)
		}
	}
}

// TestRunSendAnswersPrompt types an answer to a prompt, as a person
// would at a `read -p`.
func TestRunSendAnswersPrompt(t *testing.T) {
	t.Parallel()
	r := start(t, context.Background(), `read -p 'name? ' x; echo "hi $x"`, Options{})
	waitFor(t, r, "name? ")
	for _, key := range []string{"b", "o", "x", "\x7f", "b", "\r"} {
		if err := r.Send([]byte(key)); err != nil {
			t.Fatal(err)
		}
	}
	res := finish(t, r)
	if want := "name? bob\nhi bob"; res.Output != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	if err := r.Send([]byte("x")); !errors.Is(err, ErrEnded) {
		t.Errorf("Send after the end: %v, want ErrEnded", err)
	}
}

// TestRunPaste pastes a line into a command that asked for bracketed
// paste and into one that did not.
func TestRunPaste(t *testing.T) {
	t.Parallel()
	const check = `IFS= read -r x; case "$x" in $'\e[200~'bob$'\e[201~') echo bracketed;; bob) echo plain;; *) echo "other $x";; esac`
	tests := []struct {
		name, setup, want string
	}{
		{"plain", `echo ready; `, "plain"},
		{"bracketed", `printf '\033[?2004hready\n'; `, "bracketed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := start(t, context.Background(), tt.setup+check, Options{})
			waitFor(t, r, "ready")
			if err := r.Paste("bob"); err != nil {
				t.Fatal(err)
			}
			if err := r.Send([]byte("\r")); err != nil {
				t.Fatal(err)
			}
			finish(t, r)
			waitFor(t, r, tt.want)
		})
	}
}

// TestRunSendFull: a command that never reads gets at most
// MaxPendingInput queued, and the run still ends on Cancel.
func TestRunSendFull(t *testing.T) {
	t.Parallel()
	r := start(t, context.Background(), `echo ready; sleep 30`, Options{})
	waitFor(t, r, "ready")
	chunk := make([]byte, 64<<10)
	for i := range chunk {
		chunk[i] = 'a'
	}
	var err error
	for range MaxPendingInput/len(chunk) + 64 {
		if err = r.Send(chunk); err != nil {
			break
		}
	}
	if !errors.Is(err, ErrInputFull) {
		t.Errorf("Send to a command that does not read: %v, want ErrInputFull", err)
	}
	r.Cancel()
	if res := finish(t, r); !res.Cancelled {
		t.Errorf("result %+v, want cancelled", res)
	}
}
