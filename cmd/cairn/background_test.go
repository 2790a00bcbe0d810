package main

import (
	"context"
	"os"
)

// asCairnEnv makes the test binary run as cairn itself, with its arguments
// and standard streams (see TestMain).
const asCairnEnv = "CAIRN_TEST_AS_CAIRN"

// runAsCairn runs cairn as main does, without signal handling.
func runAsCairn() int {
	streams := IOStreams{In: os.Stdin, Out: os.Stdout, Err: os.Stderr}
	return run(context.Background(), os.Args[1:], streams, os.Getenv)
}
