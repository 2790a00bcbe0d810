package main

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// TestExtensionShutdownStopsTheFrontEnd: an extension's ctx.shutdown is
// refused where the front end cannot be ended so, and elsewhere stops it
// once, when the agent is idle.
func TestExtensionShutdownStopsTheFrontEnd(t *testing.T) {
	fp := faux.New(faux.Options{})
	s, err := agent.New(agent.Config{Model: faux.Model,
		Open: func(core.Model) (agent.Connection, error) { return agent.Connection{Provider: fp}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	h := extensionHost{Session: s, hook: &shutdownHook{}}
	if err := h.RequestShutdown(); err == nil || !strings.Contains(err.Error(), "quit it as usual") {
		t.Errorf("no stop: %v", err)
	}
	stopped := make(chan struct{}, 2)
	h.hook.set(func() { stopped <- struct{}{} })
	for range 2 {
		if err := h.RequestShutdown(); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-stopped:
	case <-time.After(10 * time.Second):
		t.Fatal("not stopped")
	}
	select {
	case <-stopped:
		t.Error("stopped twice")
	default:
	}
}
