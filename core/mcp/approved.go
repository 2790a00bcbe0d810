package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/core/atomicfile"
)

// FileApprovals records the project MCP files a person approved, by path
// and content hash, so a file that changes (a git pull, a stranger's
// commit) must be approved again before its commands run. cairn uses it
// for .mcp.json, which project trust does not fingerprint.
type FileApprovals struct {
	// Path is the record, normally ApprovalsFile(cairnDir).
	Path string
}

// ApprovalsFile is where approvals are kept: <cairnDir>/mcp/approved.json.
func ApprovalsFile(cairnDir string) string {
	return filepath.Join(cairnDir, "mcp", "approved.json")
}

func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func (a FileApprovals) read() map[string]string {
	m := map[string]string{}
	if data, err := readLimited(a.Path); err == nil {
		_ = json.Unmarshal(data, &m)
	}
	return m
}

// Approved reports whether file, with content data, was approved as it is.
func (a FileApprovals) Approved(file string, data []byte) bool {
	h, ok := a.read()[file]
	return ok && h == contentHash(data)
}

// Approve records file with content data as approved.
func (a FileApprovals) Approve(file string, data []byte) error {
	m := a.read()
	m[file] = contentHash(data)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(a.Path), 0o700); err != nil {
		return err
	}
	return atomicfile.Write(a.Path, out, 0o600)
}
