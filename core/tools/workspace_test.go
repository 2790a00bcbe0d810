package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/shell"
)

// fakeHostFS is an editor's file system: buffers by absolute path.
type fakeHostFS struct {
	mu            sync.Mutex
	buffers       map[string]string
	reads, writes []string
	noRead        bool // reads are not offered
	noWrite       bool // writes are not offered
	err           error
}

func (f *fakeHostFS) ReadTextFile(_ context.Context, path string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.noRead {
		return "", false, nil
	}
	f.reads = append(f.reads, path)
	if f.err != nil {
		return "", true, f.err
	}
	text, ok := f.buffers[path]
	if !ok {
		return "", true, errors.New("the editor has no file " + path)
	}
	return text, true, nil
}

func (f *fakeHostFS) WriteTextFile(_ context.Context, path, content string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.noWrite {
		return false, nil
	}
	f.writes = append(f.writes, path)
	if f.err != nil {
		return true, f.err
	}
	f.buffers[path] = content
	return true, nil
}

func hostTools(t *testing.T, fs HostFS, term HostTerminal) (string, map[string]core.Tool) {
	t.Helper()
	dir := t.TempDir()
	ws := NewWorkspace()
	ws.SetFS(fs)
	ws.SetTerminal(term)
	byName := map[string]core.Tool{}
	for _, tool := range NewIn(dir, ws) {
		byName[tool.Spec().Name] = tool
	}
	return dir, byName
}

func TestHostFSReadsTheEditorsBuffer(t *testing.T) {
	fs := &fakeHostFS{buffers: map[string]string{}}
	dir, ts := hostTools(t, fs, nil)
	writeFiles(t, dir, map[string]string{"a.txt": "on disk\n"})
	fs.buffers[filepath.Join(dir, "a.txt")] = "unsaved\nbuffer\n"
	fs.buffers[filepath.Join(dir, "only-in-editor.txt")] = "new buffer\n"

	if got := text(run(t, ts["read"], map[string]any{"path": "a.txt"})); got != "unsaved\nbuffer\n" {
		t.Errorf("read a.txt = %q, want the editor's buffer", got)
	}
	if got := text(run(t, ts["read"], map[string]any{"path": "only-in-editor.txt"})); got != "new buffer\n" {
		t.Errorf("read of a buffer never saved = %q", got)
	}
	res := run(t, ts["read"], map[string]any{"path": "missing.txt"})
	if !res.IsError || !strings.Contains(text(res), "the editor has no file") {
		t.Errorf("read of a file neither has = %+v, want the editor's error", res)
	}
}

func TestHostFSLeavesDirectoriesAndImagesLocal(t *testing.T) {
	fs := &fakeHostFS{buffers: map[string]string{}}
	dir, ts := hostTools(t, fs, nil)
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 32)
	writeFiles(t, dir, map[string]string{"img.png": png, "sub/x.txt": "x"})
	res := run(t, ts["read"], map[string]any{"path": "sub"})
	if !res.IsError || !strings.Contains(text(res), "Path is a directory") {
		t.Errorf("read of a directory = %+v", res)
	}
	res = run(t, ts["read"], map[string]any{"path": "img.png"})
	if !strings.Contains(text(res), "image") {
		t.Errorf("read of an image = %q, want the local image handling", text(res))
	}
	if len(fs.reads) != 0 {
		t.Errorf("the editor was asked for %v; directories and images are local", fs.reads)
	}
}

func TestHostFSWritesAndEditsThroughTheEditor(t *testing.T) {
	fs := &fakeHostFS{buffers: map[string]string{}}
	dir, ts := hostTools(t, fs, nil)
	res := run(t, ts["write"], map[string]any{"path": "new/dir/f.txt", "content": "hello\n"})
	if res.IsError {
		t.Fatalf("write: %s", text(res))
	}
	abs := filepath.Join(dir, "new", "dir", "f.txt")
	if fs.buffers[abs] != "hello\n" {
		t.Errorf("the editor holds %q, want the written text", fs.buffers[abs])
	}
	if _, err := os.Stat(abs); !os.IsNotExist(err) {
		t.Errorf("the local file was written too (stat err %v)", err)
	}
	if info, err := os.Stat(filepath.Dir(abs)); err != nil || !info.IsDir() {
		t.Errorf("the parent directories were not made: %v", err)
	}

	fs.buffers[abs] = "one\r\ntwo\r\n"
	res = run(t, ts["edit"], map[string]any{"path": abs, "edits": []map[string]string{{"oldText": "two", "newText": "2"}}})
	if res.IsError {
		t.Fatalf("edit: %s", text(res))
	}
	if fs.buffers[abs] != "one\r\n2\r\n" {
		t.Errorf("after the edit the editor holds %q, want CRLF kept", fs.buffers[abs])
	}
}

