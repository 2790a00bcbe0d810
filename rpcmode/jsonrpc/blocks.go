package jsonrpc

import "strings"

// codeBlock is a fenced code block of an answer.
type codeBlock struct {
	language string
	content  string
}

// codeBlocks returns the fenced code blocks of markdown text, in order: a
// fence is three or more backticks or tildes, indented at most three
// spaces, closed by a fence of the same character at least as long. A
// block the text leaves open runs to the end.
func codeBlocks(text string) []codeBlock {
	var out []codeBlock
	var open *codeBlock
	var fence string
	var body []string
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indented := len(line)-len(trimmed) > 3
		if open == nil {
			if f := fenceOf(trimmed); f != "" && !indented {
				info := strings.TrimSpace(trimmed[len(f):])
				if f[0] == '`' && strings.Contains(info, "`") {
					continue // not a fence: backticks in the info string
				}
				lang, _, _ := strings.Cut(info, " ")
				open, fence, body = &codeBlock{language: lang}, f, nil
			}
			continue
		}
		if f := fenceOf(trimmed); !indented && f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(trimmed[len(f):]) == "" {
			open.content = strings.Join(body, "\n")
			out = append(out, *open)
			open = nil
			continue
		}
		body = append(body, line)
	}
	if open != nil {
		open.content = strings.Join(body, "\n")
		out = append(out, *open)
	}
	return out
}

// fenceOf returns the run of three or more backticks or tildes that line
// starts with, or "".
func fenceOf(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return line[:n]
}
