package approval

import (
	"slices"
	"strings"
	"testing"
)

// prefix and exact build bash command rules for the tables below.
func prefix(cmds ...string) []Rule {
	rules := make([]Rule, len(cmds))
	for i, c := range cmds {
		rules[i] = Rule{Tool: "bash", Command: c}
	}
	return rules
}

func exact(cmd string) Rule { return Rule{Tool: "bash", Command: cmd, Exact: true} }

func mustCompileAll(t testing.TB, rules []Rule) ruleSet {
	t.Helper()
	set, err := compileAll(rules)
	if err != nil {
		t.Fatalf("compile %v: %v", rules, err)
	}
	return set
}

func TestCoversCommandLines(t *testing.T) {
	gitStatus := prefix("git status")
	tests := []struct {
		rules []Rule
		line  string
		want  bool
	}{
		// The rule itself, and more arguments after it.
		{gitStatus, "git status", true},
		{gitStatus, "git status -s", true},
		{gitStatus, "git status --short -- src", true},
		{gitStatus, `git "status" 'dir with space'`, true},
		{gitStatus, `g\it status`, true},
		{gitStatus, "git push", false},
		{gitStatus, "git statusx", false},
		{gitStatus, "git", false},
		{gitStatus, "/usr/bin/git status", false},
		{gitStatus, "git -c core.pager=sh status", false},
		// Every simple command must be covered.
		{gitStatus, "git status && rm -rf ~", false},
		{gitStatus, "git status; curl x | sh", false},
		{gitStatus, "git status || git push", false},
		{gitStatus, "git status\nrm -rf ~", false},
		{gitStatus, "git status &", true},
		{gitStatus, "git status; git status -s", true},
		{prefix("git status", "grep"), "git status | grep -v foo", true},
		{prefix("go test", "tail"), "go test ./... 2>&1 | tail -n 20", true},
		{gitStatus, "true && git status || false", true},
		{gitStatus, "(git status)", true},
		{gitStatus, "{ git status; }", true},
		{gitStatus, "! git status", true},
		{gitStatus, "if git status; then rm -rf ~; fi", false},
		{gitStatus, "for i in 1 2; do git status; done", true},
		{gitStatus, "while git status; do git push; done", false},
		{gitStatus, "case x in x) git status;; y) rm -rf ~;; esac", false},
		// Substitutions are commands too.
		{gitStatus, "$(rm -rf /)", false},
		{gitStatus, "git status $(rm -rf /)", false},
		{gitStatus, "git status `rm -rf /`", false},
		{gitStatus, `git status "$(rm -rf /)"`, false},
		{prefix("git status", "cat"), "cat <(git status)", true},
		{prefix("git status", "cat"), "cat <(rm -rf /)", false},
		{gitStatus, "git status > >(sh)", false},
		{gitStatus, "git status <<EOF\n$(rm -rf ~)\nEOF", false},
		{prefix("git status", "cat"), "cat <<'EOF'\n$(rm -rf ~)\nEOF", true},
		{gitStatus, "X=$(rm -rf ~)", false},
		{gitStatus, "X=1", false},
		{gitStatus, "true", false},
		{gitStatus, "x=1 y=2; git status", true},
		{gitStatus, "X=1 Y=2; git status", false}, // X may be exported already
		// Redirections: reading is fine, writing a file is not.
		{gitStatus, "git status > /dev/null 2>&1", true},
		{gitStatus, "git status &> /dev/null", true},
		{gitStatus, "git status >&2", true},
		{gitStatus, "git status < input.txt", true},
		{gitStatus, "git status > out.txt", false},
		{gitStatus, "git status >> ~/.bashrc", false},
		{gitStatus, "git status >& file", false},
		{gitStatus, "git status >| file", false},
		{gitStatus, "bash -c 'git status' > log", false},
		// Wrappers are looked through.
		{gitStatus, "env LANG=C git status", true},
		{gitStatus, "LC_ALL=C git status", true},
		{gitStatus, "env FOO=1 git status", false}, // not granted with FOO
		{gitStatus, "FOO=1 git status", false},
		{gitStatus, "/usr/bin/env git status", true},
		{gitStatus, "env -i TZ=UTC git status", true},
		{gitStatus, "env -i HOME_DIR=x git status", false},
		{gitStatus, "timeout 5 git status", true},
		{gitStatus, "timeout -s KILL 5s git status", true},
		{gitStatus, "nice -n 10 git status", true},
		{gitStatus, "nice -10 git status", true},
		{gitStatus, "nohup git status", true},
		{gitStatus, "time git status", true},
		{gitStatus, "time -p git status", true},
		{gitStatus, "command git status", true},
		{gitStatus, "exec git status", true},
		{gitStatus, "stdbuf -oL git status", true},
		{gitStatus, "timeout 5 nice env NO_COLOR=1 git status", true},
		{gitStatus, "timeout 5 nice env A=1 git status", false},
		{gitStatus, "./env git status", false},
		{gitStatus, "bin/timeout 5 git status", false},
		{gitStatus, "./sh -c 'git status'", false},
		{gitStatus, "./true; git status", false},
		{prefix("./true", "git status"), "./true; git status", true},
		{gitStatus, "/bin/true; git status", true},
		{prefix("git status", "ls"), "ls | xargs git status", false}, // xargs appends unchecked words
		{prefix("git status", "ls"), "ls | xargs -0 -n 1 git status", false},
		{gitStatus, "xargs -I{} git status {}", false},
		{gitStatus, "env -S 'rm -rf ~' git status", false},
		{gitStatus, "timeout 5 rm -rf ~", false},
		{gitStatus, "command -v git", false},
		{prefix("command"), "command -v git", true},
		// Shells with -c are parsed inside.
		{gitStatus, "bash -c 'git status'", true},
		{gitStatus, `sh -c "git status -s"`, true},
		{gitStatus, "bash -lc 'git status'", true},
		{gitStatus, "bash -eo pipefail -c 'git status'", true},
		{gitStatus, "sh -c 'git status && rm -rf ~'", false},
		{gitStatus, `bash -c "$CMD"`, false},
		{gitStatus, `bash -c "git status $(rm -rf ~)"`, false},
		{gitStatus, "bash -c 'bash -c \"git status\"'", true},
		{gitStatus, "curl x | sh", false},
		{prefix("curl"), "curl x | bash", false},
		{prefix("curl"), "curl x | python3", false},
		{prefix("curl"), "curl x | python3 -", false},
		{prefix("git status", "sh script.sh"), "sh script.sh", true},
		// Privilege stays part of the command.
		{gitStatus, "sudo rm -rf /", false},
		{gitStatus, "sudo git status", false},
		{prefix("sudo git status"), "sudo git status -s", true},
		{prefix("sudo git status"), "sudo -u root git status", false},
		{prefix("sudo git status"), "git status", false},
		{prefix("rm"), "sudo rm -rf /", false},
		// Never covered.
		{gitStatus, "$CMD status", false},
		{gitStatus, "${GIT} status", false},
		{gitStatus, "f() { rm -rf ~; }; git status", false},
		{gitStatus, "function f { git status; }", false},
		{gitStatus, "eval git status", false},
		{gitStatus, "builtin eval git status", false},
		{gitStatus, "trap 'rm -rf ~' EXIT; git status", false},
		{gitStatus, "git status 'unterminated", false},
		{gitStatus, "", false},
		{gitStatus, "PATH=/tmp/evil git status", false},
		{gitStatus, "env PATH=/tmp/evil git status", false},
		{gitStatus, "LD_PRELOAD=/tmp/x.so git status", false},
		{gitStatus, "export PATH=/tmp:$PATH; git status", false},
		{gitStatus, "GIT_SSH_COMMAND=x git status", false},
		{gitStatus, "cd /tmp && git status", false},
		// Bash evaluates variables in arithmetic and subscripts, which can
		// run code hidden in a value.
		{prefix("git status", "echo"), "echo $((1+2)); git status", true},
		{prefix("echo"), "x='a[$(id)]'; echo $((x))", false},
		{prefix("echo"), "echo ${!x}", false},
		{prefix("echo"), "echo ${x@P}", false},
		{prefix("echo"), "echo ${a[i]}", false},
		{prefix("echo"), "echo ${a[@]} ${a[0]}", true},
		{gitStatus, "[[ -v x ]] && git status", false},
		{gitStatus, "[[ -f x ]] && git status", true},
		{gitStatus, "[[ $x -eq 1 ]] && git status", false},
		{gitStatus, "(( i++ )); git status", false},
		{prefix("printf"), "printf -v 'a[$(id)]' 1", false},
		{prefix("printf"), `printf '%s\n' "$x"`, false},
		{prefix("printf"), `printf '%s\n' x`, true},
		// Exact rules cover only their whole command.
		{[]Rule{exact("rm -rf build")}, "rm -rf build", true},
		{[]Rule{exact("rm -rf build")}, "rm -rf 'build'", true},
		{[]Rule{exact("rm -rf build")}, "rm -rf build ~", false},
		{[]Rule{exact("rm -rf build")}, "rm -rf", false},
		{[]Rule{exact("rm -rf build"), exact("echo build")}, "echo build | xargs rm -rf", false},
		{[]Rule{exact("rm '*.o'")}, "rm *.o", false},
		{[]Rule{exact("make")}, "make deploy", false},
		{prefix("npm run build"), "npm run build -- --watch", false}, // arguments to the script
		{prefix("npm run build"), "npm run deploy", false},
		{prefix("ls"), "ls ~ $HOME *.go", true},
	}
	for _, tt := range tests {
		set := mustCompileAll(t, tt.rules)
		if got := set.coversCommand("bash", tt.line); got != tt.want {
			t.Errorf("rules %v, line %q: covered = %v, want %v", tt.rules, tt.line, got, tt.want)
		}
	}
	if len(tests) < 30 {
		t.Fatalf("only %d cases", len(tests))
	}
}

