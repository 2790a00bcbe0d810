package export

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core"
)

// toolArgs are a tool call's arguments, decoded as far as the page needs.
type toolArgs map[string]json.RawMessage

func (a toolArgs) str(key string) string {
	var s string
	if raw, ok := a[key]; ok && json.Unmarshal(raw, &s) == nil {
		return s
	}
	return ""
}

func (a toolArgs) num(key string) int {
	var n int
	if raw, ok := a[key]; ok && json.Unmarshal(raw, &n) == nil {
		return n
	}
	return 0
}

// toolCall writes a tool call and its result (nil: none was recorded) as a
// card: the tool and its main argument, then what it did, shaped by tool.
// resID is the result's entry id, the card's anchor.
func (p *page) toolCall(c core.Content, res *core.ToolResultMessage, resID string) {
	var args toolArgs
	_ = json.Unmarshal(c.Arguments, &args)
	state, mark := "pending", "no result"
	if res != nil {
		state, mark = "ok", "done"
		if res.IsError {
			state, mark = "error", "failed"
		}
	}
	w := p.w
	p.startTag("div", "tool "+state, resID)
	w.WriteString("\n<div class=\"tool-head\"><span class=\"tool-name\">")
	writeEscaped(w, c.Name)
	w.WriteString("</span> ")
	p.label(resID, " ")
	w.WriteString("<span class=\"tool-arg\">")
	writeEscaped(w, preview(toolSubject(c.Name, args), 160))
	w.WriteString("</span> <span class=\"tool-state\">" + mark + "</span></div>\n")

	text, images := "", []core.Content(nil)
	if res != nil {
		text = resultText(res)
		for _, b := range res.Content {
			if b.Type == core.ContentImage {
				images = append(images, b)
			}
		}
	}
	failed := res != nil && res.IsError
	switch c.Name {
	case "bash":
		if cmd := args.str("command"); strings.Contains(cmd, "\n") || len(cmd) > 160 {
			w.WriteString("<pre class=\"cmd\">$ ")
			writeEscaped(w, cmd)
			w.WriteString("</pre>\n")
		}
		p.output(text, failed, images)
	case "read":
		if failed || len(images) > 0 {
			p.output(text, failed, images)
		} else if res != nil {
			p.fileText("Contents", text, args.str("path"))
		}
	case "write":
		p.fileText("Content written", args.str("content"), args.str("path"))
		if failed {
			p.output(text, true, nil)
		}
	case "edit":
		if d := editDiff(res); d != "" && !failed {
			p.diff(d)
		} else {
			p.diff(proposedEdit(args))
			if res != nil {
				p.output(text, failed, nil)
			}
		}
	default:
		if len(c.Arguments) > 0 && string(c.Arguments) != "{}" {
			w.WriteString("<details class=\"args\"><summary>Arguments</summary><pre>")
			p.writeJSON(c.Arguments)
			w.WriteString("</pre></details>\n")
		}
		if res != nil {
			p.output(text, failed, images)
		}
	}
	w.WriteString("</div>\n")
}

// resultText is the text of a result; unlike Text it does not copy the
// usual single block.
func resultText(res *core.ToolResultMessage) string {
	n, only := 0, ""
	for _, b := range res.Content {
		if b.Type == core.ContentText {
			n++
			only = b.FullText()
		}
	}
	if n > 1 {
		return res.Text()
	}
	return only
}

// toolSubject is what a call is about, shown next to the tool's name.
func toolSubject(name string, a toolArgs) string {
	switch name {
	case "bash":
		return a.str("command")
	case "read":
		s := a.str("path")
		if off, lim := a.num("offset"), a.num("limit"); off > 0 || lim > 0 {
			s += ":" + strconv.Itoa(max(off, 1))
			if lim > 0 {
				s += "-" + strconv.Itoa(max(off, 1)+lim-1)
			}
		}
		return s
	case "grep", "find":
		s := a.str("pattern")
		if path := a.str("path"); path != "" {
			s += " in " + path
		}
		return s
	}
	for _, key := range []string{"path", "file_path", "command", "pattern", "query", "url"} {
		if s := a.str(key); s != "" {
			return s
		}
	}
	return ""
}

// output writes what a tool printed, collapsed unless it failed, with the
// images it returned.
func (p *page) output(text string, failed bool, images []core.Content) {
	w := p.w
	if text == "" && len(images) == 0 {
		w.WriteString("<div class=\"note\">(no output)</div>\n")
		return
	}
	if text != "" {
		open, class := "", "out"
		if failed {
			open, class = " open", "out error"
		}
		w.WriteString("<details class=\"" + class + "\"" + open + "><summary>Output · " + plural(lineCount(text), "line") + "</summary><pre>")
		writeTerminal(w, text)
		w.WriteString("</pre></details>\n")
	}
	for _, img := range images {
		p.image(img)
	}
}

// fileText writes a file's text, collapsed, highlighted for its name.
func (p *page) fileText(what, text, path string) {
	p.w.WriteString("<details class=\"out\"><summary>" + what + " · " + plural(lineCount(text), "line") + "</summary>\n")
	p.highlight(text, p.lexerFor("", path))
	p.w.WriteString("</details>\n")
}

func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// editDiff is the diff an edit's result details carry, in pi's numbered
// form ("+12 text", "-12 text", " 12 text").
func editDiff(res *core.ToolResultMessage) string {
	if res == nil || len(res.Details) == 0 {
		return ""
	}
	var d struct {
		Diff string `json:"diff"`
	}
	if json.Unmarshal(res.Details, &d) != nil {
		return ""
	}
	return d.Diff
}

// proposedEdit shows what an edit asked for, as removed and added lines,
// for an edit that has no diff to show (it failed or has no result).
func proposedEdit(a toolArgs) string {
	type change struct {
		OldText string `json:"oldText"`
		NewText string `json:"newText"`
	}
	var edits []change
	if raw, ok := a["edits"]; ok {
		_ = json.Unmarshal(raw, &edits)
	} else if a.str("oldText") != "" || a.str("newText") != "" {
		edits = []change{{a.str("oldText"), a.str("newText")}}
	}
	var b strings.Builder
	for i, e := range edits {
		if i > 0 {
			b.WriteString(" ...\n")
		}
		for _, l := range strings.Split(e.OldText, "\n") {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range strings.Split(e.NewText, "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	return b.String()
}

// diff writes a diff with its added and removed lines coloured.
func (p *page) diff(d string) {
	if d == "" {
		return
	}
	w := p.w
	w.WriteString("<pre class=\"diff\">")
	for d != "" {
		line := d
		if i := strings.IndexByte(d, '\n'); i >= 0 {
			line, d = d[:i], d[i+1:]
		} else {
			d = ""
		}
		switch {
		case strings.HasPrefix(line, "+"):
			w.WriteString("<span class=\"add\">")
		case strings.HasPrefix(line, "-"):
			w.WriteString("<span class=\"del\">")
		default:
			w.WriteString("<span>")
		}
		writeEscaped(w, line)
		w.WriteString("</span>\n")
	}
	w.WriteString("</pre>\n")
}
