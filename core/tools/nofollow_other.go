//go:build !unix

package tools

// openNoFollow is not available here; paths are still resolved before a
// call is checked.
const openNoFollow = 0
