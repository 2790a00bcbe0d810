package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Kind is what a tree entry is.
type Kind byte

// The kinds of tree entries.
const (
	// KindFile is a regular file whose contents are kept (Hash names
	// the blob).
	KindFile Kind = 1
	// KindDir is a directory (Hash names its tree).
	KindDir Kind = 2
	// KindLink is a symbolic link (Link is its target).
	KindLink Kind = 3
	// KindUnkept is an entry whose contents could not be kept; Reason
	// says why and Mode's type bits say what it was.
	KindUnkept Kind = 4
)

// String names the kind for people.
func (k Kind) String() string {
	switch k {
	case KindFile:
		return "file"
	case KindDir:
		return "directory"
	case KindLink:
		return "link"
	case KindUnkept:
		return "unkept"
	}
	return fmt.Sprintf("kind(%d)", byte(k))
}

// Hash is a SHA-256 digest naming a blob or a tree.
type Hash [32]byte

// String is the hash in hex, as object files are named.
func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// ParseHash reads a hash written by Hash.String.
func ParseHash(s string) (Hash, error) {
	var h Hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not a checkpoint hash (64 hex digits)", s)
	}
	copy(h[:], b)
	return h, nil
}

// Entry is one name in a directory as a scan saw it.
type Entry struct {
	Name string
	Kind Kind
	// Mode is the entry's fs.FileMode (type and permission bits).
	Mode fs.FileMode
	Size int64
	// MTime is the modification time in nanoseconds since the epoch.
	MTime int64
	Inode uint64
	// Hash names the blob (KindFile) or the tree (KindDir).
	Hash Hash
	// Link is a symbolic link's target.
	Link string
	// Reason says why a KindUnkept entry was not kept.
	Reason string
}

// sameStat reports whether e and o look unchanged to a scan: same kind,
// mode, size, mtime and inode.
func (e *Entry) sameStat(o *Entry) bool {
	return e.Mode == o.Mode && e.Size == o.Size && e.MTime == o.MTime && e.Inode == o.Inode
}

// sameContent reports whether restoring o over e would change nothing a
// person sees: same kind, permissions, contents or link target.
func (e *Entry) sameContent(o *Entry) bool {
	if e.Kind != o.Kind || e.Mode != o.Mode {
		return false
	}
	switch e.Kind {
	case KindFile, KindDir:
		return e.Hash == o.Hash
	case KindLink:
		return e.Link == o.Link
	}
	return e.sameStat(o)
}

// Tree is one directory's entries, sorted by name, names unique.
type Tree []Entry

