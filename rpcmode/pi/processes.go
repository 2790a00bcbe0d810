package pi

import (
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/background"
)

// processData is one background process in list_processes and
// kill_process, cairn's own commands: a command the model started with
// bash's run_in_background.
type processData struct {
	ID          string `json:"id"`
	Command     string `json:"command"`
	Cwd         string `json:"cwd,omitempty"`
	Pid         int    `json:"pid"`
	Running     bool   `json:"running"`
	Status      string `json:"status"`
	ExitCode    *int   `json:"exitCode,omitempty"`
	StartedAt   int64  `json:"startedAt"`
	EndedAt     int64  `json:"endedAt,omitempty"`
	OutputPath  string `json:"outputPath"`
	OutputBytes int64  `json:"outputBytes"`
}

func newProcessData(i background.Info) processData {
	d := processData{
		ID: i.ID, Command: i.Command, Cwd: i.Dir, Pid: i.Pid, Running: i.Running, Status: i.Status(),
		StartedAt: i.Started.UnixMilli(), OutputPath: i.OutputPath, OutputBytes: i.OutputBytes,
	}
	if code, ok := i.ExitCode(); ok {
		d.ExitCode = &code
	}
	if !i.Ended.IsZero() {
		d.EndedAt = i.Ended.UnixMilli()
	}
	return d
}

// runningProcesses counts the session's background processes still running,
// for get_state.
func (s *server) runningProcesses() int {
	if t := s.sess.Processes(); t != nil {
		return t.Running()
	}
	return 0
}

// listProcesses answers list_processes: every background process of the
// session, oldest first, running or ended.
func (s *server) listProcesses(*command) (any, error) {
	list := []processData{}
	if t := s.sess.Processes(); t != nil {
		for _, i := range t.List() {
			list = append(list, newProcessData(i))
		}
	}
	return struct {
		Processes []processData `json:"processes"`
	}{list}, nil
}

// errNoProcesses answers kill_process in a session that cannot start any.
var errNoProcesses = errors.New("this session has no background processes")

// killProcess answers kill_process: it stops the process "processId" (the
// command's own "id" is its request id) and what it started, and answers
// once it has ended, with the process as it ended.
func (s *server) killProcess(c *command) (any, error) {
	id, err := c.str("processId")
	if err != nil {
		return nil, err
	}
	t := s.sess.Processes()
	if t == nil {
		return nil, errNoProcesses
	}
	info, err := t.Kill(s.ctx, id)
	switch {
	case errors.Is(err, background.ErrUnknown):
		return nil, fmt.Errorf("no background process has id %q (list_processes lists them)", id)
	case errors.Is(err, background.ErrExited):
		ended, _ := t.Info(id)
		return nil, fmt.Errorf("background process %s has already ended (%s)", id, ended.Status())
	case err != nil:
		return nil, err
	}
	return newProcessData(info), nil
}
