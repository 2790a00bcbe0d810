// Package ccperm reads Claude Code's permission rules: the rule syntax
// (`Bash(npm test:*)`, `Read(./secrets/**)`, `mcp__server__tool`) that a
// hook's "if" and the allow, deny and ask lists of Claude Code's settings
// use, matched against a tool call in Claude Code's terms, and the
// translation of a settings file's permissions into cairn's: deny and ask
// rules checked before every call, allow rules as cairn approval rules no
// wider than Claude Code's meaning, and what cannot be translated
// reported.
package ccperm
