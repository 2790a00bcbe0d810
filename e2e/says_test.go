package e2e

import (
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

// The tests of this file drive the screens that say what is going on
// (issue 43) at the two sizes people use most, and, with -screenshots
// DIR, leave a PNG of each: NAME-120x40.png and NAME-80x24.png.

// saysSizes are the terminal sizes each screen is driven at.
var saysSizes = []struct{ cols, rows int }{{120, 40}, {80, 24}}

var shotFonts = sync.OnceValues(func() (*termimage.Fonts, error) { return termimage.LoadFonts(16) })

// shootSized writes the pane as docs/screenshots' NAME-COLSxROWS.png when
// screenshots were asked for.
func shootSized(t *testing.T, p *pane, name string, cols, rows int) {
	t.Helper()
	if *screenshotDir == "" {
		return
	}
	if err := os.MkdirAll(*screenshotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fonts, err := shotFonts()
	if err != nil {
		t.Fatal(err)
	}
	screen, err := termimage.ParseString(p.screenANSIWhole(), cols, rows)
	if err != nil {
		t.Fatal(err)
	}
	img, err := termimage.Render(screen, termimage.Options{Fonts: fonts, Padding: 12})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(*screenshotDir, fmt.Sprintf("%s-%dx%d.png", name, cols, rows))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// eachSize runs drive at each of saysSizes.
func eachSize(t *testing.T, drive func(t *testing.T, cols, rows int)) {
	for _, s := range saysSizes {
		t.Run(fmt.Sprintf("%dx%d", s.cols, s.rows), func(t *testing.T) { drive(t, s.cols, s.rows) })
	}
}

const reviewSkill = "---\nname: review\ndescription: Review a change for bugs.\n---\n" +
	"Read the change, list the bugs you find with their lines, then suggest fixes.\n"

const todoCall = `{"todos":[{"content":"Read the parser","status":"completed","activeForm":"Reading the parser"},` +
	`{"content":"List the bugs","status":"in_progress","activeForm":"Listing the bugs"},` +
	`{"content":"Suggest fixes","status":"pending","activeForm":"Suggesting fixes"}]}`

// TestSaysWhatWasTyped: /skill:name shows as typed, [skill] and the
// person's words; todo_write shows as the list; the list is put away when
// its run ends and /todos shows it again (items 1, 2, 3).
func TestSaysWhatWasTyped(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		writeFileAll(t, filepath.Join(h.home, ".cairn", "skills", "review", "SKILL.md"), reviewSkill)
		p := h.cairn("typed", cols, rows, "--approval", "yolo")
		p.waitText("test-model")
		h.llm.queue(
			reply{chunks: []string{"I'll keep a list."}, toolCalls: []fakeToolCall{{id: "call_t", name: "todo_write", arguments: todoCall}}},
			textReply("Reviewed: no bugs found.", 8),
		)
		p.typeText("/skill:review the parser in parse.go")
		p.keys("Enter")
		screen := p.waitText("Reviewed: no bugs found.", "tasks")
		p.waitGone("Working")
		for _, want := range []string{"[skill] review (ctrl+o to expand)", "the parser in parse.go", "▸ Listing the bugs", "1/3 done"} {
			if !strings.Contains(screen, want) {
				t.Errorf("no %q on screen:\n%s", want, frame(screen))
			}
		}
		for _, not := range []string{"<skill", "Keep it current", `"status"`} {
			if strings.Contains(screen, not) {
				t.Errorf("model-facing %q on screen:\n%s", not, frame(screen))
			}
		}
		shootSized(t, p, "typed-skill", cols, rows)

		h.llm.queue(textReply("You're welcome.", 8))
		p.typeText("thanks")
		p.keys("Enter")
		p.waitText("You're welcome.")
		p.waitGone("Working")
		p.typeText("/todos")
		p.keys("Enter")
		p.waitText("Todo 1/3")
		shootSized(t, p, "todos", cols, rows)

		// The rewind picker lists the prompt as typed.
		p.keys("Escape")
		p.keys("Escape")
		screen = p.waitText("Rewind to before which prompt?", "/skill:review the parser in parse.go")
		if strings.Contains(screen, "<skill") {
			t.Errorf("the rewind picker shows the skill's text:\n%s", frame(screen))
		}
		shootSized(t, p, "rewind-typed", cols, rows)
		p.keys("Escape")
	})
}

// TestSaysScrollbackOnQuit: with "scrollbackOnQuit": "all", quitting
// leaves the whole conversation in the terminal's scrollback (item 8).
func TestSaysScrollbackOnQuit(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		writeFileAll(t, filepath.Join(h.home, ".cairn", "settings.json"), `{"scrollbackOnQuit": "all"}`)
		p := h.cairn("quit", cols, rows)
		p.waitText("test-model")
		h.llm.queue(textReply("The first answer.", 8), textReply("The second answer.", 8))
		p.typeText("first question")
		p.keys("Enter")
		p.waitText("The first answer.")
		p.waitGone("Working")
		p.typeText("second question")
		p.keys("Enter")
		p.waitText("The second answer.")
		p.waitGone("Working")
		p.typeText("/quit")
		p.keys("Enter")
		status, history := p.waitExit()
		if status != "0" {
			t.Errorf("exit status %s", status)
		}
		for _, want := range []string{"first question", "The first answer.", "second question", "The second answer."} {
			if !strings.Contains(history, want) {
				t.Errorf("the scrollback lacks %q:\n%s", want, history)
			}
		}
		shootSized(t, p, "scrollback-all", cols, rows)
	})
}

