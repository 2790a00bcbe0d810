package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// escapes are ways out of the sandbox a command might try. Each line runs
// in the project with $PROJ, $TH (the test home, with fake keys), $OUT (a
// directory outside every writable place, holding victim), $PORT (a test
// server) and $CAIRN_PID (the test process, standing in for cairn); a line
// prints ESCAPED only after the forbidden step worked. rig.escaped checks
// what each must not have changed.
var escapes = []struct {
	name, line string
	// cloexec: blocked without the sandbox too, by cairn opening its
	// files close-on-exec.
	cloexec bool
}{
	{"write /etc", "touch /etc/cairn-pwned", false},
	{"write outside", "echo x > $OUT/pwned", false},
	{"append outside", "echo x >> $OUT/victim", false},
	{"truncate outside", "truncate -s0 $OUT/victim || : > $OUT/victim", false},
	{"remove outside", "rm -f $OUT/victim", false},
	{"mkdir outside", "mkdir $OUT/newdir", false},
	{"mkfifo outside", "mkfifo $OUT/fifo", false},
	{"read ssh key", "cat $TH/.ssh/id_rsa", false},
	{"read aws", "cat $TH/.aws/credentials", false},
	{"read gcloud", "cat $TH/.config/gcloud/key.json", false},
	{"read models.json", "cat $TH/.cairn/models.json", false},
	{"glob ssh", "cat $TH/.ssh/*", false},
	{"relative read", "cd $TH && cat .ssh/id_rsa", false},
	{"dotdot read", "cat ../home/./.ssh/../.ssh/id_rsa", false},
	{"copy key in", "cp $TH/.ssh/id_rsa stolen; cat stolen", false},
	{"tar key", "tar cf k.tar -C $TH .ssh; tar xOf k.tar", false},
	{"write ssh authorized_keys", "echo key > $TH/.ssh/pwned", false},
	{"write home", "echo x > $TH/pwned", false},
	{"symlink dir out", "ln -s $OUT out && echo x > out/pwned", false},
	{"symlink to key", "ln -s $TH/.ssh/id_rsa k && cat k", false},
	{"symlink to ssh dir", "ln -s $TH/.ssh s && cat s/id_rsa", false},
	{"hard link key", "ln $TH/.ssh/id_rsa hk && cat hk", false},
	{"hard link outside file", "ln $OUT/victim hv && echo x >> hv", false},
	{"dotdot write", "echo x > ../outside/pwned", false},
	{"abs dotdot write", "echo x > $PROJ/../outside/pwned", false},
	{"cd out and write", "cd .. && echo x > outside/pwned", false},
	{"proc self root write", "echo x > /proc/self/root$OUT/pwned", false},
	{"proc self root read", "cat /proc/self/root$TH/.ssh/id_rsa", false},
	{"proc cwd", "cd $OUT && echo x > /proc/self/cwd/pwned", false},
	{"cairn's environ", "cat /proc/$CAIRN_PID/environ | tr '\\0' '\\n' | grep -q '^PATH=' && echo ESCAPED", false},
	{"cairn's root", "echo x > /proc/$CAIRN_PID/root$OUT/pwned", false},
	{"cairn's fds", "echo x >> /proc/$CAIRN_PID/fd/$FD", false},
	{"signal cairn", "kill -0 $CAIRN_PID && echo ESCAPED", false},
	{"child forks and writes", "sh -c 'sh -c \"echo x > $OUT/pwned\" & wait'", false},
	{"setsid child", "setsid -w sh -c 'echo x > $OUT/pwned'", false},
	{"nohup child", "nohup sh -c 'echo x > $OUT/pwned' >/dev/null 2>&1", false},
	{"clean env", "env -i /bin/sh -c \"echo x > $OUT/pwned\"", false},
	{"LD_PRELOAD", "LD_PRELOAD=$(ls /lib/*/libc.so.6 /lib64/libc.so.6 2>/dev/null | head -1) touch $OUT/pwned", false},
	{"inherited fd", "echo x >&$FD", true},
	{"rename out", "echo x > f && mv f $OUT/pwned", false},
	{"rename in", "mv $OUT/victim stolen", false},
	{"dd", "echo x | dd of=$OUT/pwned", false},
	{"tee", "echo x | tee $OUT/pwned", false},
	{"python write", "python3 -c \"open('$OUT/pwned','w').write('x')\"", false},
	{"python read", "python3 -c \"print(open('$TH/.ssh/id_rsa').read())\"", false},
	{"control: append AGENTS.md", "echo x >> AGENTS.md", false},
	{"control: write .cairn", "echo '{\"x\":1}' > .cairn/settings.json", false},
	{"control: new file in .cairn", "echo x > .cairn/approvals.json && echo ESCAPED", false},
	{"control: git hook", "echo 'rm -rf /' >> .git/hooks/pre-commit", false},
	{"control: git config", "echo '[core] fsmonitor=evil' >> .git/config", false},
	{"control: remove AGENTS.md", "rm -f AGENTS.md", false},
	{"control: replace AGENTS.md", "echo evil > x && mv -f x AGENTS.md", false},
	{"control: rename .cairn", "mv .cairn gone && mkdir .cairn && echo ESCAPED", false},
	{"control: umount", "umount $PROJ/AGENTS.md; echo x >> AGENTS.md", false},
	{"control: new namespace", "unshare -Urm sh -c 'umount $PROJ/AGENTS.md; echo x >> $PROJ/AGENTS.md'", false},
	{"curl", "curl -sS --max-time 5 http://127.0.0.1:$PORT/", false},
	{"bash /dev/tcp", "bash -c 'exec 3<>/dev/tcp/127.0.0.1/$PORT && printf \"GET / HTTP/1.0\\r\\n\\r\\n\" >&3 && cat <&3'", false},
	{"python connect", "python3 -c \"import socket; s=socket.create_connection(('127.0.0.1',$PORT)); print('ESCAPED')\"", false},
	{"python bind", "python3 -c \"import socket; s=socket.socket(); s.bind(('127.0.0.1',0)); s.listen(); print('ESCAPED')\"", false},
	{"curl by name", "curl -sS --max-time 5 http://localhost:$PORT/", false},
	// Issue 38: everything that changes what git runs, Unix sockets, UDP.
	{"git: replace .git", "mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && echo '[core] fsmonitor=evil' >> .git/config", false},
	{"git: rename .git", "mv .git .git-old", false},
	{"git: commondir", "echo ../evil > .git/commondir", false},
	{"git: info", "mkdir -p .git/info && echo '* filter=x' > .git/info/attributes", false},
	{"git: alternates", "mkdir -p .git/objects/info && echo /tmp > .git/objects/info/alternates", false},
	{"git: config.worktree", "echo '[core] fsmonitor=evil' > .git/config.worktree", false},
	{"git: HEAD", "echo evil > .git/HEAD", false},
	{"git: python replace", "python3 -c \"import os; os.rename('.git', '.git-old')\"", false},
	{"unix socket: python", "python3 -c \"import socket; s=socket.socket(socket.AF_UNIX); s.connect('$SOCK'); print('ESCAPED')\"", false},
	{"unix socket: curl", "curl -sS --max-time 5 --unix-socket $SOCK http://x/ ; test $? -eq 52 && echo ESCAPED", false},
	{"udp: python sendto", "python3 -c \"import socket; s=socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'x', ('127.0.0.1', $UPORT)); print('ESCAPED')\"", false},
	{"udp: bash", "bash -c 'echo x > /dev/udp/127.0.0.1/$UPORT' && echo ESCAPED", false},
}