func TestHostFSWithoutACapabilityIsLocal(t *testing.T) {
	fs := &fakeHostFS{buffers: map[string]string{}, noRead: true, noWrite: true}
	dir, ts := hostTools(t, fs, nil)
	writeFiles(t, dir, map[string]string{"a.txt": "disk\n"})
	if got := text(run(t, ts["read"], map[string]any{"path": "a.txt"})); got != "disk\n" {
		t.Errorf("read = %q, want the local file", got)
	}
	run(t, ts["write"], map[string]any{"path": "b.txt", "content": "local"})
	if got := readBack(t, filepath.Join(dir, "b.txt")); got != "local" {
		t.Errorf("b.txt = %q", got)
	}
}

func TestHostFSErrorsReachTheModel(t *testing.T) {
	fs := &fakeHostFS{buffers: map[string]string{}, err: errors.New("the editor did not answer within 30s")}
	_, ts := hostTools(t, fs, nil)
	res := run(t, ts["write"], map[string]any{"path": "x.txt", "content": "x"})
	if !res.IsError || text(res) != "Could not write x.txt: the editor did not answer within 30s" {
		t.Errorf("write = %+v", res)
	}
}

// fakeTerminal runs nothing: it answers with a scripted run.
type fakeTerminal struct {
	got  TerminalCommand
	run  TerminalRun
	err  error
	wait bool // wait for ctx to end, then report a cancelled run
}

func (f *fakeTerminal) Run(ctx context.Context, c TerminalCommand, started func(string)) (TerminalRun, error) {
	f.got = c
	started("term-7")
	if f.wait {
		<-ctx.Done()
		return TerminalRun{Output: "partial\n", Exit: shell.Exit{Code: -1, Cancelled: true}}, nil
	}
	return f.run, f.err
}

func TestHostTerminalRunsBash(t *testing.T) {
	term := &fakeTerminal{run: TerminalRun{Output: "built\nfailed\n", Exit: shell.Exit{Code: 2}}}
	dir, ts := hostTools(t, nil, term)
	var updates []core.ToolUpdate
	res := runCtx(t, context.Background(), ts["bash"], map[string]any{"command": "make", "timeout": 5}, func(u core.ToolUpdate) { updates = append(updates, u) })
	if !res.IsError || text(res) != "built\nfailed\n\n\nCommand exited with code 2" {
		t.Errorf("result = %q", text(res))
	}
	if term.got.Line != "make" || term.got.Dir != dir || term.got.Timeout != 5*time.Second || term.got.Shell == "" || term.got.OutputLimit != HostOutputLimit {
		t.Errorf("the terminal got %+v", term.got)
	}
	if len(updates) != 1 || string(updates[0].Details) != `{"terminalId":"term-7"}` {
		t.Errorf("updates = %+v, want one naming the terminal", updates)
	}
}

func TestHostTerminalTruncatedOutputSaysSo(t *testing.T) {
	term := &fakeTerminal{run: TerminalRun{Output: "tail\n", Truncated: true}}
	_, ts := hostTools(t, nil, term)
	res := run(t, ts["bash"], map[string]any{"command": "yes"})
	if res.IsError || !strings.HasPrefix(text(res), "[The terminal kept only the end of the output") || !strings.HasSuffix(text(res), "tail\n") {
		t.Errorf("result = %q", text(res))
	}
}

func TestHostTerminalCancelled(t *testing.T) {
	term := &fakeTerminal{wait: true}
	_, ts := hostTools(t, nil, term)
	ctx, cancel := context.WithCancel(context.Background())
	res := runCtx(t, ctx, ts["bash"], map[string]any{"command": "sleep 100"}, func(core.ToolUpdate) { cancel() })
	if !res.IsError || text(res) != "partial\n\n\nCommand aborted" {
		t.Errorf("result = %q", text(res))
	}
}

func TestHostTerminalError(t *testing.T) {
	term := &fakeTerminal{err: errors.New("the editor refused terminal/create: no shell")}
	_, ts := hostTools(t, nil, term)
	res := run(t, ts["bash"], map[string]any{"command": "ls"})
	if !res.IsError || text(res) != "Could not run the command: the editor refused terminal/create: no shell" {
		t.Errorf("result = %q", text(res))
	}
}