// TestSaysPlanMode: plan mode's refusal and the accepted plan are shown
// in a person's words, the footer names shift+tab (items 2, 4).
func TestSaysPlanMode(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		writeFile(t, filepath.Join(h.project, "greet.go"), greetGo)
		p := h.cairn("plan", cols, rows)
		p.waitText("test-model", "(shift+tab)")
		p.keys("BTab")
		p.waitText("auto_edit")
		p.keys("BTab")
		p.waitText("⏸ plan mode")
		h.llm.queue(
			reply{chunks: []string{"Cleaning first."}, toolCalls: []fakeToolCall{{id: "call_rm", name: "bash", arguments: `{"command":"rm -rf build"}`}}},
			reply{chunks: []string{"Here is the plan."}, toolCalls: []fakeToolCall{{id: "call_p", name: "exit_plan_mode",
				arguments: `{"plan":"## Plan\n\n1. Add a **name** parameter to greet\n2. Run go vet"}`}}},
			textReply("Done.", 4),
		)
		p.typeText("Plan a friendlier greeting")
		p.keys("Enter")
		p.answerApproval("[e] accept", "e")
		screen := p.waitText("Accepted: cairn is now in", "Done.")
		for _, want := range []string{"plan mode runs only what reads", "leave plan mode with shift+tab"} {
			if !strings.Contains(strings.Join(strings.Fields(screen), " "), want) {
				t.Errorf("no %q on screen:\n%s", want, frame(screen))
			}
		}
		if box := screen[strings.LastIndex(screen, "plan ·"):]; strings.Contains(box, "**name**") {
			t.Errorf("the accepted plan is raw markdown:\n%s", frame(screen))
		}
		if strings.Contains(screen, "Carry out the plan") || strings.Contains(screen, "certainly just read") {
			t.Errorf("model-facing text on screen:\n%s", frame(screen))
		}
		shootSized(t, p, "plan-accepted", cols, rows)
	})
}

// TestSaysTrustAndWelcome: the trust question names what .mcp.json would
// run and the hooks the settings name; the welcome lists what was loaded
// (item 6).
func TestSaysTrustAndWelcome(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		writeFileAll(t, filepath.Join(h.home, ".cairn", "skills", "review", "SKILL.md"), reviewSkill)
		writeFile(t, filepath.Join(h.project, "AGENTS.md"), "Run go vet before you finish.\n")
		writeFile(t, filepath.Join(h.project, ".mcp.json"), `{"mcpServers":{"github":{"command":"npx","args":["-y","@modelcontextprotocol/server-github"],"disabled":true}}}`)
		writeFileAll(t, filepath.Join(h.project, ".cairn", "settings.json"), `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./scripts/check-command.sh"}]}]}}`)
		p := h.cairn("trust", cols, rows)
		screen := p.waitText("Trust ", "[y/N]")
		for _, want := range []string{"runs MCP server github: npx -y @modelcontextprotocol/server-github", "runs hook PreToolUse: ./scripts/check-command.sh"} {
			if !strings.Contains(strings.Join(strings.Fields(screen), " "), want) {
				t.Errorf("the question does not say %q:\n%s", want, frame(screen))
			}
		}
		shootSized(t, p, "trust-question", cols, rows)
		p.typeText("y")
		p.keys("Enter")
		screen = p.waitText("test-model", "Context", "Skills")
		for _, want := range []string{"AGENTS.md", "review", "github", "PreToolUse", "shift+tab switches the mode"} {
			if !strings.Contains(screen, want) {
				t.Errorf("the welcome does not list %q:\n%s", want, frame(screen))
			}
		}
		shootSized(t, p, "welcome", cols, rows)
	})
}

