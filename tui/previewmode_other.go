//go:build !unix

package tui

import (
	"errors"
	"os"
)

// quietInput is Unix's: elsewhere a session is read whole before its
// first screen.
func quietInput(*os.File) (func(), error) {
	return nil, errors.New("tui: no preview on this system")
}
