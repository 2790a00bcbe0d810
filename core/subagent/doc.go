// Package subagent is cairn's task tool: the model hands a piece of work
// to a child session (a subagent) that runs in the same process, on the
// same core, with its own context window and conversation, and gets the
// child's final answer back as the call's result.
//
// A child never has more than its parent: its tools are a view of the
// parent's, narrowed by its definition; its approvals go through the
// parent's gate, and its questions into the parent's one question queue,
// labelled with the subagent's name and task, so every front end already
// shows them and a rule remembered there is the parent's. Its progress
// travels as tool updates of the task call (core.SubagentProgress), its
// transcript is kept beside the parent's session file, and its usage
// rolls up to the parent through the result's details.
//
// Definitions come from Markdown files with front matter (name,
// description, tools, disallowedTools, model, thinking) in the agents
// directories and their sub-directories, in Claude Code's format; two are
// built in: general-purpose and the read-only explore.
package subagent
