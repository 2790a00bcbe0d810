// Command agentcount counts the agent definitions cairn's loader
// (subagent.Load) reads from directories laid out as .claude/agents/ is,
// and prints the problems it reports. scripts/skill-counts.sh runs it on
// this tree and on main's.
//
//	go run ./scripts/agentcount [-v] DIR...
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/cairn-dev/cairn/core/subagent"
)

func main() {
	verbose := flag.Bool("v", false, "print each problem")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: agentcount [-v] DIR...")
		os.Exit(2)
	}
	defs, problems := subagent.Load(flag.Args())
	if *verbose {
		for _, p := range problems {
			fmt.Println("problem:", p)
		}
	}
	fmt.Printf("cairn: definitions=%d problems=%d\n", len(defs), len(problems))
}
