package themes

// Token names one colour slot of a theme. The names are pi's, so a theme
// written for pi loads in cairn unchanged.
type Token string

// Core user-interface colours.
const (
	Accent       Token = "accent"       // logo, selected items, cursor
	Border       Token = "border"       // normal borders
	BorderAccent Token = "borderAccent" // highlighted borders
	BorderMuted  Token = "borderMuted"  // subtle borders
	Success      Token = "success"      // success states
	Error        Token = "error"        // error states
	Warning      Token = "warning"      // warning states
	Muted        Token = "muted"        // secondary text
	Dim          Token = "dim"          // text quieter than Muted
	Text         Token = "text"         // default text, usually ""
	ThinkingText Token = "thinkingText" // thinking block text
)

// Backgrounds and message content.
const (
	SelectedBg         Token = "selectedBg"         // selected list item background
	UserMessageBg      Token = "userMessageBg"      // user message background
	UserMessageText    Token = "userMessageText"    // user message text
	CustomMessageBg    Token = "customMessageBg"    // injected (custom) message background
	CustomMessageText  Token = "customMessageText"  // injected message text
	CustomMessageLabel Token = "customMessageLabel" // injected message type label
	ToolPendingBg      Token = "toolPendingBg"      // tool box background while running
	ToolSuccessBg      Token = "toolSuccessBg"      // tool box background after success
	ToolErrorBg        Token = "toolErrorBg"        // tool box background after an error
	ToolTitle          Token = "toolTitle"          // tool box title
	ToolOutput         Token = "toolOutput"         // tool box output text
)

// Markdown.
const (
	MdHeading         Token = "mdHeading"         // heading text
	MdLink            Token = "mdLink"            // link text
	MdLinkURL         Token = "mdLinkUrl"         // link address
	MdCode            Token = "mdCode"            // inline code
	MdCodeBlock       Token = "mdCodeBlock"       // code block text without highlighting
	MdCodeBlockBorder Token = "mdCodeBlockBorder" // code block fences
	MdQuote           Token = "mdQuote"           // block quote text
	MdQuoteBorder     Token = "mdQuoteBorder"     // block quote bar
	MdHr              Token = "mdHr"              // horizontal rule
	MdListBullet      Token = "mdListBullet"      // list bullets and numbers
)

// Diffs shown by tool previews.
const (
	ToolDiffAdded   Token = "toolDiffAdded"   // added lines
	ToolDiffRemoved Token = "toolDiffRemoved" // removed lines
	ToolDiffContext Token = "toolDiffContext" // unchanged context lines
)

// Syntax highlighting.
const (
	SyntaxComment     Token = "syntaxComment"     // comments
	SyntaxKeyword     Token = "syntaxKeyword"     // keywords
	SyntaxFunction    Token = "syntaxFunction"    // function names
	SyntaxVariable    Token = "syntaxVariable"    // variable names
	SyntaxString      Token = "syntaxString"      // string literals
	SyntaxNumber      Token = "syntaxNumber"      // number literals
	SyntaxType        Token = "syntaxType"        // type names
	SyntaxOperator    Token = "syntaxOperator"    // operators
	SyntaxPunctuation Token = "syntaxPunctuation" // punctuation
)

// Editor border colours for each thinking level.
const (
	ThinkingOff     Token = "thinkingOff"
	ThinkingMinimal Token = "thinkingMinimal"
	ThinkingLow     Token = "thinkingLow"
	ThinkingMedium  Token = "thinkingMedium"
	ThinkingHigh    Token = "thinkingHigh"
	ThinkingXhigh   Token = "thinkingXhigh"
)

// BashMode is the editor border colour while the input is a `!` command.
const BashMode Token = "bashMode"

// allTokens is the schema's order: the order of pi's documentation, which is
// also the order in which problems are reported.
var allTokens = [...]Token{
	Accent, Border, BorderAccent, BorderMuted, Success, Error, Warning, Muted, Dim, Text, ThinkingText,
	SelectedBg, UserMessageBg, UserMessageText, CustomMessageBg, CustomMessageText, CustomMessageLabel,
	ToolPendingBg, ToolSuccessBg, ToolErrorBg, ToolTitle, ToolOutput,
	MdHeading, MdLink, MdLinkURL, MdCode, MdCodeBlock, MdCodeBlockBorder, MdQuote, MdQuoteBorder, MdHr, MdListBullet,
	ToolDiffAdded, ToolDiffRemoved, ToolDiffContext,
	SyntaxComment, SyntaxKeyword, SyntaxFunction, SyntaxVariable, SyntaxString, SyntaxNumber, SyntaxType,
	SyntaxOperator, SyntaxPunctuation,
	ThinkingOff, ThinkingMinimal, ThinkingLow, ThinkingMedium, ThinkingHigh, ThinkingXhigh,
	BashMode,
}

// numTokens is the number of tokens every theme must define.
const numTokens = len(allTokens)

// tokenIndex maps a token to its position in allTokens.
var tokenIndex = func() map[Token]int {
	m := make(map[Token]int, numTokens)
	for i, t := range allTokens {
		m[t] = i
	}
	return m
}()

// Tokens returns every token a theme must define, in the schema's order. The
// slice is a fresh copy the caller may keep or modify.
func Tokens() []Token {
	out := make([]Token, numTokens)
	copy(out, allTokens[:])
	return out
}

// Known reports whether t is one of the tokens returned by Tokens.
func (t Token) Known() bool {
	_, ok := tokenIndex[t]
	return ok
}

// ThinkingToken returns the border token for a thinking level ("off",
// "minimal", "low", "medium", "high", "xhigh"); unknown levels get
// ThinkingOff.
func ThinkingToken(level string) Token {
	switch level {
	case "minimal":
		return ThinkingMinimal
	case "low":
		return ThinkingLow
	case "medium":
		return ThinkingMedium
	case "high":
		return ThinkingHigh
	case "xhigh":
		return ThinkingXhigh
	default:
		return ThinkingOff
	}
}
