package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/cairn-dev/cairn/core/atomicfile"
	"github.com/cairn-dev/cairn/core/regfile"
)

// ErrCorruptRules means a rules file exists but cannot be used: it is not
// valid JSON, has an unknown version, or holds invalid rules. The gate
// ignores what it cannot use and never overwrites such a file.
var ErrCorruptRules = errors.New("approval rules file is corrupt")

// ProjectRulesFile returns where a project's "Always allow" rules live:
// <project>/.cairn/approvals.json.
func ProjectRulesFile(project string) string {
	return filepath.Join(project, ".cairn", "approvals.json")
}

// rulesFileVersion is the newest version of the rules file this package
// reads and writes. Version 2 files hold rules with a directory (Rule.Dir),
// which a cairn reading version 1 would take to hold everywhere; a file
// without such rules stays version 1, so older cairns keep reading it.
const rulesFileVersion = 2

// fileVersion returns the version a file holding rules must have.
func fileVersion(rules []Rule) int {
	for _, r := range rules {
		if r.Dir != "" {
			return 2
		}
	}
	return 1
}

// rulesFile is the JSON shape of a rules file:
//
//	{"version": 1, "rules": [{"tool": "bash", "command": "git status"}]}
type rulesFile struct {
	Version int    `json:"version"`
	Rules   []Rule `json:"rules"`
}

// loadRules reads the rules in file. A missing file holds no rules.
func loadRules(file string) ([]Rule, error) {
	data, err := regfile.Read(file, regfile.MaxConfig)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read approval rules: %w", err)
	}
	var f rulesFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: %s: %v; fix or delete it (until then, \"Always allow\" lasts for the session only)", ErrCorruptRules, file, err)
	}
	if f.Version > rulesFileVersion {
		return nil, fmt.Errorf("%w: %s has version %d, newer than this cairn understands (%d); upgrade cairn", ErrCorruptRules, file, f.Version, rulesFileVersion)
	}
	return f.Rules, nil
}

// saveRules adds rules to file, keeping the rules already there (another
// cairn may have written some since this one started). It refuses to touch
// a file it cannot read. The new file is written next to the old one and
// renamed over it, so a crash leaves either the old file or the new one.
func saveRules(file string, add []Rule) error {
	rules, err := loadRules(file)
	if err != nil {
		return err
	}
	for _, r := range add {
		if !slices.Contains(rules, r) {
			rules = append(rules, r)
		}
	}
	data, err := json.MarshalIndent(rulesFile{Version: fileVersion(rules), Rules: rules}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode approval rules: %w", err)
	}
	return writeAtomic(file, append(data, '\n'))
}

// writeAtomic replaces file with data, creating its directory.
func writeAtomic(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fmt.Errorf("save approval rules: %w", err)
	}
	if err := atomicfile.Write(file, data, 0o644); err != nil {
		return fmt.Errorf("save approval rules %s: %w", file, err)
	}
	return nil
}
