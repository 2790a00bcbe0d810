package main

import (
	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/extension"
)

// The session's tools for extensions (get_tools, set_tools): pi's
// getAllTools, getActiveTools and setActiveTools, over the switch the
// session reads its tools from.

var _ extension.ToolSwitcher = extensionHost{}

// AllTools lists every tool of the session, active or not.
func (h extensionHost) AllTools() []core.Tool {
	if h.tools == nil {
		return nil
	}
	return h.tools.All()
}

// ActiveTools names the tools the next request offers.
func (h extensionHost) ActiveTools() []string {
	if h.tools == nil {
		return nil
	}
	return h.tools.Active()
}

// SetActiveTools makes exactly names active and returns the unknown ones.
func (h extensionHost) SetActiveTools(names []string) []string {
	if h.tools == nil {
		return names
	}
	return h.tools.SetActive(names)
}
