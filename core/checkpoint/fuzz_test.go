package checkpoint

import (
	"io/fs"
	"slices"
	"testing"
)

// FuzzDecodeTree: the decoder never panics, and whatever it accepts
// encodes to bytes it decodes to the same tree (the form is canonical).
func FuzzDecodeTree(f *testing.F) {
	f.Add(Tree{}.Encode())
	f.Add(Tree{
		{Name: "a", Kind: KindFile, Mode: 0o644, Size: 3, MTime: 1, Inode: 2, Hash: hashOf([]byte("abc"))},
		{Name: "d", Kind: KindDir, Mode: fs.ModeDir | 0o755, Hash: hashOf(nil)},
		{Name: "l", Kind: KindLink, Mode: fs.ModeSymlink | 0o777, Link: "../x"},
		{Name: "z", Kind: KindUnkept, Mode: 0o600, Size: 1 << 30, Reason: "too big"},
	}.Encode())
	f.Add([]byte(treeMagic + "\x01\x09"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, err := DecodeTree(b)
		if err != nil {
			return
		}
		again, err := DecodeTree(tr.Encode())
		if err != nil {
			t.Fatalf("re-encoded tree refused: %v", err)
		}
		if !slices.Equal(tr, again) {
			t.Fatalf("round trip changed the tree:\n%+v\n%+v", tr, again)
		}
	})
}