// Every escape attempt in the table is blocked.
func TestEscapes(t *testing.T) {
	requireLandlock(t)
	if len(escapes) < 40 {
		t.Fatalf("only %d escape attempts", len(escapes))
	}
	r := newRig(t, Config{Enabled: true})
	// A file cairn holds open for writing: close-on-exec, as Go opens
	// every file, so the command cannot write through it.
	held := r.hold(t)
	for _, e := range escapes {
		t.Run(e.name, func(t *testing.T) {
			hits := r.hits.Load()
			out, _ := r.run(t, e.line, "FD="+strconv.Itoa(int(held.Fd())))
			if bad := r.escaped(t, out, hits); len(bad) > 0 {
				t.Errorf("%s: %v\noutput: %s", e.line, bad, out)
			}
			if info, err := held.Stat(); err != nil || info.Size() != 0 {
				t.Errorf("%s: wrote through cairn's open file", e.line)
			}
		})
	}
}

// Without the sandbox every attempt in the table gets out (but those that
// cairn's close-on-exec files stop): the table tries real escapes.
func TestEscapesWithoutSandbox(t *testing.T) {
	for _, e := range escapes {
		t.Run(e.name, func(t *testing.T) {
			r := newRig(t, Config{Enabled: true})
			r.unsandboxed = true
			held := r.hold(t)
			out, _ := r.run(t, e.line, "FD="+strconv.Itoa(int(held.Fd())))
			bad := r.escaped(t, out, 0)
			if info, err := held.Stat(); err == nil && info.Size() != 0 {
				bad = append(bad, "wrote through cairn's open file")
			}
			if got := len(bad) > 0; got == e.cloexec {
				t.Errorf("%s: escaped %v without the sandbox, want %v\noutput: %s", e.line, got, !e.cloexec, out)
			}
		})
	}
}

// hold opens a file outside, for writing, as cairn holds files: a command
// must not be able to write through it.
func (r *rig) hold(t *testing.T) *os.File {
	t.Helper()
	held, err := os.OpenFile(filepath.Join(r.outside, "held"), os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { held.Close() })
	return held
}