// find returns the entry called name, or nil.
func (t Tree) find(name string) *Entry {
	lo, hi := 0, len(t)
	for lo < hi {
		m := (lo + hi) / 2
		switch c := strings.Compare(t[m].Name, name); {
		case c == 0:
			return &t[m]
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil
}

// treeMagic starts every encoded tree.
const treeMagic = "cairn-tree 1\n"

// Limits on what a tree may hold, so a damaged or hostile object cannot
// make the decoder allocate without bound.
const (
	maxNameLen   = 4096
	maxLinkLen   = 4096
	maxReasonLen = 1024
	maxEntries   = 1 << 20
)

// ErrBadTree is wrapped by every error of DecodeTree.
var ErrBadTree = errors.New("damaged checkpoint tree")

// Encode returns t in the store's binary form. The form is canonical:
// equal trees encode to equal bytes, so a tree's hash names it.
func (t Tree) Encode() []byte {
	b := make([]byte, 0, len(treeMagic)+len(t)*64)
	b = append(b, treeMagic...)
	b = binary.AppendUvarint(b, uint64(len(t)))
	for i := range t {
		e := &t[i]
		b = append(b, byte(e.Kind))
		b = binary.AppendUvarint(b, uint64(e.Mode))
		b = binary.AppendVarint(b, e.Size)
		b = binary.AppendVarint(b, e.MTime)
		b = binary.AppendUvarint(b, e.Inode)
		b = appendString(b, e.Name)
		if e.Kind == KindFile || e.Kind == KindDir {
			b = append(b, e.Hash[:]...)
		}
		b = appendString(b, e.Link)
		b = appendString(b, e.Reason)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// hashOf names encoded bytes.
func hashOf(b []byte) Hash { return sha256.Sum256(b) }

// DecodeTree reads a tree written by Encode. It refuses anything Encode
// would not write: unknown kinds, names that are empty, ".", "..", hold a
// slash or NUL, names out of order or repeated, a hash or link where the
// kind has none, oversized fields, trailing bytes.
func DecodeTree(b []byte) (Tree, error) {
	if !bytes.HasPrefix(b, []byte(treeMagic)) {
		return nil, fmt.Errorf("%w: no header", ErrBadTree)
	}
	d := decoder{b: b[len(treeMagic):]}
	n := d.uvarint()
	// Every entry takes at least 9 bytes; a count beyond what is left is a lie.
	if d.err == nil && (n > maxEntries || n > uint64(len(d.b))/9) {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", ErrBadTree, n, len(d.b))
	}
	t := make(Tree, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		var e Entry
		e.Kind = Kind(d.byte())
		mode := d.uvarint()
		if mode > 0xffffffff {
			d.fail("mode out of range")
		}
		e.Mode = fs.FileMode(mode)
		e.Size = d.varint()
		e.MTime = d.varint()
		e.Inode = d.uvarint()
		e.Name = d.string(maxNameLen)
		if e.Kind == KindFile || e.Kind == KindDir {
			copy(e.Hash[:], d.bytes(len(e.Hash)))
		}
		e.Link = d.string(maxLinkLen)
		e.Reason = d.string(maxReasonLen)
		if d.err != nil {
			break
		}
		if err := checkEntry(&e); err != nil {
			return nil, fmt.Errorf("%w: entry %d: %v", ErrBadTree, i, err)
		}
		if len(t) > 0 && t[len(t)-1].Name >= e.Name {
			return nil, fmt.Errorf("%w: entry %q out of order", ErrBadTree, e.Name)
		}
		t = append(t, e)
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadTree, d.err)
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the last entry", ErrBadTree, len(d.b))
	}
	return t, nil
}

// checkEntry says what is wrong with a decoded entry, if anything.
func checkEntry(e *Entry) error {
	if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsAny(e.Name, "/\x00") {
		return fmt.Errorf("bad name %q", e.Name)
	}
	if e.Size < 0 {
		return fmt.Errorf("negative size")
	}
	switch e.Kind {
	case KindFile:
		if !e.Mode.IsRegular() {
			return fmt.Errorf("file with mode %v", e.Mode)
		}
	case KindDir:
		if !e.Mode.IsDir() {
			return fmt.Errorf("directory with mode %v", e.Mode)
		}
	case KindLink:
		if e.Mode.Type() != fs.ModeSymlink || e.Link == "" || strings.ContainsRune(e.Link, 0) {
			return fmt.Errorf("bad link")
		}
	case KindUnkept:
		if e.Reason == "" {
			return fmt.Errorf("unkept entry without a reason")
		}
	default:
		return fmt.Errorf("unknown kind %d", e.Kind)
	}
	if e.Kind != KindLink && e.Link != "" {
		return fmt.Errorf("link target on a %v", e.Kind)
	}
	if e.Kind != KindUnkept && e.Reason != "" {
		return fmt.Errorf("reason on a %v", e.Kind)
	}
	return nil
}

// decoder reads the fields of an encoded tree, keeping the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(msg string) {
	if d.err == nil {
		d.err = errors.New(msg)
	}
	d.b = nil
}

func (d *decoder) byte() byte {
	if d.err != nil || len(d.b) == 0 {
		d.fail("truncated")
		return 0
	}
	c := d.b[0]
	d.b = d.b[1:]
	return c
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(n int) []byte {
	if d.err != nil || len(d.b) < n {
		d.fail("truncated")
		return nil
	}
	out := d.b[:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) string(limit int) string {
	n := d.uvarint()
	if d.err == nil && n > uint64(limit) {
		d.fail("field too long")
		return ""
	}
	return string(d.bytes(int(n)))
}
