package sandbox

import (
	"slices"
	"strconv"
	"testing"
)

// olderABIEscapes are the escape attempts that get out on a kernel with an
// older Landlock ABI, measured by acting as one (ABIVar): what the sandbox
// does not hold there, as docs/sandbox.md says. ABI 4 has no signal
// scoping (ABI 6), so a command can signal processes outside the sandbox.
var olderABIEscapes = map[int][]string{
	4: {"signal cairn"},
	6: nil,
}

func TestOlderABI(t *testing.T) {
	requireLandlock(t)
	for abi, want := range olderABIEscapes {
		if abi > ABI() {
			continue
		}
		t.Run("ABI "+strconv.Itoa(abi), func(t *testing.T) {
			t.Setenv(ABIVar, strconv.Itoa(abi))
			r := newRig(t, Config{Enabled: true})
			held := r.hold(t)
			var got []string
			for _, e := range escapes {
				hits := r.hits.Load()
				out, _ := r.run(t, e.line, "FD="+strconv.Itoa(int(held.Fd())))
				if bad := r.escaped(t, out, hits); len(bad) > 0 {
					got = append(got, e.name)
					t.Logf("%s: %v", e.name, bad)
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("at ABI %d these got out: %q, want %q", abi, got, want)
			}
		})
	}
}
