package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/yuin/goldmark"

	"github.com/cairn-dev/cairn/core"
)

// page is one export in progress: where it writes and what it reuses from
// one message to the next.
type page struct {
	w      *bufio.Writer
	opts   Options
	md     goldmark.Markdown
	code   *chromahtml.Formatter
	lexers map[string]chroma.Lexer
	labels map[string]string
	// highlightLeft is how many more bytes of code may be highlighted.
	highlightLeft int
	src           []byte       // markdown source of the message being rendered
	buf           bytes.Buffer // scratch: code block text, indented JSON
}

// HTML writes doc to w as a self-contained HTML page. Everything taken
// from the session is escaped, so nothing in it can run as a script or
// change the page's structure. It returns the first error of w, or an
// error for a colour in opts that is not "#rrggbb".
func HTML(w io.Writer, doc Document, opts Options) error {
	opts, err := opts.resolved()
	if err != nil {
		return err
	}
	p := &page{
		w:      bufio.NewWriterSize(w, 64<<10),
		opts:   opts,
		code:   chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false)),
		lexers: map[string]chroma.Lexer{},
		labels: doc.Labels,

		highlightLeft: highlightBudget,
	}
	p.md = newMarkdown(p)
	p.head(doc)
	p.header(doc)
	p.setup(doc)
	p.w.WriteString("<main>\n")
	if err := p.messages(doc.Messages, doc.EntryIDs); err != nil {
		return err
	}
	p.w.WriteString("</main>\n")
	if err := p.branches(doc.Branches); err != nil {
		return err
	}
	p.w.WriteString("<footer>Exported by cairn.</footer>\n</body>\n</html>\n")
	return p.w.Flush()
}

// failed reports the writer's error, if it has one; bufio keeps the first
// error and returns it from every later write.
func (p *page) failed() error {
	_, err := p.w.Write(nil)
	return err
}

// csp keeps the page inert even if something slipped through escaping: no
// scripts, no remote loads; only its own styles and data: images.
const csp = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