// TestSaysBackgroundAndPs: a background start shows as a person follows
// it; /ps shows its output, followed, and asks before killing (items 2,
// 9).
func TestSaysBackgroundAndPs(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		p := h.cairn("ps", cols, rows, "--approval", "yolo")
		p.waitText("test-model")
		h.llm.queue(
			reply{chunks: []string{"Starting the server."}, toolCalls: []fakeToolCall{{id: "call_bg", name: "bash",
				arguments: `{"command":"for i in 1 2 3; do echo serving request $i; done; exec sleep 300","run_in_background":true}`}}},
			textReply("The server runs in the background.", 8),
		)
		p.typeText("start the server")
		p.keys("Enter")
		screen := p.waitText("The server runs in the background.", "/ps shows its output")
		if strings.Contains(screen, "bash_output") || strings.Contains(screen, "kill_shell") {
			t.Errorf("the model's instructions are on screen:\n%s", frame(screen))
		}
		p.typeText("/ps")
		p.keys("Enter")
		p.waitText("enter shows its output or stops it")
		p.keys("Enter")
		p.waitText("Show its output", "Kill it…")
		p.keys("Enter")
		p.waitText("serving request 3", "following its output")
		shootSized(t, p, "ps-output", cols, rows)
		p.typeText("/ps")
		p.keys("Enter")
		p.waitText("enter shows its output or stops it")
		p.keys("Enter")
		p.waitText("Kill it…")
		p.keys("Down", "Enter")
		p.waitText("and everything it started?", "Yes, kill it")
		shootSized(t, p, "ps-kill", cols, rows)
		p.keys("Down", "Enter")
		p.waitText("Killed bash_1")
	})
}

// TestSaysExtensionDialogs: a dialog an extension opens names it (item
// 7).
func TestSaysExtensionDialogs(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, tmuxTerminal)
		installExamples(t, h)
		p := h.cairn("extdialog", cols, rows, "--approval", "yolo")
		p.waitText("test-model")
		p.typeText("/greet ann")
		p.keys("Enter")
		p.waitText("Extension greet: Pick a greeting", "Ahoy")
		shootSized(t, p, "extension-select", cols, rows)
		p.typeText("Ahoy")
		p.keys("Enter")
		p.waitText("⚑ extension greet asks", "Send it?")
		shootSized(t, p, "extension-confirm", cols, rows)
		p.answerApproval("Send it?", "y")
		p.waitText("greeted ann with Ahoy")
	})
}

// TestSaysSandbox: with the sandbox on, the footer says so, and a write it
// refuses is shown as the sandbox's, with what would allow it (item 5).
func TestSaysSandbox(t *testing.T) {
	eachSize(t, func(t *testing.T, cols, rows int) {
		h := newHarness(t, xtermTerminal)
		p := h.cairn("sandbox", cols, rows, "--sandbox")
		screen := p.waitText("test-model")
		if !strings.Contains(screen, "sandbox: writes project") {
			t.Skipf("the sandbox is not available here:\n%s", frame(screen))
		}
		p.typeText("!touch /etc/cairn-sandbox-test")
		p.keys("Enter")
		screen = p.waitText("exit 1")
		if !strings.Contains(screen, "sandbox blocked write to /etc/cairn-sandbox-test") {
			t.Skipf("this system refuses the write before the sandbox does (not root?):\n%s", frame(screen))
		}
		if !strings.Contains(screen, "allowWrite") {
			t.Errorf("the denial does not say what would allow it:\n%s", frame(screen))
		}
		shootSized(t, p, "sandbox-denied", cols, rows)
	})
}

// writeFileAll writes a file, making its directories.
func writeFileAll(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, text)
}
