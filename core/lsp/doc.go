// Package lsp gives the agent what a compiler would tell it: language
// servers (gopls, typescript-language-server, pyright, rust-analyzer,
// clangd, or those settings name) started on first need, one per language
// and root, through the helper-process rules of core/child (no secrets in
// their environment, a process group of their own).
//
// After write or edit changes a file (WithDiagnostics), the file's server
// is told of the new text and its diagnostics are awaited for a bounded
// time; the errors the change introduced, compared with the file's
// diagnostics before it, are appended to the tool's result, capped. The
// diagnostics tool (Tool) asks about one file or lists what the running
// servers reported. A server that is missing, slow, hung or crashing
// never holds a turn longer than the wait; one that stops is restarted at
// most MaxStarts times in all, then reported and left off.
//
// Types and JSON-RPC framing are go.lsp.dev's protocol and jsonrpc2.
// Nothing here runs until a Manager is first used.
package lsp
