package pi

import (
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// A prompt that runs an extension command is answered as pi 0.87.1
// answers it (checked against pi itself): when the command has finished,
// after what the command showed (its notify requests), and with no
// agent_settled of its own, since no agent ran. The server marks the
// prompt (markCommand) before it is sent and gives its response
// (markCommandAnswer) once known; the writer puts the response where the
// run's agent_settled would have gone.

// commandAnswer is the writer's state for such a prompt.
type commandAnswer struct {
	on      bool   // a command prompt is running
	settled bool   // its run settled before the response was known
	ran     bool   // an agent ran after all (the input was not handled)
	resp    []byte // the response, once known
}

// commandName is the name a "/name args" prompt gives, or "".
func commandName(text string) string {
	rest, ok := strings.CutPrefix(text, "/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, " ")
	return name
}

// namesExtensionCommand reports whether one of the commands listed is an
// extension's command called name.
func namesExtensionCommand(name string, commands []SlashCommand) bool {
	for _, c := range commands {
		if c.Source == "extension" && c.Name == name {
			return true
		}
	}
	return false
}

// isExtensionCommand reports whether text runs an extension command. The
// list is asked for only for a "/name" prompt (it may wait for extensions
// still starting, as the command itself would).
func (s *server) isExtensionCommand(text string) bool {
	name := commandName(text)
	if name == "" || s.host.Commands == nil {
		return false
	}
	return namesExtensionCommand(name, s.host.Commands())
}

// commandEvent takes e's turn while a command prompt runs: its
// agent_settled becomes the response. It reports whether e was consumed.
func (w *writer) commandEvent(e core.Event) bool {
	if !w.command.on {
		return false
	}
	switch e.(type) {
	case core.AgentStart:
		// The command did not take the input: the prompt ran as any other.
		w.command.ran = true
		if w.command.resp != nil {
			w.write(w.command.resp)
			w.command = commandAnswer{}
		}
	case core.Settled:
		if w.command.ran {
			w.command = commandAnswer{}
			return false
		}
		if w.command.resp != nil {
			w.write(w.command.resp)
			w.command = commandAnswer{}
		} else {
			w.command.settled = true
		}
		return true
	}
	return false
}

// commandAnswered places a command prompt's response: at once when its run
// settled already or no run follows (immediate: the prompt was refused),
// else when it settles.
func (w *writer) commandAnswered(resp []byte, immediate bool) {
	if immediate || w.command.settled || w.command.ran {
		w.write(resp)
		w.command = commandAnswer{}
		return
	}
	w.command.resp = resp
}
