package settings

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A settings file that is a named pipe is reported, not opened (the open
// would block start-up).
func TestPipeSettingsFileIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("no fifo here: %v", err)
	}
	if _, err := readFile(path); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v", err)
	}
}