func (p *page) head(doc Document) {
	w := p.w
	w.WriteString("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	w.WriteString(`<meta http-equiv="Content-Security-Policy" content="` + csp + "\">\n")
	w.WriteString("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	w.WriteString("<meta name=\"generator\" content=\"cairn\">\n<title>")
	writeEscaped(w, title(doc, p.opts))
	w.WriteString("</title>\n<style>\n:root {")
	for _, c := range colours {
		w.WriteString(" " + c.css + ": " + *c.val(&p.opts) + ";")
	}
	w.WriteString(" }\n")
	w.WriteString(stylesheet)
	_ = p.code.WriteCSS(w, p.opts.CodeStyle)
	w.WriteString("</style>\n</head>\n<body>\n")
}

func title(doc Document, opts Options) string {
	switch {
	case opts.Title != "":
		return opts.Title
	case doc.Name != "":
		return doc.Name
	case doc.ID != "":
		return "cairn session " + doc.ID
	}
	return "cairn session"
}

// header writes the page's title and what is known about the session,
// with the tokens and cost of every answer in it, all branches included.
func (p *page) header(doc Document) {
	w := p.w
	w.WriteString("<header>\n<h1>")
	writeEscaped(w, title(doc, p.opts))
	w.WriteString("</h1>\n<dl class=\"facts\">\n")
	fact := func(name, value string) {
		if value == "" {
			return
		}
		w.WriteString("<dt>" + name + "</dt><dd>")
		writeEscaped(w, value)
		w.WriteString("</dd>\n")
	}
	fact("Session", doc.ID)
	fact("Directory", doc.Cwd)
	if !doc.Created.IsZero() {
		fact("Started", doc.Created.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	fact("Model", doc.Model)
	if doc.ThinkingLevel != "" {
		fact("Thinking", string(doc.ThinkingLevel))
	}
	var total core.Usage
	answers := 0
	count := func(list []core.Message) {
		for _, m := range list {
			if a, ok := m.(*core.AssistantMessage); ok {
				total = total.Add(a.Usage)
				answers++
			}
		}
	}
	count(doc.Messages)
	for _, b := range doc.Branches {
		count(b.Messages)
	}
	fact("Messages", strconv.Itoa(len(doc.Messages)))
	if len(doc.Branches) > 0 {
		fact("Other branches", strconv.Itoa(len(doc.Branches)))
	}
	if answers > 0 {
		fact("Tokens", usageText(total))
	}
	w.WriteString("</dl>\n</header>\n")
}

// setup writes the system prompt and the tool list, collapsed.
func (p *page) setup(doc Document) {
	w := p.w
	if doc.SystemPrompt != "" {
		w.WriteString("<details class=\"setup\"><summary>System prompt</summary>\n<pre class=\"prompt\">")
		writeEscaped(w, doc.SystemPrompt)
		w.WriteString("</pre>\n</details>\n")
	}
	if len(doc.Tools) == 0 {
		return
	}
	w.WriteString("<details class=\"setup\"><summary>Tools (" + strconv.Itoa(len(doc.Tools)) + ")</summary>\n<dl class=\"tools\">\n")
	for _, t := range doc.Tools {
		w.WriteString("<dt>")
		writeEscaped(w, t.Name)
		w.WriteString("</dt><dd>")
		writeEscaped(w, t.Description)
		if len(t.Parameters) > 0 {
			w.WriteString("<details><summary>Parameters</summary><pre>")
			p.writeJSON(t.Parameters)
			w.WriteString("</pre></details>")
		}
		w.WriteString("</dd>\n")
	}
	w.WriteString("</dl>\n</details>\n")
}

// writeJSON writes raw JSON indented, or as it is if it does not parse.
func (p *page) writeJSON(raw json.RawMessage) {
	p.buf.Reset()
	if json.Indent(&p.buf, raw, "", "  ") != nil {
		writeEscaped(p.w, string(raw))
		return
	}
	writeEscaped(p.w, p.buf.String())
}

// branches writes the runs off the current branch, each collapsed.
func (p *page) branches(list []Branch) error {
	if len(list) == 0 {
		return nil
	}
	w := p.w
	w.WriteString("<section class=\"branches\">\n<h2>Other branches</h2>\n")
	for _, b := range list {
		w.WriteString("<details class=\"branch\"><summary>")
		if b.ParentID != "" {
			w.WriteString("After <a href=\"#e-")
			writeEscaped(w, b.ParentID)
			w.WriteString("\">")
			writeEscaped(w, b.ParentID)
			w.WriteString("</a>")
		} else {
			w.WriteString("From the start")
		}
		w.WriteString(" · " + plural(len(b.Messages), "message"))
		if first := firstUserText(b.Messages); first != "" {
			w.WriteString(" · <q>")
			writeEscaped(w, preview(first, 80))
			w.WriteString("</q>")
		}
		w.WriteString("</summary>\n")
		if err := p.messages(b.Messages, b.EntryIDs); err != nil {
			return err
		}
		w.WriteString("</details>\n")
	}
	w.WriteString("</section>\n")
	return nil
}

func firstUserText(list []core.Message) string {
	for _, m := range list {
		if u, ok := m.(*core.UserMessage); ok {
			return u.Text()
		}
	}
	return ""
}

// preview is the first line of s, cut to about n bytes on a rune boundary.
func preview(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// usageText says what a usage counted and cost, leaving out zeros.
func usageText(u core.Usage) string {
	parts := []string{"in " + thousands(u.Input), "out " + thousands(u.Output)}
	if u.CacheRead > 0 {
		parts = append(parts, "cache read "+thousands(u.CacheRead))
	}
	if u.CacheWrite > 0 {
		parts = append(parts, "cache write "+thousands(u.CacheWrite))
	}
	if u.Cost.Total > 0 {
		parts = append(parts, "$"+strconv.FormatFloat(u.Cost.Total, 'f', 4, 64))
	}
	return strings.Join(parts, " · ")
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// when formats a message's Unix-millisecond timestamp, or "" for none.
func when(ms int64) string {
	if ms <= 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05")
}
