// Package trust remembers which project directories the person has chosen
// to trust, so that files arriving with a cloned repository cannot change
// what cairn does behind their back.
//
// A project's control files (everything under .cairn/, each AGENTS.md and
// CLAUDE.md from the repository root down, .mcp.json, and every file these
// name as something to run: a hook's script, an MCP server's, an
// extension's) can loosen cairn's behaviour: a settings file can switch
// approvals off, a rules file can allow commands, an MCP file names
// commands to start, a hook's script runs outside any sandbox, prompts
// and context files speak to the model with the person's authority. Until
// the person trusts the project, front ends load none of them, except that
// a project may still make approvals stricter. Trust is stored in the
// person's own directory (~/.cairn/trusted.json), keyed by the project's
// directory, together with a fingerprint of each control file taken by
// itself: when any of them changes (a pull, a checkout, a model's edit),
// the project must be trusted again.
//
// Deciding trust never reads outside the project: a control file that is
// a symbolic link leading out of it is fingerprinted as the link. A file
// that cannot be fingerprinted whole (too large, unreadable) leaves the
// scan unsure, and an unsure project is asked about at every start: no
// limit of the scan can hide a change.
package trust
