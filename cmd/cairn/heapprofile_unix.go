//go:build unix

package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"syscall"
)

// startHeapProfile writes a heap profile to path (through a temporary file
// beside it) each time the process gets SIGUSR1, after a collection, for
// finding what a long session keeps in memory; "" does nothing.
func startHeapProfile(path string) {
	if path == "" {
		return
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for range sig {
			runtime.GC()
			if err := writeHeapProfile(path); err != nil {
				fmt.Fprintf(os.Stderr, "cairn: CAIRN_HEAPPROFILE: %v\n", err)
			}
		}
	}()
}

func writeHeapProfile(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := pprof.WriteHeapProfile(f); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
