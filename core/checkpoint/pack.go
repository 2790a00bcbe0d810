package checkpoint

import (
	"bufio"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A pack is one file holding the objects (blobs and trees) a scan found
// new, so a checkpoint creates one file for all of them instead of one
// per object: creating a file is the dearest thing a checkpoint does.
//
// Layout: packMagic, the objects' stored bytes one after another, an
// index, and a trailer of the index's offset (8 bytes, little endian)
// and packTrailer. Each index entry is kind, encoding, hash, offset,
// stored length and size (uvarints). A pack is written to a temporary
// file and renamed into place when complete, so a pack under its name
// always has its index; reads check every object against its hash.

const (
	packMagic   = "cairn-pack 1\n"
	packTrailer = "cairnpk\n"
	// trailerLen is the index offset and packTrailer.
	trailerLen = 8 + len(packTrailer)
	// minIndexEntry is the fewest bytes an index entry takes.
	minIndexEntry = 2 + len(Hash{}) + 3
	// maxObjectBytes bounds one object's size, whatever a damaged index says.
	maxObjectBytes = 1 << 31
)

// The encodings of stored objects.
const (
	encRaw     byte = 0
	encDeflate byte = 1
)

// The kinds of stored objects.
const (
	objBlob byte = 1
	objTree byte = 2
)

// packEntry is where one object lies in its pack.
type packEntry struct {
	Kind, Enc byte
	Hash      Hash
	Off, N    int64 // stored bytes
	Size      int64 // bytes after decoding
}

// ErrBadPack is wrapped by every error reading a pack's index.
var ErrBadPack = errors.New("damaged checkpoint pack")

// readPackIndex reads the index of the pack open as f, size bytes long.
func readPackIndex(f io.ReaderAt, size int64) ([]packEntry, error) {
	if size < int64(len(packMagic)+trailerLen) {
		return nil, fmt.Errorf("%w: %d bytes", ErrBadPack, size)
	}
	head := make([]byte, len(packMagic))
	if _, err := f.ReadAt(head, 0); err != nil {
		return nil, err
	}
	tail := make([]byte, trailerLen)
	if _, err := f.ReadAt(tail, size-int64(trailerLen)); err != nil {
		return nil, err
	}
	if string(head) != packMagic || string(tail[8:]) != packTrailer {
		return nil, fmt.Errorf("%w: no header or trailer (not a pack, or cut short)", ErrBadPack)
	}
	at := binary.LittleEndian.Uint64(tail[:8])
	end := uint64(size) - uint64(trailerLen)
	if at < uint64(len(packMagic)) || at > end {
		return nil, fmt.Errorf("%w: index at %d of %d bytes", ErrBadPack, at, size)
	}
	idx := make([]byte, end-at)
	if _, err := f.ReadAt(idx, int64(at)); err != nil {
		return nil, err
	}
	return decodePackIndex(idx, int64(at))
}

// decodePackIndex reads an index whose objects all lie before limit.
func decodePackIndex(b []byte, limit int64) ([]packEntry, error) {
	d := decoder{b: b}
	n := d.uvarint()
	if d.err == nil && n > uint64(len(d.b)/minIndexEntry) {
		return nil, fmt.Errorf("%w: %d entries in %d bytes", ErrBadPack, n, len(d.b))
	}
	out := make([]packEntry, 0, n)
	for i := uint64(0); i < n && d.err == nil; i++ {
		var e packEntry
		e.Kind, e.Enc = d.byte(), d.byte()
		copy(e.Hash[:], d.bytes(len(e.Hash)))
		off, ln, size := d.uvarint(), d.uvarint(), d.uvarint()
		if d.err != nil {
			break
		}
		switch {
		case e.Kind != objBlob && e.Kind != objTree, e.Enc != encRaw && e.Enc != encDeflate:
			return nil, fmt.Errorf("%w: entry %d: kind %d, encoding %d", ErrBadPack, i, e.Kind, e.Enc)
		case off < uint64(len(packMagic)) || off > uint64(limit) || ln > uint64(limit)-off || size > maxObjectBytes:
			return nil, fmt.Errorf("%w: entry %d out of bounds", ErrBadPack, i)
		case e.Enc == encRaw && ln != size:
			return nil, fmt.Errorf("%w: entry %d: stored %d bytes of %d", ErrBadPack, i, ln, size)
		}
		e.Off, e.N, e.Size = int64(off), int64(ln), int64(size)
		out = append(out, e)
	}
	if d.err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBadPack, d.err)
	}
	if len(d.b) != 0 {
		return nil, fmt.Errorf("%w: %d bytes after the index", ErrBadPack, len(d.b))
	}
	return out, nil
}

