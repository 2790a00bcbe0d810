// Package sysprompt builds the system prompt cairn sends with every
// request: who the agent is, the tools it has and how to use them, the
// user's and the project's instruction files (AGENTS.md, else CLAUDE.md),
// the date and the working directory.
//
// The prompt has the structure of pi's, so instruction files and custom
// prompts written for pi work the same way, in cairn's own words.
// LoadContextFiles and LoadOverrides find the files; Build assembles the
// text and does no I/O of its own beyond defaulting the date and the
// working directory.
package sysprompt