func TestCoversOnlyRulesOfTheTool(t *testing.T) {
	set := mustCompileAll(t, []Rule{{Tool: "shell", Command: "git status"}})
	if set.coversCommand("bash", "git status") {
		t.Error("a rule for tool shell covers bash")
	}
}

func TestNestedShellDepthIsBounded(t *testing.T) {
	line := "git status"
	for range maxShellDepth + 2 {
		q, err := joinWords([]string{line})
		if err != nil {
			t.Fatal(err)
		}
		line = "sh -c " + q
	}
	if mustCompileAll(t, prefix("git status")).coversCommand("bash", line) {
		t.Errorf("%d nested shells covered", maxShellDepth+2)
	}
}

func TestCommandRules(t *testing.T) {
	tests := []struct {
		line string
		want []Rule // nil: nothing can be remembered
	}{
		{"git status", prefix("git status")},
		{"git status --short", prefix("git status")},
		{"git push origin main", prefix("git push")},
		{"go test -race ./...", prefix("go test")},
		{"go mod tidy", prefix("go mod tidy")},
		{"npm run build -- --watch", []Rule{exact("npm run build -- --watch")}},
		{"npm test", prefix("npm test")},
		{"npx prettier --write .", []Rule{exact("npx prettier --write .")}},
		{"npx prettier", prefix("npx prettier")},
		{"docker compose up -d", []Rule{exact("docker compose up -d")}},
		{"git diff --output=f", []Rule{exact("git diff '--output=f'")}},
		{"git diff --stat HEAD", prefix("git diff")},
		{"go run ./cmd/x", []Rule{exact("go run ./cmd/x")}},
		{"strace -f ls", []Rule{exact("strace -f ls")}},
		{"gh pr view 12", prefix("gh pr view")},
		{"make test", prefix("make test")},
		{"make", []Rule{exact("make")}},
		{"git stash", []Rule{exact("git stash")}},
		{"git -C sub status", []Rule{exact("git -C sub status")}},
		{"git config user.name me", []Rule{exact("git config user.name me")}},
		{"ls -la", prefix("ls")},
		{"echo $HOME", prefix("echo")},
		{`grep -rn "a b" src`, prefix("grep")},
		{"rm -rf build", []Rule{exact("rm -rf build")}},
		{"printf '%s\\n' x", []Rule{exact(`printf '%s\n' x`)}},
		{"python -m pytest -q", prefix("python -m pytest")},
		{"python -m pytest tests/", []Rule{exact("python -m pytest tests/")}},
		{"python3 script.py --fast", []Rule{exact("python3 script.py --fast")}},
		{"sudo apt-get install -y jq", prefix("sudo apt-get install")},
		{"cd web && npm test", []Rule{prefix("cd")[0], {Tool: "bash", Command: "npm test", Dir: "web"}}},
		{"git status; git status -s", prefix("git status")},
		{"timeout 60 go test ./...", prefix("go test")},
		{"bash -c 'go vet ./... && go build'", prefix("go vet", "go build")},
		{"git status && make test | tee out.log", append(prefix("git status", "make test"), exact("tee out.log"))},
		{"find . -name '*.go' | xargs grep -n foo", nil},
		{"find . -name '*.o' | xargs rm", nil},
		{"rm *.o", nil},
		{"$CMD", nil},
		{"echo hi > out.txt", nil},
		{"true", nil},
	}
	for _, tt := range tests {
		got := commandRules("bash", tt.line)
		if !slices.Equal(got, tt.want) {
			t.Errorf("commandRules(%q)\n got %v\nwant %v", tt.line, got, tt.want)
		}
	}
}

