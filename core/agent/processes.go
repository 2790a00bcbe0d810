package agent

import "github.com/cairn-dev/cairn/core/background"

// Processes returns the session's background commands, for front ends to
// list and stop (/ps, rpc list_processes); nil when the session has none
// (Config.Processes). The session owns them: Close kills them all.
func (s *Session) Processes() *background.Table { return s.cfg.Processes }

// closeProcesses kills the background commands and removes their output
// files.
func (s *Session) closeProcesses() {
	if s.cfg.Processes != nil {
		s.cfg.Processes.Close()
	}
}
