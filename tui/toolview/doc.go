// Package toolview draws tool calls for the transcript: one box per call
// whose content depends on the tool. A bash call shows its command, the tail
// of its output and its exit status; read and write show the file's path,
// line range or size and a highlighted head of the text; edit shows a
// coloured diff with line numbers (before it runs, the preview the person
// approves); grep, find and ls show counts and the first results; any other
// tool shows its name, its arguments and the head of its output.
//
// The package is pure: Render and Header are functions of a Call, a width
// and Styles, with no Bubble Tea model, no I/O and no caching. Arguments
// may be incomplete JSON while the model is still streaming them; whatever
// can be read from them is drawn. Every line Render returns is exactly the
// width asked for, measured in terminal cells with ANSI sequences ignored.
package toolview