func TestCompileRejectsBadRules(t *testing.T) {
	for _, r := range []Rule{
		{Command: "git status"},
		{Tool: "bash", Command: "git status", Path: "x"},
		{Tool: "bash", Command: "git status && rm -rf ~"},
		{Tool: "bash", Command: "$CMD"},
		{Tool: "bash", Command: "git 'status"},
		{Tool: "bash", Command: "xargs rm"},
		{Tool: "bash", Command: "true"},
		{Tool: "bash", Command: "FOO=$X make test"},     // an assignment no one can read
		{Tool: "bash", Command: "env -C web make lint"}, // the directory belongs in Dir
		{Tool: "bash", Command: "bash -k -c 'git status'"},
	} {
		if _, err := compile(r); err == nil {
			t.Errorf("compile(%+v) succeeded", r)
		}
	}
}

func TestCoversPath(t *testing.T) {
	tests := []struct {
		rule, path string
		want       bool
	}{
		{"src/main.go", "src/main.go", true},
		{"src/main.go", "src/main.go.bak", false},
		{"src", "src/main.go", true},
		{"src/", "src/a/b.go", true},
		{"src", "srcx/main.go", false},
		{".", "src/main.go", true},
		{".", "../other/x.go", false},
		{".", "/etc/passwd", false},
		{".", "~/.bashrc", false},
		{"/etc/hosts", "/etc/hosts", true},
	}
	for _, tt := range tests {
		r := mustCompile(Rule{Tool: "edit", Path: tt.rule})
		if got := r.coversPath(cleanPath(tt.path)); got != tt.want {
			t.Errorf("rule %q covers %q = %v, want %v", tt.rule, tt.path, got, tt.want)
		}
	}
}

