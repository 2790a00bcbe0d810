package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/sysprompt"
	"github.com/cairn-dev/cairn/core/trust"
)

// projectTrust is what this run may take from the project directory.
type projectTrust struct {
	project trust.Project
	state   trust.State
	// files are the project's control files, relative to its root.
	files []string
	// store is where trust is kept; nil when the project is the person's
	// home directory.
	store *trust.Store
}

// trusted reports whether the project's control files may be used. A
// project without any has nothing to trust and nothing to fear.
func (t projectTrust) trusted() bool { return t.state == trust.Trusted || len(t.files) == 0 }

// projectTrustFor decides, once per run, whether the project of cwd is
// trusted. --trust-project records trust; ask, when not nil, is the
// terminal to ask the person on (interactive mode only). Otherwise an untrusted project's
// control files are ignored, with one warning on streams.Err naming them and
// the way to trust them.
func projectTrustFor(streams IOStreams, env environment, opts *Options, cwd string, ask *IOStreams) projectTrust {
	if opts.trust != nil {
		return *opts.trust
	}
	t := projectTrust{project: trust.Find(cwd)}
	opts.trust = &t
	if sameDir(filepath.Join(t.project.Dir, ".cairn"), env.dir) {
		// Working in the home directory: its .cairn is the person's own.
		return t
	}
	store := &trust.Store{Path: trust.File(env.dir)}
	t.store = store
	t.files = t.project.ControlFiles()
	if len(t.files) == 0 {
		return t
	}
	state, err := store.Check(t.project)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	t.state = state
	if state == trust.Trusted {
		return t
	}
	yes := opts.TrustProject
	if !yes && ask != nil {
		yes = askTrust(*ask, t)
	}
	if yes {
		if err := store.Trust(t.project); err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: %v; trusting %s for this run only\n", err, t.project.Dir)
		}
		t.state = trust.Trusted
		return t
	}
	why := "is not trusted"
	if state == trust.Changed {
		why = "changed since you trusted it"
	}
	fmt.Fprintf(streams.Err, "cairn: warning: project %s %s, so cairn ignores its %s (only settings that make approvals stricter apply); read them, then run cairn --trust-project there to use them\n",
		t.project.Dir, why, listFiles(t.files))
	return t
}

// keep re-records trust after cairn itself, at the person's request, wrote
// one of the project's control files (an "Always allow" rule, a project
// setting): otherwise the next start would take the person's own change
// for a stranger's. It does nothing for an untrusted project.
func (t projectTrust) keep(streams IOStreams) {
	if !t.trusted() || t.store == nil {
		return
	}
	if err := t.store.Trust(t.project); err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v; cairn will ask to trust %s again\n", err, t.project.Dir)
	}
}

// askTrust asks on the terminal whether to trust the project, before the
// full-screen interface starts. Anything but y or yes is no.
func askTrust(streams IOStreams, t projectTrust) bool {
	w := streams.Err
	fmt.Fprintf(w, "\nThis project has files that change what cairn does:\n")
	for _, f := range t.files {
		fmt.Fprintf(w, "  %s%s\n", f, describeControlFile(t.project, f))
	}
	if t.state == trust.Changed {
		fmt.Fprintf(w, "They changed since you trusted %s.\n", t.project.Dir)
	}
	fmt.Fprintf(w, "Only trust a project you know: its settings can switch approvals off and its\nprompts speak to the model for you. Untrusted, cairn ignores these files.\n")
	fmt.Fprintf(w, "Trust %s? [y/N] ", t.project.Dir)
	answer := strings.ToLower(strings.TrimSpace(readLine(streams.In)))
	fmt.Fprintln(w)
	return answer == "y" || answer == "yes"
}

// describeControlFile says what a control file would do, where that is
// what matters most: an approval mode that is looser than the default.
func describeControlFile(p trust.Project, rel string) string {
	if filepath.Join(p.Root, filepath.FromSlash(rel)) != settings.ProjectFile(p.Dir) {
		return ""
	}
	if m := projectApprovalMode(p.Dir); m != "" && m != approval.ModeDefault {
		return fmt.Sprintf("  (sets approvalMode %q)", m)
	}
	return ""
}

// readLine reads up to a newline one byte at a time, so nothing after the
// answer is taken from a terminal that the interface reads next.
func readLine(r io.Reader) string {
	var b strings.Builder
	buf := make([]byte, 1)
	for b.Len() < 256 {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			break
		}
	}
	return b.String()
}

// listFiles names files for a message: all of them, or the first few and a
// count.
func listFiles(files []string) string {
	if len(files) <= 4 {
		return strings.Join(files, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(files[:4], ", "), len(files)-4)
}

// sameDir reports whether a and b are the same directory.
func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// stricterMode returns the more careful of two approval modes.
func stricterMode(a, b approval.Mode) approval.Mode {
	modes := approval.Modes()
	ia, ib := slices.Index(modes, a), slices.Index(modes, b)
	if ia < 0 || ib < 0 {
		return approval.ModeDefault
	}
	if ib < ia {
		return b
	}
	return a
}

// projectApprovalMode is the approval mode an untrusted project's settings
// ask for, or "" when they ask for none or cannot be read.
func projectApprovalMode(cwd string) approval.Mode {
	path := settings.ProjectFile(cwd)
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	st, _ := settings.Load("", path)
	if _, set := st.Get("approvalMode"); !set {
		return ""
	}
	return st.Effective().ApprovalMode
}

// untrustedContext drops the context files that come from the project
// (at or under its root) and keeps the person's own.
func untrustedContext(files []sysprompt.ContextFile, root string) []sysprompt.ContextFile {
	return slices.DeleteFunc(files, func(f sysprompt.ContextFile) bool {
		// root has its symlinks resolved; resolve the file's directory the
		// same way (not the file: a link out of the project still came
		// with the project).
		path := f.Path
		if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
			path = filepath.Join(dir, filepath.Base(path))
		}
		rel, err := filepath.Rel(root, path)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	})
}
