// Package settings reads and writes cairn's settings.json files: the user's
// (~/.cairn/settings.json) and the project's (<project>/.cairn/settings.json),
// in pi's format, so a pi user's file works unchanged.
//
// A Store lays the project file over the global one, and this session's
// changes over both, merging objects one level deep as pi does;
// Store.Effective returns the result with defaults filled in. Files are
// never fatal: a missing file holds nothing, and a broken one is reported
// and ignored. Changes go to one scope: the session (memory only), the
// global file or the project file. A file is rewritten by read-modify-write
// under a lock shared with other cairn processes, keeping the keys cairn
// does not know and the order of the keys it found.
package settings
