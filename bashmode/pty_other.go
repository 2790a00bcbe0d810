//go:build !unix

package bashmode

import (
	"errors"
	"os"
)

// errNoPTY is returned by Start where there are no Unix terminals.
var errNoPTY = errors.New("bash mode needs a Unix pseudo-terminal")

func openPTY(int, int) (master, tty *os.File, err error) { return nil, nil, errNoPTY }

func setSize(*os.File, int, int) error { return errNoPTY }
