//go:build !unix

package main

import (
	"fmt"
	"os"
)

// startHeapProfile needs SIGUSR1, which this system does not have.
func startHeapProfile(path string) {
	if path != "" {
		fmt.Fprintln(os.Stderr, "cairn: CAIRN_HEAPPROFILE needs SIGUSR1 (Unix); no heap profile is written")
	}
}
