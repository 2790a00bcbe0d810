// Package session stores conversations as pi's JSONL session trees, so a
// session written by pi opens in cairn and the other way round.
//
// A session file is a header line ({"type":"session","version":3,...})
// followed by one entry per line. Every entry has an id and the id of its
// parent, so the file holds a tree: branching moves the leaf (the current
// tip) to an earlier entry and the next entry becomes its child; nothing is
// ever rewritten. Files are append-only, written with one write call per
// entry and fsynced after each message (never per streamed token), and a
// new session reaches the disk only with its first assistant message.
//
// Reading is built for large files: Open streams the file line by line
// with no line-length limit, indexes every entry (id, parent, type, offset)
// and decodes only the active branch, with core/jsonscan and core's own
// message reader, an order of magnitude faster than encoding/json on long
// strings. A corrupt line, including the incomplete last line a crash
// leaves behind, is skipped and reported as a Warning; it never stops a
// session from opening.
//
// Store lays sessions out as pi does (<root>/--<cwd slug>--/<time>_<uuid>.jsonl)
// and finds them again for --continue (Latest) and --resume (List).
// File.Context rebuilds what the model sees, honouring compaction, in the
// agent message roles of core (core.ToLLM turns them into provider roles).
package session
