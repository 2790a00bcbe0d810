package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkStart measures what the sandbox adds to starting a command:
// `sh -c true` plain, and through the re-exec with the rules of a real
// home (the denied paths split / and ~), with and without the namespace
// that keeps the control files read-only (and hides the denied paths and
// layers the toolchain caches). The sandbox's cost per command
// is the difference from plain.
func BenchmarkStart(b *testing.B) {
	requireLandlock(b)
	project := b.TempDir()
	home, _ := os.UserHomeDir()
	p, err := Config{Enabled: true}.Policy(Place{Project: project, Home: home,
		KeyFiles:  []string{filepath.Join(home, ".cairn", "models.json")},
		CacheRoot: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name           string
		sandbox, mount bool
	}{{"plain", false, false}, {"sandboxed", true, Probe().ProtectsControlFiles}, {"landlock-only", true, false}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				cmd := exec.Command("/bin/sh", "-c", "true")
				cmd.Dir = project
				if tc.sandbox {
					if err := wrap(cmd, p, tc.mount); err != nil {
						b.Fatal(err)
					}
				}
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %s", err, out)
				}
			}
		})
	}
}
