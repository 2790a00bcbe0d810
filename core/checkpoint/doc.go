// Package checkpoint records the state of a project's files around each
// prompt and puts it back on request (rewind), without git and without
// touching the project's own .git.
//
// A Store lives outside the project (~/.cairn/checkpoints/<project-id>/)
// and is content-addressed: blobs hold the contents of files by SHA-256,
// trees hold one directory each (name, kind, mode, size, mtime, inode,
// link target, hash), and a checkpoint is a small record naming the root
// tree. A scan stats every entry and reads only the files whose stat
// differs from the last tree, so unchanged files cost one lstat and
// unchanged directories reuse their tree. Whatever changed the files (an
// edit tool, a shell command, a person) is seen the same way.
//
// Files too big for the limits, unreadable files and special files are
// recorded as unkept, with the reason, never skipped in silence, so a
// rewind names exactly what it cannot restore. Directories named .git are
// left out of checkpoints entirely: they are never read, changed or
// removed.
//
// The objects a scan finds new go into one pack file (blobs compressed
// when that pays), so a checkpoint creates two files whatever changed:
// its pack and its record. Creating files is what a checkpoint used to
// spend most of its time on. Stores of older cairns, one file per object,
// are still read and collected.
//
// Every file the store writes goes through a temporary file and a rename,
// and a checkpoint record is written last, after the pack holding the
// objects it names, so a crash at any point leaves the store valid
// (perhaps with a pack no record names, which gc removes).
package checkpoint
