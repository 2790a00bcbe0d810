package pihome

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestUpdateAuthWritesAsPi: the entry is replaced in place, the other
// entries keep their order and bytes, the layout is JSON.stringify's with
// two spaces and no final newline, the file keeps its mode, and the lock
// is gone afterwards.
func TestUpdateAuthWritesAsPi(t *testing.T) {
	dir := t.TempDir()
	path := AuthFile(dir)
	before := "{\n  \"zeta\": {\n    \"type\": \"api_key\",\n    \"key\": \"<&>\"\n  },\n  \"anthropic\": {\n    \"type\": \"oauth\",\n    \"access\": \"old\",\n    \"refresh\": \"r\",\n    \"expires\": 1\n  },\n  \"alpha\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  }\n}"
	if err := os.WriteFile(path, []byte(before), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil {
		t.Fatal(err)
	}
	next, _ := MarshalOrdered(Member{"type", "oauth"}, Member{"refresh", "r2"}, Member{"access", "new"}, Member{"expires", int64(1700000000000)}, Member{"enterpriseUrl", nil})
	var seen json.RawMessage
	got, err := UpdateAuth(context.Background(), path, "anthropic", func(cur json.RawMessage) (json.RawMessage, error) {
		seen = cur
		return next, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, err := ParseCredential(seen); err != nil || c.Access != "old" {
		t.Fatalf("change saw %s (%v)", seen, err)
	}
	if string(got) != string(next) {
		t.Errorf("returned %s, want %s", got, next)
	}
	want := "{\n  \"zeta\": {\n    \"type\": \"api_key\",\n    \"key\": \"<&>\"\n  },\n  \"anthropic\": {\n    \"type\": \"oauth\",\n    \"refresh\": \"r2\",\n    \"access\": \"new\",\n    \"expires\": 1700000000000\n  },\n  \"alpha\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  }\n}"
	data, _ := os.ReadFile(path)
	if string(data) != want {
		t.Errorf("file =\n%s\nwant\n%s", data, want)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640 kept", st.Mode().Perm())
	}
	if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock is left behind: %v", err)
	}
	// A change that returns nothing leaves the file alone.
	st1, _ := os.Stat(path)
	if _, err := UpdateAuth(context.Background(), path, "alpha", func(json.RawMessage) (json.RawMessage, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if st2, _ := os.Stat(path); !os.SameFile(st1, st2) {
		t.Error("a change returning nil rewrote the file")
	}
}

// TestUpdateAuthNewFileIsPrivate: a missing file and directory are made
// as pi makes them (0700, 0600) and the entry added.
func TestUpdateAuthNewFileIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent", "auth.json")
	entry := json.RawMessage(`{"type":"api_key","key":"k"}`)
	if _, err := UpdateAuth(context.Background(), path, "openai", func(cur json.RawMessage) (json.RawMessage, error) {
		if cur != nil {
			t.Errorf("a new file had an entry: %s", cur)
		}
		return entry, nil
	}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if string(data) != "{\n  \"openai\": {\n    \"type\": \"api_key\",\n    \"key\": \"k\"\n  }\n}" {
		t.Errorf("file = %s", data)
	}
	st, _ := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v, want 0600 and 0700", st.Mode().Perm(), dst.Mode().Perm())
	}
}

// TestUpdateAuthWaitsForPisLock: while another process holds pi's lock
// (the directory auth.json.lock), nothing is written; once it is released
// the update goes through. A lock older than pi's stale limit is taken
// over, as pi does.
func TestUpdateAuthWaitsForPisLock(t *testing.T) {
	dir := t.TempDir()
	path := AuthFile(dir)
	if err := os.WriteFile(path, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path+".lock", 0o777); err != nil {
		t.Fatal(err)
	}
	entered := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		_, err := UpdateAuth(context.Background(), path, "a", func(json.RawMessage) (json.RawMessage, error) {
			close(entered)
			return json.RawMessage(`{"type":"api_key","key":"k"}`), nil
		})
		done <- err
	}()
	select {
	case <-entered:
		t.Fatal("the update ran while pi held the lock")
	case <-time.After(200 * time.Millisecond): // a bounded look for something that must not happen
	}
	if err := os.Remove(path + ".lock"); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the update did not go through once the lock was released")
	}

	// A stale lock is taken over at once.
	if err := os.Mkdir(path+".lock", 0o777); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-lockStale - time.Second)
	if err := os.Chtimes(path+".lock", old, old); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := UpdateAuth(ctx, path, "b", func(json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"type":"api_key","key":"k"}`), nil
	}); err != nil {
		t.Fatalf("a stale lock was not taken over: %v", err)
	}
	// A held lock and a cancelled wait: the caller's bound is kept.
	if err := os.Mkdir(path+".lock", 0o777); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := UpdateAuth(ctx, path, "c", func(json.RawMessage) (json.RawMessage, error) { return nil, nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a wait past the caller's deadline: %v", err)
	}
}

// TestUpdateAuthRefusesWhatPiRefuses: a file that is no JSON object is
// left alone and the error says which file.
func TestUpdateAuthRefusesWhatPiRefuses(t *testing.T) {
	path := AuthFile(t.TempDir())
	for _, bad := range []string{`[]`, `{"a": }`, `{} {}`, `"x"`} {
		if err := os.WriteFile(path, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := UpdateAuth(context.Background(), path, "a", func(json.RawMessage) (json.RawMessage, error) {
			return json.RawMessage(`{}`), nil
		})
		if err == nil {
			t.Errorf("%s was rewritten", bad)
		}
		if data, _ := os.ReadFile(path); string(data) != bad {
			t.Errorf("%s became %s", bad, data)
		}
	}
}

func FuzzParseOrderedObject(f *testing.F) {
	f.Add([]byte(`{"a": {"type": "oauth"}, "b": 1, "a": 2}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(""))
	f.Add([]byte(`{"\u00e9<": [1, {"x": null}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		o, err := parseOrderedObject(data)
		if err != nil {
			return
		}
		out, err := o.indent()
		if err != nil {
			t.Fatalf("indent: %v", err)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("wrote invalid JSON %q: %v", out, err)
		}
		if len(v) != len(o.keys) {
			t.Fatalf("%d members written, %d read", len(v), len(o.keys))
		}
		again, err := parseOrderedObject(out)
		if err != nil || len(again.keys) != len(o.keys) {
			t.Fatalf("the output does not read back: %v", err)
		}
		for i, k := range o.keys {
			if again.keys[i] != k {
				t.Fatalf("order changed: %q at %d became %q", k, i, again.keys[i])
			}
		}
	})
}

// TestUpdateAuthKeepsALink: an auth.json that is a symbolic link (a
// dotfiles checkout) stays one; the file it points to gets the entry.
func TestUpdateAuthKeepsALink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles-auth.json")
	if err := os.WriteFile(real, []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "auth.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := UpdateAuth(context.Background(), link, "a", func(json.RawMessage) (json.RawMessage, error) {
		return json.RawMessage(`{"type":"api_key","key":"k"}`), nil
	}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if data, _ := os.ReadFile(real); !strings.Contains(string(data), `"a"`) {
		t.Errorf("the target: %s", data)
	}
}