// appendPackIndex appends the index of entries and the trailer for an
// index starting at offset at.
func appendPackIndex(b []byte, entries []packEntry, at int64) []byte {
	b = binary.AppendUvarint(b, uint64(len(entries)))
	for i := range entries {
		e := &entries[i]
		b = append(b, e.Kind, e.Enc)
		b = append(b, e.Hash[:]...)
		b = binary.AppendUvarint(b, uint64(e.Off))
		b = binary.AppendUvarint(b, uint64(e.N))
		b = binary.AppendUvarint(b, uint64(e.Size))
	}
	b = binary.LittleEndian.AppendUint64(b, uint64(at))
	return append(b, packTrailer...)
}

// decodeObject turns stored bytes back into the object's bytes and checks
// them against h.
func decodeObject(e *packEntry, stored []byte) ([]byte, error) {
	data := stored
	if e.Enc == encDeflate {
		r := flate.NewReader(bytes.NewReader(stored))
		data = make([]byte, e.Size)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, err
		}
		if n, _ := r.Read(make([]byte, 1)); n != 0 {
			return nil, errors.New("longer than its index says")
		}
	}
	if hashOf(data) != e.Hash {
		return nil, errors.New("contents do not match the name")
	}
	return data, nil
}

// minDeflate is the smallest blob worth compressing.
const minDeflate = 256

// packWriter streams the new objects of one scan into a temporary pack
// file, created when the first object arrives.
type packWriter struct {
	dir     string // the store's packs directory
	f       *os.File
	w       *bufio.Writer
	off     int64
	entries []packEntry
	has     map[Hash]bool
	// zbuf and zw compress blobs; kept between objects.
	zbuf bytes.Buffer
	zw   *flate.Writer
}

// add stores an object unless this pack already holds it.
func (p *packWriter) add(kind byte, h Hash, data []byte) error {
	if p.has[h] {
		return nil
	}
	e := packEntry{Kind: kind, Enc: encRaw, Hash: h, Size: int64(len(data))}
	stored := data
	if kind == objBlob && len(data) >= minDeflate {
		if z := p.deflate(data); len(z) < len(data)-len(data)/8 {
			e.Enc, stored = encDeflate, z
		}
	}
	return p.put(e, stored)
}

// put appends an object's stored bytes, as e describes them.
func (p *packWriter) put(e packEntry, stored []byte) error {
	if p.f == nil {
		if err := os.MkdirAll(p.dir, 0o700); err != nil {
			return err
		}
		f, err := os.CreateTemp(p.dir, ".*.pack.tmp")
		if err != nil {
			return err
		}
		p.f, p.w, p.off = f, bufio.NewWriterSize(f, 64<<10), int64(len(packMagic))
		p.has = map[Hash]bool{}
		if _, err := p.w.WriteString(packMagic); err != nil {
			return err
		}
	}
	e.Off, e.N = p.off, int64(len(stored))
	if _, err := p.w.Write(stored); err != nil {
		return err
	}
	p.off += e.N
	p.entries = append(p.entries, e)
	p.has[e.Hash] = true
	return nil
}

// deflate returns data compressed (valid until the next call).
func (p *packWriter) deflate(data []byte) []byte {
	p.zbuf.Reset()
	if p.zw == nil {
		p.zw, _ = flate.NewWriter(&p.zbuf, flate.BestSpeed)
	} else {
		p.zw.Reset(&p.zbuf)
	}
	_, _ = p.zw.Write(data)
	_ = p.zw.Close()
	return p.zbuf.Bytes()
}

// finish writes the index and renames the pack to name; it returns the
// pack's path and entries, or "" when no object was added.
func (p *packWriter) finish(name string) (string, []packEntry, error) {
	if p.f == nil {
		return "", nil, nil
	}
	_, err := p.w.Write(appendPackIndex(nil, p.entries, p.off))
	if err == nil {
		err = p.w.Flush()
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	path := filepath.Join(p.dir, name+".pack")
	if err == nil {
		err = os.Rename(p.f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(p.f.Name())
		return "", nil, err
	}
	return path, p.entries, nil
}

// abort removes the unfinished pack.
func (p *packWriter) abort() {
	if p.f != nil {
		_ = p.f.Close()
		_ = os.Remove(p.f.Name())
	}
}
