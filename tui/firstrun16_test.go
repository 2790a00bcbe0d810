package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// firstRunLines are the lines cmd/cairn gives a first run (as of this
// change), with the key variables it lists.
var firstRunLines = []string{
	"No key yet? cairn --demo shows cairn at work on scripted answers, offline.",
	"",
	"Set an API key in the environment and start cairn again, for example:",
	"    export ANTHROPIC_API_KEY=sk-ant-…",
	"cairn looks for: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY.",
	"",
	"Or run a model on this machine (Ollama, llama.cpp, LM Studio, vLLM) and describe it in",
	"    ~/.cairn/models.json",
	`    {"providers": {"ollama": {"baseUrl": "http://localhost:11434/v1", "api": "openai-completions",`,
	`      "apiKey": "ollama", "models": [{"id": "qwen2.5-coder:14b"}]}}}`,
	"then start cairn with --model ollama/qwen2.5-coder:14b (llama.cpp's llama-server listens on",
	"http://localhost:8080/v1). See docs/configuration.md in cairn's repository.",
}

// TestFirstRunFitsAt80x24 shows the first-run text on an 80x24 terminal:
// it starts on screen, and none of it is cut off.
func TestFirstRunFitsAt80x24(t *testing.T) {
	r := newRig(t, rigOptions{firstRun: true})
	r.m.firstRun.Lines = firstRunLines
	r.m.tr.entries[0].touch()
	r.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	s := ansi.Strip(r.m.render())
	for _, want := range []string{"No model is set up", "No key yet?", "docs/configuration.md", "/help lists the commands"} {
		if !strings.Contains(s, want) {
			t.Fatalf("%q is not on the 80x24 screen:\n%s", want, s)
		}
	}
}
