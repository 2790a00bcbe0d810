package extension

import (
	"errors"
	"strings"
	"testing"
)

// A flag no extension claims is refused with why: which extension could
// not start (node missing, say) or was still loading.
func TestCheckFlagsSaysWhichExtensionsDidNotStart(t *testing.T) {
	m := New([]Config{{Name: "pi", Err: errors.New("node is not on PATH")}}, Options{})
	m.Start()
	t.Cleanup(m.Close)
	m.WaitInitialized(t.Context())
	err := m.CheckFlags([]Flag{{Name: "plan"}})
	if err == nil || !strings.Contains(err.Error(), "unknown flag --plan") || !strings.Contains(err.Error(), "not running: pi (node is not on PATH)") {
		t.Fatalf("%v", err)
	}
	if err := m.CheckFlags(nil); err != nil {
		t.Fatal(err)
	}
}
