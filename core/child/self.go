package child

import (
	"os"
	"path/filepath"
)

// Executable returns the executable cairn re-executes for its own helper
// processes (a sandboxed command's child, a command's reaper): cairn's own,
// except that the full build (cairn-tui, whose libraries take tens of
// milliseconds to initialise) uses the headless cairn installed beside it,
// which starts in a few.
func Executable() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if filepath.Base(self) == "cairn-tui" {
		lean := filepath.Join(filepath.Dir(self), "cairn")
		if info, err := os.Stat(lean); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return lean, nil
		}
	}
	return self, nil
}
