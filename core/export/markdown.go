package export

import (
	"path/filepath"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	gmhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Highlighting is slow (chroma tokenises well under 1 MB/s on a small
// machine), so it is rationed: a block longer than maxHighlight is shown
// plain, and so is everything after the first highlightBudget bytes of
// code on a page. That keeps a large session's export linear and fast; the
// code blocks of a typical session all fit.
const (
	maxHighlight    = 16 << 10
	highlightBudget = 64 << 10
)

// newMarkdown returns the markdown converter of a page: GitHub's dialect,
// raw HTML left out (goldmark's default), code blocks highlighted with
// chroma and images turned into links, so the page loads nothing remote.
func newMarkdown(p *page) goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(
			renderer.WithNodeRenderers(util.Prioritized(markdownRenderer{p}, 100)),
		),
	)
}

// markdown writes text rendered from markdown.
func (p *page) markdown(text string) error {
	p.src = append(p.src[:0], text...)
	p.w.WriteString("<div class=\"md\">")
	err := p.md.Convert(p.src, pageWriter{p})
	p.w.WriteString("</div>\n")
	return err
}

// pageWriter lets goldmark write to the page's buffer without flushing it
// after every message.
type pageWriter struct{ p *page }

func (w pageWriter) Write(b []byte) (int, error)       { return w.p.w.Write(b) }
func (w pageWriter) WriteString(s string) (int, error) { return w.p.w.WriteString(s) }
func (w pageWriter) WriteByte(c byte) error            { return w.p.w.WriteByte(c) }
func (w pageWriter) WriteRune(r rune) (int, error)     { return w.p.w.WriteRune(r) }
func (w pageWriter) Available() int                    { return w.p.w.Available() }
func (w pageWriter) Buffered() int                     { return w.p.w.Buffered() }
func (w pageWriter) Flush() error                      { return w.p.failed() }

// markdownRenderer renders the nodes the page treats its own way.
type markdownRenderer struct{ p *page }

// RegisterFuncs implements renderer.NodeRenderer.
func (r markdownRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, r.codeBlock)
	reg.Register(ast.KindCodeBlock, r.codeBlock)
	reg.Register(ast.KindImage, r.image)
}

func (r markdownRenderer) codeBlock(_ util.BufWriter, source []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	lang := ""
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(source))
	}
	buf := &r.p.buf
	buf.Reset()
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		buf.Write(seg.Value(source))
	}
	r.p.highlight(buf.String(), r.p.lexerFor(lang, ""))
	return ast.WalkSkipChildren, nil
}

// image writes a markdown image as a link to it: showing it would mean
// loading it from wherever it is.
func (r markdownRenderer) image(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	w.WriteString("<a class=\"md-image\" href=\"")
	if !gmhtml.IsDangerousURL(img.Destination) {
		w.Write(util.EscapeHTML(util.URLEscape(img.Destination, true)))
	}
	w.WriteString("\">image: ")
	return ast.WalkContinue, nil
}

// lexerFor finds the lexer for a code block's language or, when lang is
// empty, for a file's name; nil means plain text.
func (p *page) lexerFor(lang, file string) chroma.Lexer {
	key := "lang:" + strings.ToLower(lang)
	if lang == "" {
		if file == "" {
			return nil
		}
		base := filepath.Base(file)
		ext := filepath.Ext(base)
		if ext == "" {
			key = "file:" + base
		} else {
			key = "ext:" + ext
			base = "x" + ext
		}
		file = base
	}
	if l, ok := p.lexers[key]; ok {
		return l
	}
	var l chroma.Lexer
	if lang != "" {
		l = lexers.Get(lang)
	} else {
		l = lexers.Match(file)
	}
	if l != nil {
		l = chroma.Coalesce(l)
	}
	p.lexers[key] = l
	return l
}

// highlight writes code in a <pre>, coloured when a lexer is known and the
// code is not too long to tokenise.
func (p *page) highlight(code string, l chroma.Lexer) {
	if l != nil && len(code) <= maxHighlight && len(code) <= p.highlightLeft {
		p.highlightLeft -= len(code)
		if it, err := l.Tokenise(nil, code); err == nil {
			_ = p.code.Format(p.w, p.opts.CodeStyle, it)
			p.w.WriteByte('\n')
			return
		}
	}
	p.w.WriteString("<pre class=\"chroma\"><code>")
	writeEscaped(p.w, code)
	p.w.WriteString("</code></pre>\n")
}
