package settings

import "fmt"

// CheckpointSettings configure the checkpoints of the project's files
// taken around every prompt, which rewinds restore ("checkpoints" in the
// files). Zero sizes and counts mean cairn's defaults.
type CheckpointSettings struct {
	// Enabled turns checkpoints on (the default) or off.
	Enabled bool `json:"enabled"`
	// MaxFileBytes is the largest file whose contents are kept; a bigger
	// one is recorded as not kept, and a rewind names it.
	MaxFileBytes int64 `json:"maxFileBytes,omitempty"`
	// MaxTotalBytes is the most file content one checkpoint covers.
	MaxTotalBytes int64 `json:"maxTotalBytes,omitempty"`
	// Keep is how many checkpoints of a project are kept.
	Keep int `json:"keep,omitempty"`
	// MaxStoreBytes bounds a project's store; the oldest checkpoints go
	// first.
	MaxStoreBytes int64 `json:"maxStoreBytes,omitempty"`
}

// normalize puts negative values back to the default (zero) and reports them.
func (c *CheckpointSettings) normalize() []error {
	var errs []error
	for _, n := range []struct {
		key string
		v   *int64
	}{
		{"checkpoints.maxFileBytes", &c.MaxFileBytes},
		{"checkpoints.maxTotalBytes", &c.MaxTotalBytes},
		{"checkpoints.maxStoreBytes", &c.MaxStoreBytes},
	} {
		if *n.v < 0 {
			errs = append(errs, &KeyError{Key: n.key, Msg: fmt.Sprintf("%d is not allowed: use a number of bytes, or 0 for the default", *n.v)})
			*n.v = 0
		}
	}
	if c.Keep < 0 {
		errs = append(errs, &KeyError{Key: "checkpoints.keep", Msg: fmt.Sprintf("%d is not allowed: use a count, or 0 for the default", c.Keep)})
		c.Keep = 0
	}
	return errs
}