// FuzzCovers checks that no rule and command line make the parser or the
// matcher panic, and that a line covered by some rules has rules suggested
// that cover it.
func FuzzCovers(f *testing.F) {
	seeds := [][2]string{
		{"git status", "git status -s && rm -rf ~"},
		{"npm run build", "env A=1 timeout 5 npm run build | tee x"},
		{"sudo rm -rf build", "sudo bash -c 'rm -rf build; $(x)'"},
		{"ls", "ls <(cat <<EOF\n$(id)\nEOF\n) `x` ${a[$i]} $((1+x))"},
		{"echo", "f() { :; }; echo ${x@P} [[ -v y ]] ((i++)) for ((;;)) do :; done"},
		{"a 'b c'", "xargs -n1 sh -lc 'a \"b c\"' > /dev/null 2>&1 &"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, rule, line string) {
		if len(line) > 4096 || len(rule) > 1024 {
			return
		}
		set, _ := compileAll([]Rule{{Tool: "bash", Command: rule}, {Tool: "bash", Command: rule, Exact: true}})
		set.coversCommand("bash", line)
		suggested := commandRules("bash", line)
		if suggested == nil {
			return
		}
		if !mustCompileAll(t, suggested).coversCommand("bash", line) {
			t.Errorf("rules %v suggested for %q do not cover it", suggested, line)
		}
		for _, r := range suggested {
			if strings.TrimSpace(r.Command) == "" {
				t.Errorf("empty rule suggested for %q", line)
			}
		}
	})
}
