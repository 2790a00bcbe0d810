package export

import (
	"fmt"
	"path/filepath"
)

// Session exports the session file at file as one page and returns the
// page's absolute path. out is where the page goes (a relative path is
// taken from the working directory; "" means DefaultFileName(file) there);
// its directory must exist. model ("provider/model") names the model when
// the file names none. Every front end's export goes through here: the
// TUI's /export, `cairn --export` and rpc's export_html.
func Session(file, out, model string, opts Options) (string, error) {
	doc, err := FromFile(file)
	if err != nil {
		return "", err
	}
	if doc.Model == "" && model != "" && model != "/" {
		doc.Model = model
	}
	if out == "" {
		out = DefaultFileName(file)
	}
	path, err := filepath.Abs(out)
	if err != nil {
		return "", fmt.Errorf("export to %s: %w", out, err)
	}
	if err := WriteFile(path, doc, opts); err != nil {
		return "", err
	}
	return path, nil
}
