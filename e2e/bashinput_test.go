package e2e

import "testing"

// TestBashInput answers a `!cmd`'s prompt by typing into cairn, then stops
// a command with esc pressed twice.
func TestBashInput(t *testing.T) {
	h := newHarness(t, tmuxTerminal)
	p := h.cairn("bashin", 100, 30)
	p.waitText("test-model")

	t.Log("step 1: what is typed while a command runs goes to the command")
	p.typeText(`!read -p 'name? ' x; echo "hi $x"`)
	p.keys("Enter")
	p.waitText("name?", "keys go to the command · esc esc or ctrl+c stops it")
	p.typeText("bob")
	p.keys("Enter")
	p.waitText("hi bob", "exit 0")

	t.Log("step 2: esc twice stops a command")
	p.typeText("!sleep 30")
	p.keys("Enter")
	p.waitText("keys go to the command")
	p.keys("Escape")
	p.keys("Escape")
	p.waitText("stopped")
}
