// Command skillcount counts the SKILL.md files under a directory that
// cairn's skill reader (skills.Read) accepts, finding them as pi does: a
// directory holding SKILL.md is a skill and is not searched further;
// hidden directories and node_modules are skipped. It measures the reader,
// not cairn's start-up bounds (MaxSkills). scripts/skill-counts.sh runs it
// on this tree and on main's.
//
//	go run ./scripts/skillcount [-list] DIR
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/core/skills"
)

func main() {
	list := flag.Bool("list", false, "print one line per file: load or skip, path, reason")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: skillcount [-list] DIR")
		os.Exit(2)
	}
	root, _ := filepath.Abs(flag.Arg(0))
	var loaded, skipped int
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		file := filepath.Join(path, skills.FileName)
		if info, err := os.Stat(file); err != nil || !info.Mode().IsRegular() {
			return nil
		}
		sk, problems := skills.Read(file)
		if sk != nil {
			loaded++
			if *list {
				fmt.Printf("load\t%s\n", file)
			}
			return filepath.SkipDir
		}
		skipped++
		if *list {
			why := ""
			for _, p := range problems {
				if p.Skipped {
					why = strings.SplitN(p.Err.Error(), "\n", 2)[0]
				}
			}
			fmt.Printf("skip\t%s\t%s\n", file, why)
		}
		return filepath.SkipDir
	})
	fmt.Printf("cairn: loaded=%d skipped=%d\n", loaded, skipped)
}
