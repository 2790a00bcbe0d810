// Package atomicfile replaces files so that a crash or a full disk leaves
// either the old file or the new one, never a mix: the one home for the
// write-then-rename that settings, approval rules, trust and prompt history
// all need.
package atomicfile
