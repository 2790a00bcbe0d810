package pi

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/agent"
	"github.com/cairn-dev/cairn/core/export"
)

// errNothingToExport answers export_html before the session has a file.
var errNothingToExport = errors.New("nothing to export yet: the session file is written with the first answer, so send a prompt first")

// exportHTML writes the current session as an HTML page (core/export) and
// answers {"path": <absolute path>}. outputPath is optional; a relative
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
	doc, err := export.FromFile(info.File)
	if err != nil {
		return nil, fmt.Errorf("cannot export to HTML: %w", err)
	}
	if doc.Model == "" {
		if m := s.sess.State().Model; m.ID != "" {
			doc.Model = m.Provider + "/" + m.ID
		}
	}
	if out == "" {
		out = export.DefaultFileName(info.File)
	}
	path, err := filepath.Abs(out)
	if err != nil {
		return nil, fmt.Errorf("cannot export to HTML: %w", err)
	}
	if err := export.WriteFile(path, doc, export.Options{}); err != nil {
		return nil, fmt.Errorf("cannot export to HTML: %w", err)
	}
	return struct {
		Path string `json:"path"`
	}{path}, nil
}
