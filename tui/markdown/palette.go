package markdown

import (
	"fmt"
	"sync"

	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	chromaformatters "github.com/alecthomas/chroma/v2/formatters"
	chromastyles "github.com/alecthomas/chroma/v2/styles"
)

// Palette holds the colours a theme gives to markdown. Each colour is
// "#rrggbb", a 0-255 terminal colour index written in decimal, or "" for the
// default of glamour's dark or light style.
type Palette struct {
	// Text colours body text.
	Text string
	// Heading colours headings of every level.
	Heading string
	// Link colours the text of a link.
	Link string
	// LinkURL colours the address printed after a link's text.
	LinkURL string
	// Code colours inline code spans.
	Code string
	// CodeBlock colours code blocks where chroma leaves text unstyled.
	CodeBlock string
	// CodeBlockBorder is accepted so that themes map one to one onto pi's
	// tokens; glamour draws no frame around code blocks, so it is unused.
	CodeBlockBorder string
	// Quote colours the text of block quotes.
	Quote string
	// QuoteBorder colours the bar in front of block quotes.
	QuoteBorder string
	// HR colours horizontal rules.
	HR string
	// ListBullet colours the bullets of unordered lists.
	ListBullet string
	// Chroma highlights code blocks. Nil selects a built-in chroma style
	// that suits Dark.
	Chroma *chroma.Style
	// Formatter writes the highlighted code blocks (themes.Theme's
	// ChromaFormatter, which writes a 256- or 16-colour theme's palette
	// indexes as chosen). Nil selects chroma's 24-bit formatter, which
	// Bubble Tea lowers to what the terminal supports.
	Formatter chroma.Formatter
	// Dark says the terminal background is dark; it picks glamour's dark or
	// light style as the base the colours above override.
	Dark bool
}

// Built-in chroma styles used when a Palette has none.
const (
	darkChromaStyle  = "github-dark"
	lightChromaStyle = "github"
)

// styleConfig builds glamour's style sheet for p: glamour's own dark or light
// style with the palette's colours laid over it, no document margin and no
// blank lines around the document.
func styleConfig(p Palette) ansi.StyleConfig {
	c := styles.LightStyleConfig
	if p.Dark {
		c = styles.DarkStyleConfig
	}
	// The base config shares pointers with glamour's package variables, so
	// every override below replaces a pointer and never writes through one.
	c.Document.Margin = uintPtr(0)
	c.Document.BlockPrefix = ""
	c.Document.BlockSuffix = ""
	setColor(&c.Document.Color, p.Text)

	setColor(&c.Heading.Color, p.Heading)
	// glamour's H1 is a badge on a fixed purple background; a "# " prefix
	// in the heading colour fits any theme.
	c.H1 = ansi.StyleBlock{StylePrimitive: ansi.StylePrimitive{Prefix: "# ", Bold: boolPtr(true)}}
	if p.Heading != "" {
		c.H6.Color = nil
	}

	setColor(&c.LinkText.Color, p.Link)
	setColor(&c.Link.Color, p.LinkURL)
	setColor(&c.Code.Color, p.Code)
	// glamour pads a code span with a space each side, which leaves a
	// space before the punctuation after it ("`Parse`," drew "Parse ,").
	c.Code.Prefix, c.Code.Suffix = "", ""
	setColor(&c.CodeBlock.Color, p.CodeBlock)
	c.CodeBlock.Chroma = nil
	c.CodeBlock.Theme = chromaStyleName(p)

	setColor(&c.BlockQuote.Color, p.Quote)
	if p.QuoteBorder != "" {
		bar := lipgloss.NewStyle().Foreground(lipgloss.Color(p.QuoteBorder)).Render("│")
		c.BlockQuote.IndentToken = stringPtr(bar + " ")
	}
	setColor(&c.HorizontalRule.Color, p.HR)

	// The bullet moves from BlockPrefix, which glamour prints in the
	// surrounding text's style, to Prefix, which takes the item's own colour.
	c.Item = ansi.StylePrimitive{Prefix: "• "}
	setColor(&c.Item.Color, p.ListBullet)
	return c
}

// registry names what cairn registers in one of chroma's global
// registries (styles, formatters), which are all glamour looks names up
// in: each thing is registered once, under a name no other uses, however
// many renderers use it.
type registry[K comparable] struct {
	sync.Mutex
	prefix string
	names  map[K]string
}

// name returns key's name, calling register with a new name the first time.
func (r *registry[K]) name(key K, register func(name string)) string {
	r.Lock()
	defer r.Unlock()
	if name, ok := r.names[key]; ok {
		return name
	}
	name := fmt.Sprintf("%s-%d", r.prefix, len(r.names)+1)
	register(name)
	r.names[key] = name
	return name
}

var (
	chromaNames    = registry[*chroma.Style]{prefix: "cairn-markdown", names: map[*chroma.Style]string{}}
	formatterNames = registry[chroma.Formatter]{prefix: "cairn-formatter", names: map[chroma.Formatter]string{}}
)

// chromaStyleName returns the name glamour should look p's chroma style up
// by: a built-in style's, or the name p's own style is registered under.
func chromaStyleName(p Palette) string {
	if p.Chroma == nil {
		if p.Dark {
			return darkChromaStyle
		}
		return lightChromaStyle
	}
	return chromaNames.name(p.Chroma, func(name string) {
		style, err := p.Chroma.Builder().Build()
		if err != nil {
			style = p.Chroma
		}
		style.Name = name
		chromastyles.Register(style)
	})
}

// chromaFormatterName returns the name glamour should look p's chroma
// formatter up by: chroma's 24-bit one, or the name p's own formatter is
// registered under.
func chromaFormatterName(p Palette) string {
	if p.Formatter == nil {
		return chromaFormatter
	}
	return formatterNames.name(p.Formatter, func(name string) {
		chromaformatters.Register(name, p.Formatter)
	})
}

func setColor(dst **string, c string) {
	if c != "" {
		*dst = stringPtr(c)
	}
}

func boolPtr(b bool) *bool       { return &b }
func stringPtr(s string) *string { return &s }
func uintPtr(u uint) *uint       { return &u }
