package pi

import (
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/core/agent"
)

// errNothingToExport answers export_html before the session has a file.
var errNothingToExport = errors.New("nothing to export yet: the session file is written with the first answer, so send a prompt first")

// exportHTML writes the current session as an HTML page (Host.ExportHTML)
// and answers {"path": <absolute path>}. outputPath is optional; a relative
// path, like the default cairn-session-<session file name>.html, is taken
// from the working directory, as pi does.
func (s *server) exportHTML(c *command) (any, error) {
	out, _, err := c.optStr("outputPath")
	if err != nil {
		return nil, err
	}
	info := s.sess.Conversation()
	if info.File == "" {
		if s.sess.InMemory() {
			return nil, fmt.Errorf("cannot export to HTML: %w", agent.ErrNoSessionFile)
		}
		return nil, errNothingToExport
	}
	if s.host.ExportHTML == nil {
		return nil, errors.New("cannot export to HTML: this cairn was built without the exporter")
	}
	var model string
	if m := s.sess.State().Model; m.ID != "" {
		model = m.Provider + "/" + m.ID
	}
	path, err := s.host.ExportHTML(s.ctx, info.File, out, model)
	if err != nil {
		return nil, fmt.Errorf("cannot export to HTML: %w", err)
	}
	return struct {
		Path string `json:"path"`
	}{path}, nil
}
