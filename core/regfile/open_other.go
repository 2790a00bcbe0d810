//go:build !unix

package regfile

// openFlags: systems without named pipes in the file system need none.
const openFlags = 0
