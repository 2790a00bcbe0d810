package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/themes"
	"github.com/cairn-dev/cairn/tui/editor"
	"github.com/cairn-dev/cairn/tui/markdown"
	"github.com/cairn-dev/cairn/tui/toolview"
)

// styles are the theme's colours as the parts of the screen use them.
type styles struct {
	theme *themes.Theme

	text, muted, dim, accent    lipgloss.Style
	errorText, warning, success lipgloss.Style
	thinking, border, bash      lipgloss.Style
	user, selected              lipgloss.Style
	tool                        toolview.Styles
	editor                      editor.Styles
}

func newStyles(t *themes.Theme, expandKey string) *styles {
	s := &styles{
		theme:     t,
		text:      t.Fg(themes.Text),
		muted:     t.Fg(themes.Muted),
		dim:       t.Fg(themes.Dim),
		accent:    t.Fg(themes.Accent),
		errorText: t.Fg(themes.Error),
		warning:   t.Fg(themes.Warning),
		success:   t.Fg(themes.Success),
		thinking:  t.Fg(themes.ThinkingText).Italic(true),
		border:    t.Fg(themes.BorderMuted),
		bash:      t.Fg(themes.BashMode),
		user:      t.Fg(themes.UserMessageText).Background(t.Color(themes.UserMessageBg)).Padding(0, 1),
		selected:  t.Fg(themes.Text).Background(t.Color(themes.SelectedBg)),
	}
	s.tool = toolview.Styles{
		Title:       t.Fg(themes.ToolTitle).Bold(true),
		Output:      t.Fg(themes.ToolOutput),
		Muted:       t.Fg(themes.Muted),
		Dim:         t.Fg(themes.Dim),
		Error:       t.Fg(themes.Error),
		Success:     t.Fg(themes.Success),
		Warning:     t.Fg(themes.Warning),
		DiffAdded:   t.Fg(themes.ToolDiffAdded),
		DiffRemoved: t.Fg(themes.ToolDiffRemoved),
		DiffContext: t.Fg(themes.ToolDiffContext),
		LineNumber:  t.Fg(themes.Dim),
		PendingBg:   t.Bg(themes.ToolPendingBg),
		SuccessBg:   t.Bg(themes.ToolSuccessBg),
		ErrorBg:     t.Bg(themes.ToolErrorBg),
		Chroma:      t.ChromaStyle(),
		Formatter:   t.ChromaFormatter(),
		ExpandHint:  expandKey + " to expand",
	}
	s.editor = editor.Styles{
		Text:          t.Fg(themes.Text),
		Placeholder:   t.Fg(themes.Dim),
		Prompt:        t.Fg(themes.Accent),
		Cursor:        lipgloss.NewStyle().Reverse(true),
		Popup:         t.Fg(themes.Text),
		PopupSelected: t.Fg(themes.Accent).Background(t.Color(themes.SelectedBg)),
		Description:   t.Fg(themes.Muted),
		Marker:        t.Fg(themes.Accent),
	}
	return s
}

// thinkingLevel is the colour of a thinking level.
func (s *styles) thinkingLevel(l core.ThinkingLevel) lipgloss.Style {
	return s.theme.Fg(themes.ThinkingToken(string(l)))
}

// palette is the theme's markdown colours, as the theme's rendering for
// the terminal's profile gives them.
func palette(t *themes.Theme) markdown.Palette {
	return markdown.Palette{
		Text:            t.Spec(themes.Text),
		Heading:         t.Spec(themes.MdHeading),
		Link:            t.Spec(themes.MdLink),
		LinkURL:         t.Spec(themes.MdLinkURL),
		Code:            t.Spec(themes.MdCode),
		CodeBlock:       t.Spec(themes.MdCodeBlock),
		CodeBlockBorder: t.Spec(themes.MdCodeBlockBorder),
		Quote:           t.Spec(themes.MdQuote),
		QuoteBorder:     t.Spec(themes.MdQuoteBorder),
		HR:              t.Spec(themes.MdHr),
		ListBullet:      t.Spec(themes.MdListBullet),
		Chroma:          t.ChromaStyle(),
		Formatter:       t.ChromaFormatter(),
		Dark:            t.Dark,
	}
}
