package themes

import (
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// syntaxRule gives one chroma token type the colour of a theme token, plus
// optional attributes ("bold", "italic", "underline").
type syntaxRule struct {
	kind  chroma.TokenType
	token Token
	attrs string
}

// syntaxRules maps chroma's token types to theme tokens. Subtypes not listed
// inherit from their category (KeywordReserved from Keyword, and so on).
// Plain names (chroma.Name) keep the text colour, as most editors do: only
// names the lexer knows to be variables get SyntaxVariable.
var syntaxRules = []syntaxRule{
	{chroma.Background, Text, ""},
	{chroma.Text, Text, ""},
	{chroma.Error, Error, ""},
	{chroma.Comment, SyntaxComment, "italic"},
	{chroma.CommentPreproc, SyntaxKeyword, ""},
	{chroma.Keyword, SyntaxKeyword, ""},
	{chroma.KeywordType, SyntaxType, ""},
	{chroma.NameVariable, SyntaxVariable, ""},
	{chroma.NameAttribute, SyntaxVariable, ""},
	{chroma.NameProperty, SyntaxVariable, ""},
	{chroma.NameConstant, SyntaxNumber, ""},
	{chroma.NameFunction, SyntaxFunction, ""},
	{chroma.NameFunctionMagic, SyntaxFunction, ""},
	{chroma.NameDecorator, SyntaxFunction, ""},
	{chroma.NameBuiltin, SyntaxFunction, ""},
	{chroma.NameBuiltinPseudo, SyntaxKeyword, ""},
	{chroma.NameClass, SyntaxType, ""},
	{chroma.NameException, SyntaxType, ""},
	{chroma.NameNamespace, SyntaxType, ""},
	{chroma.NameTag, SyntaxKeyword, ""},
	{chroma.LiteralString, SyntaxString, ""},
	{chroma.LiteralStringEscape, SyntaxNumber, ""},
	{chroma.LiteralNumber, SyntaxNumber, ""},
	{chroma.Operator, SyntaxOperator, ""},
	{chroma.OperatorWord, SyntaxKeyword, ""},
	{chroma.Punctuation, SyntaxPunctuation, ""},
	{chroma.GenericInserted, ToolDiffAdded, ""},
	{chroma.GenericDeleted, ToolDiffRemoved, ""},
	{chroma.GenericHeading, MdHeading, "bold"},
	{chroma.GenericSubheading, MdHeading, ""},
	{chroma.GenericError, Error, ""},
	{chroma.GenericOutput, ToolOutput, ""},
	{chroma.GenericPrompt, Muted, ""},
	{chroma.LineNumbers, Dim, ""},
}

// buildChroma makes the theme's chroma style. The background is left unset so
// highlighted code sits on whatever background the TUI draws.
func (t *Theme) buildChroma() *chroma.Style {
	b := chroma.NewStyleBuilder("cairn-" + t.Name)
	b.Add(chroma.GenericEmph, "italic")
	b.Add(chroma.GenericStrong, "bold")
	b.Add(chroma.GenericUnderline, "underline")
	for _, rule := range syntaxRules {
		r, g, bl, ok := t.value(rule.token).rgb()
		if !ok {
			if rule.attrs != "" {
				b.Add(rule.kind, rule.attrs)
			}
			continue
		}
		entry := chroma.NewColour(r, g, bl).String()
		if rule.attrs != "" {
			entry = rule.attrs + " " + entry
		}
		b.Add(rule.kind, entry)
	}
	if r, g, bl, ok := t.value(SelectedBg).rgb(); ok {
		b.Add(chroma.LineHighlight, "bg:"+chroma.NewColour(r, g, bl).String())
	}
	style, err := b.Build()
	if err != nil {
		// Every entry above is built from parsed colours, so this cannot
		// happen; fall back to an empty style rather than panic.
		return chroma.MustNewStyle("cairn-empty", chroma.StyleEntries{})
	}
	return style
}

// ChromaStyle returns a chroma style built from the theme's syntax tokens
// (and its diff, heading and text colours for the matching chroma types), so
// code highlighting follows the theme. The style is built once per theme and
// shared; it sets no background colour.
func (t *Theme) ChromaStyle() *chroma.Style {
	return t.chroma
}

// ChromaFormatter returns the formatter that writes the theme's chroma
// style with the theme's own colours: the palette indexes a 256- or
// 16-colour rendering (ForProfile) picks are written as those indexes, not
// as RGB for the terminal to lower by nearest colour; "#rrggbb" colours as
// 24-bit escapes. Use it with ChromaStyle.
func (t *Theme) ChromaFormatter() chroma.Formatter {
	return t.sgr
}

// Highlight returns code coloured with the theme's chroma style and
// ChromaFormatter (a true-colour theme's colours as 24-bit escapes, which
// Bubble Tea lowers to what the terminal supports). The lexer
// is chosen by language name or alias ("go", "py") first, then by filename
// ("main.go"); when neither is known, or the lexer fails, the code is
// returned unchanged.
func (t *Theme) Highlight(code, language, filename string) string {
	lexer := Lexer(language, filename)
	if lexer == nil {
		return code
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, code)
	if err != nil {
		return code
	}
	var sb strings.Builder
	sb.Grow(len(code) * 2)
	if err := t.sgr.Format(&sb, t.chroma, it); err != nil {
		return code
	}
	return sb.String()
}

// Lexer finds a chroma lexer by language name or alias, then by filename. It
// returns nil when neither matches.
func Lexer(language, filename string) chroma.Lexer {
	if language != "" {
		if l := lexers.Get(language); l != nil {
			return l
		}
	}
	if filename != "" {
		if l := lexers.Match(filename); l != nil {
			return l
		}
	}
	return nil
}
