package approval

import (
	"path"
	"strings"
)

// This file knows which operands and options of common programs name a
// file the program writes (`tee f`, `cp a f`, `sort -o f`, `uniq in f`,
// `dd of=f`). A command writing a file is an edit of that file: no prefix
// rule lets such an operand ride (see extras.go), and when the file is a
// protected one (.git/config, .cairn/...), the gate asks whatever the
// rules say and its question says which file (see Gate.commandReason).
// The list serves the question; what a rule covers never depends on it
// being complete.

// writeOptions are options whose value is a file the program writes, by
// program or program and subcommand.
var writeOptions = map[string][]string{
	"sort": {"-o", "--output"}, "curl": {"-o", "--output"}, "wget": {"-O", "--output-document", "-o", "--output-file"},
	"git diff": {"--output"}, "git log": {"--output"}, "git show": {"--output"}, "git format-patch": {"-o", "--output-directory"},
	"patch": {"-o", "--output"}, "tar": {"-f", "--file", "-C", "--directory"}, "unzip": {"-d"},
	"cp": {"-t", "--target-directory"}, "mv": {"-t", "--target-directory"}, "install": {"-t", "--target-directory"},
	"ln": {"-t", "--target-directory"}, "iconv": {"-o", "--output"}, "openssl": {"-out"}, "gcc": {"-o"}, "cc": {"-o"}, "go build": {"-o"}, "go test": {"-o", "-coverprofile", "-cpuprofile", "-memprofile"},
}

// writeAllOperands write every operand (after a first one for chmod and
// the like, the mode; sed and perl only with -i).
var writeAllOperands = set("tee", "touch", "truncate", "rm", "rmdir", "unlink", "shred", "mkdir", "chmod", "chown", "chgrp", "patch")

// writeLastOperand write their last operand (and into it, when it is a
// directory).
var writeLastOperand = set("cp", "mv", "install", "ln", "rsync", "scp", "convert", "magick", "git mv", "git clone")

// writeSecondOperand write their second operand: uniq's output, xxd's and
// split's (a prefix of the files it writes).
var writeSecondOperand = set("uniq", "xxd", "split")

// writeOperands are subcommands that write (or restore, or delete) the
// files their operands name.
var writeOperands = set("git rm", "git checkout", "git restore", "git init")

// operandWrites returns the files a command (after its wrappers) writes
// through its operands and options, as far as this file knows.
func operandWrites(args []word) []word {
	if len(args) == 0 {
		return nil
	}
	name := path.Base(args[0].text)
	key := name
	if len(args) > 1 && !strings.HasPrefix(args[1].text, "-") {
		key = name + " " + args[1].text
	}
	var out []word
	var operands []word
	opts := writeOptions[key]
	if opts == nil {
		opts = writeOptions[name]
	}
	inPlace := false
	for i := 1; i < len(args); i++ {
		t := args[i].text
		if t == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if !strings.HasPrefix(t, "-") || t == "-" {
			operands = append(operands, args[i])
			continue
		}
		if strings.HasPrefix(t, "--in-place") || !strings.HasPrefix(t, "--") && strings.Contains(t, "i") {
			// sed -i, perl -pi, ruby -i.bak.
			inPlace = true
		}
		for _, o := range opts {
			switch {
			case t == o && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(t, o+"=") && strings.HasPrefix(o, "--"):
				out = append(out, valueWord(args[i], len(o)+1))
			case len(o) == 2 && len(t) > 2 && strings.HasPrefix(t, o) && !strings.HasPrefix(t, "--"):
				out = append(out, valueWord(args[i], 2))
			}
		}
	}
	if sub := writeOperands[key] || writeLastOperand[key] || writeOptions[key] != nil; key != name && sub && len(operands) > 0 {
		operands = operands[1:] // the subcommand
	}
	switch {
	case writeOperands[key]:
		out = append(out, operands...)
	case writeLastOperand[key] && len(operands) > 1:
		out = append(out, operands[len(operands)-1])
		if key == "git mv" {
			out = append(out, operands[:len(operands)-1]...)
		}
	case writeAllOperands[name]:
		if strings.HasPrefix(name, "ch") && len(operands) > 0 {
			operands = operands[1:]
		}
		out = append(out, operands...)
	case (name == "sed" || name == "perl" || name == "ruby") && inPlace:
		out = append(out, operands...)
	case writeLastOperand[name] && len(operands) > 1:
		target := operands[len(operands)-1]
		var into []word
		// Into a directory, each source keeps its name.
		for _, src := range operands[:len(operands)-1] {
			if src.fixed() && target.fixed() {
				p := path.Join(target.text, path.Base(src.text))
				into = append(into, word{text: p, plain: true, literalLen: len(p)})
			}
		}
		if strings.HasSuffix(target.text, "/") {
			// Surely into it: the files written there come first.
			out = append(append(out, into...), target)
		} else {
			out = append(append(out, target), into...)
		}
		if name == "mv" {
			// A moved file is removed where it was: moving .git away
			// and making a new one replaces the repository.
			out = append(out, operands[:len(operands)-1]...)
		}
	case writeSecondOperand[name] && len(operands) > 1:
		out = append(out, operands[1])
	case name == "dd":
		for _, o := range operands {
			if v, ok := strings.CutPrefix(o.text, "of="); ok {
				out = append(out, valueWord(o, len(o.text)-len(v)))
			}
		}
	}
	return out
}

// valueWord returns the part of w from byte skip on, such as the file of
// `--output=file`.
func valueWord(w word, skip int) word {
	v := w
	v.text = w.text[skip:]
	v.literalLen = max(w.literalLen-skip, 0)
	return v
}
