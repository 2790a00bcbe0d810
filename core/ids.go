package core

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// NewUUID returns a random (version 4) UUID, as pi gives extension UI
// requests and cairn gives questions and JSON-mode sessions.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// NewUUIDv7 returns a time-ordered (version 7) UUID for t, as pi uses for
// session ids.
func NewUUIDv7(t time.Time) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	ms := uint64(t.UnixMilli())
	for i := range 6 {
		b[i] = byte(ms >> (40 - 8*i))
	}
	b[6] = b[6]&0x0f | 0x70
	b[8] = b[8]&0x3f | 0x80
	return formatUUID(b)
}

// NewEntryID returns 8 random hex digits, the form of pi's session entry
// ids. Callers that need ids unique within a file check for collisions.
func NewEntryID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func formatUUID(b [16]byte) string {
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
