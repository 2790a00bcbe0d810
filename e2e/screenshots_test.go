package e2e

import (
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/scripts/screenshot/termimage"
)

var screenshotDir = flag.String("screenshots", "", "write PNG screenshots of cairn's main states into this directory")

// Screenshot size, in cells.
const shotCols, shotRows = 100, 30

// TestScreenshots drives cairn through its main states and writes a PNG of
// each (docs/screenshots, linked from the README). It runs only when asked:
//
//	go test ./e2e/ -run TestScreenshots -screenshots ../docs/screenshots
func TestScreenshots(t *testing.T) {
	if *screenshotDir == "" {
		t.Skip("pass -screenshots DIR to write the screenshots")
	}
	if err := os.MkdirAll(*screenshotDir, 0o755); err != nil {
		t.Fatal(err)
	}
	fonts, err := termimage.LoadFonts(16)
	if err != nil {
		t.Fatal(err)
	}
	shoot := func(t *testing.T, p *pane, name string) {
		t.Helper()
		writeShot(t, p, filepath.Join(*screenshotDir, name), fonts)
	}

	t.Run("first run", func(t *testing.T) {
		h := newHarness(t, xtermTerminal)
		p := h.tmux.start("first", shotCols, shotRows, h.project, cairnBin)
		p.waitText("No model is set up")
		shoot(t, p, "first-run.png")
	})

	t.Run("conversation", func(t *testing.T) {
		// Keys (never used: every request goes to the fake server) so that
		// the model picker lists the providers' models.
		h := newHarness(t, xtermTerminal, "ANTHROPIC_API_KEY=unused", "OPENAI_API_KEY=unused", "GEMINI_API_KEY=unused")
		writeFile(t, filepath.Join(h.project, "greet.go"), greetGo)
		writeFile(t, filepath.Join(h.project, "run.sh"), "#!/bin/sh\ngo run .\n")
		if err := os.Chmod(filepath.Join(h.project, "run.sh"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(h.project, "docs"), 0o755); err != nil {
			t.Fatal(err)
		}
		p := h.cairn("main", shotCols, shotRows)
		p.waitText("test-model")

		h.llm.queue(textReply(shotAnswer, 9))
		p.typeText("How do I print a greeting in Go?")
		p.keys("Enter")
		p.waitText("returns the string instead")
		p.waitGone("Working")
		shoot(t, p, "streamed-answer.png")

		h.llm.queue(reply{chunks: []string{"Let me count the Go files."},
			toolCalls: []fakeToolCall{{id: "call_1", name: "bash", arguments: `{"command":"ls *.go | wc -l"}`}}},
			textReply("There is one Go file.", 6))
		p.typeText("How many Go files are there?")
		p.keys("Enter")
		p.waitText(approvalPrompt)
		shoot(t, p, "tool-approval.png")
		p.answerApproval(approvalPrompt, "y")
		p.waitText("There is one Go file.")

		h.llm.queue(friendlierGreeting("call_2"), textReply("Done: greet.go now greets by name.", 8))
		p.typeText("Make the greeting friendlier")
		p.keys("Enter")
		p.waitText(approvalPrompt, "name :=")
		shoot(t, p, "edit-diff.png")
		p.answerApproval(approvalPrompt, "y")
		p.waitText("greets by name")

		p.typeText("!ls -l --color=always && printf '\\033[1;32m%s\\033[0m\\n' 'all good'")
		p.keys("Enter")
		p.waitText("exit 0")
		shoot(t, p, "bash-mode.png")

		p.typeText("/model")
		p.keys("Enter")
		p.waitText("claude")
		shoot(t, p, "model-picker.png")
		p.keys("Escape")
	})

	t.Run("plan mode and rewind", func(t *testing.T) {
		h := newHarness(t, xtermTerminal)
		writeFile(t, filepath.Join(h.project, "greet.go"), greetGo)
		p := h.cairn("plan", shotCols, shotRows)
		p.waitText("test-model")
		p.keys("BTab")
		p.waitText("auto_edit")
		p.keys("BTab")
		p.waitText("⏸ plan mode")
		h.llm.queue(
			reply{chunks: []string{"I read greet.go; here is the plan."}, toolCalls: []fakeToolCall{{id: "call_p", name: "exit_plan_mode",
				arguments: `{"plan":"1. Add a name parameter to greet\n2. Print \"Hello, <name>!\" from main\n3. Run go vet"}`}}},
			textReply("Plan accepted.", 4),
		)
		p.typeText("Plan a friendlier greeting")
		p.keys("Enter")
		p.waitText("[e] accept", "3. Run go vet")
		shoot(t, p, "plan-mode.png")
		p.answerApproval("[e] accept", "e")
		p.waitText("Plan accepted.")

		h.llm.queue(
			reply{chunks: []string{"Cleaning up."}, toolCalls: []fakeToolCall{{id: "call_rm", name: "bash", arguments: `{"command":"rm greet.go"}`}}},
			textReply("Removed greet.go.", 4),
		)
		p.typeText("remove greet.go")
		p.keys("Enter")
		p.answerApproval(approvalPrompt, "y")
		p.waitText("Removed greet.go.")
		p.keys("Escape")
		p.keys("Escape")
		p.waitText("Rewind to before which prompt?", "remove greet.go")
		p.keys("Enter")
		p.waitText("Restore code and conversation")
		shoot(t, p, "rewind.png")
		p.keys("Escape")
	})
}

// writeShot captures the pane with its colours and draws it as a PNG.
func writeShot(t *testing.T, p *pane, path string, fonts *termimage.Fonts) {
	t.Helper()
	screen, err := termimage.ParseString(p.screenANSIWhole(), shotCols, shotRows)
	if err != nil {
		t.Fatal(err)
	}
	img, err := termimage.Render(screen, termimage.Options{Fonts: fonts, Padding: 12})
	if err != nil {
		t.Fatal(err)
	}
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
	t.Logf("wrote %s", path)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// friendlierGreeting is an answer that edits greetGo to greet by name.
func friendlierGreeting(id string) reply {
	return reply{chunks: []string{"I'll make the greeting friendlier."},
		toolCalls: []fakeToolCall{{id: id, name: "edit", arguments: `{"path":"greet.go","edits":[{"oldText":"\tfmt.Println(\"hello\")\n","newText":"\tname := \"cairn\"\n\tfmt.Printf(\"Hello, %s!\\n\", name)\n"}]}`}}}
}

const greetGo = `package main

import "fmt"

func main() {
	fmt.Println("hello")
}
`

const shotAnswer = "## Printing a greeting\n\nUse the **fmt** package: `Println` writes its arguments and a newline.\n\n" +
	"```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\tname := \"cairn\"\n\tfmt.Printf(\"Hello, %s!\\n\", name)\n}\n```\n\n" +
	"- `Printf` formats with verbs such as `%s` and `%d`\n- `Sprintf` returns the string instead\n"
