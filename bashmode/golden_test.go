package bashmode

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// recordings are outputs in the style of common tools, written for these
// tests: what each does to a terminal is what the golden files show.
var recordings = []struct {
	name  string
	cols  int
	input string
}{
	{"docker-build", 80, "" +
		"#1 [internal] load build definition\n#2 [1/3] FROM alpine\n" +
		"\x1b[2A\x1b[K#1 [internal] load build definition \x1b[34mDONE 0.1s\x1b[0m\n\x1b[K#2 [1/3] FROM alpine 0.5s\n" +
		"\x1b[1A\x1b[K#2 [1/3] FROM alpine \x1b[34mDONE 0.9s\x1b[0m\n#3 [2/3] RUN make\n#3 0.201 cc -o app main.c\n"},
	{"npm-spinner", 80, "\x1b[?25l" +
		"\r\x1b[K⠋ idealTree:lodash" + "\r\x1b[K⠙ reify:lodash: \x1b[36mhttp\x1b[0m fetch GET 200" +
		"\r\x1b[K⠹ reify:lodash" + "\r\x1b[K" +
		"\nadded 1 package, and audited 2 packages in 1s\n\n\x1b[32m\x1b[1mfound\x1b[22m\x1b[39m \x1b[1m0\x1b[22m vulnerabilities\n\x1b[?25h"},
	{"cargo-build", 60, "" +
		"\x1b[1m\x1b[32m   Compiling\x1b[0m serde v1.0.200\n" +
		"\x1b[1m\x1b[36m    Building\x1b[0m [=====>           ] 3/10: serde\r" +
		"\x1b[1m\x1b[36m    Building\x1b[0m [===========>     ] 7/10: app\r" +
		"\x1b[K\x1b[1m\x1b[32m    Finished\x1b[0m `dev` profile [unoptimized] target(s) in 1.20s\n"},
	{"rich-live", 80, "\x1b[?25l" +
		"Downloading a.whl \x1b[38;2;249;38;114m━━━━\x1b[0m\x1b[38;5;237m━━━━━━\x1b[0m 40%\n" +
		"Downloading b.whl \x1b[38;5;237m━━━━━━━━━━\x1b[0m  0%" +
		"\r\x1b[2K\x1b[1A\x1b[2K" +
		"Downloading a.whl \x1b[38;2;114;156;31m━━━━━━━━━━\x1b[0m 100%\n" +
		"Downloading b.whl \x1b[38;2;249;38;114m━━━━━\x1b[0m\x1b[38;5;237m━━━━━\x1b[0m 50%\n\x1b[?25h"},
	{"git-clone", 80, "Cloning into 'repo'...\n" +
		"Receiving objects:  10% (1/10)\rReceiving objects:  60% (6/10)\rReceiving objects: 100% (10/10), done.\n" +
		"Resolving deltas: 100% (3/3), done.\n"},
	{"pytest", 40, "\x1b[1m===== test session starts =====\x1b[0m\n" +
		"tests/test_a.py \x1b[32m.\x1b[0m\x1b[32m.\x1b[0m\x1b[31mF\x1b[0m\x1b[31m                        [100%]\x1b[0m\n" +
		"\x1b[31mFAILED\x1b[0m tests/test_a.py::test_wide_名前 - assert 1 == 2\n"},
	{"ls-color", 80, "\x1b[0m\x1b[01;34mdir\x1b[0m  \x1b[01;32mrun.sh\x1b[0m  notes.txt\n"},
}

func TestTermGolden(t *testing.T) {
	for _, rec := range recordings {
		t.Run(rec.name, func(t *testing.T) {
			s, term := feed(t, rec.cols, 24, 2000, rec.input)
			var b strings.Builder
			for _, line := range s.Lines {
				fmt.Fprintf(&b, "%q\n", line)
			}
			fmt.Fprintf(&b, "--- total %d, dropped %d; plain text:\n%s\n", s.Total, s.Dropped, term.Plain())
			path := filepath.Join("testdata", rec.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if b.String() != string(want) {
				t.Errorf("screen differs from %s:\n got:\n%s\nwant:\n%s", path, b.String(), want)
			}
		})
	}
}
