package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/hook"
	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/sysprompt"
	"github.com/cairn-dev/cairn/core/trust"
)

// projectTrust is what this run may take from the project directory.
type projectTrust struct {
	project trust.Project
	state   trust.State
	// scan is the project's control files as this run found them, or, once
	// cairn wrote one for the person, as it left them (see keep).
	scan trust.Scan
	// files are the paths of scan's files, relative to the project's root.
	files []string
	// store is where trust is kept; nil when the project is the person's
	// home directory.
	store *trust.Store
	// changes are the control files that are not as the person trusted
	// them, when state is trust.Changed.
	changes []string
	// ignored, when the project's files are ignored for want of trust,
	// says which and why ("project /p is not trusted, so cairn ignores its
	// AGENTS.md"), for front ends that show no stderr.
	ignored string
}

// trusted reports whether the project's control files may be used. A
// project without any has nothing to trust and nothing to fear.
func (t projectTrust) trusted() bool { return t.state == trust.Trusted || len(t.files) == 0 }

// projectTrustFor decides, once per run, whether the project of cwd is
// trusted. --trust-project records trust; ask, when not nil, is the
// terminal to ask the person on (interactive mode only). Otherwise an
// untrusted project's control files are ignored, with one warning on
// streams.Err naming them and the way to trust them.
func projectTrustFor(streams IOStreams, env environment, opts *Options, cwd string, ask *IOStreams) projectTrust {
	if opts.trust != nil {
		return *opts.trust
	}
	t := projectTrust{project: trust.Find(cwd)}
	// With the opt-in, the project's Claude Code settings name hook
	// commands, so trust covers them.
	t.project.ClaudeSettings = claudeHooksOptIn(env)
	opts.trust = &t
	if isCairnHome(t.project.Dir, env.dir) {
		// Working in the home directory: its .cairn is the person's own.
		return t
	}
	store := &trust.Store{Path: trust.File(env.dir)}
	t.store = store
	t.scan = t.project.Scan()
	t.files = t.scan.Paths()
	if len(t.files) == 0 {
		return t
	}
	state, err := store.Check(t.project, t.scan)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
	}
	t.state = state
	if state == trust.Changed {
		t.changes = store.Changes(t.project, t.scan)
	}
	if opts.Pi.NoTrust {
		// pi's --no-approve: this run ignores the project's files, trusted
		// or not.
		t.state = trust.Untrusted
		fmt.Fprintf(streams.Err, "cairn: --no-approve: ignoring project %s's %s for this run (only settings that make approvals stricter apply)\n",
			t.project.Dir, listFiles(t.files))
		return t
	}
	if state == trust.Trusted {
		return t
	}
	if opts.Pi.TrustRun && !opts.TrustProject {
		// pi's --approve: trusted for this run, recorded nowhere.
		t.state = trust.Trusted
		return t
	}
	yes := opts.TrustProject
	if !yes && ask != nil {
		yes = askTrust(*ask, t)
	}
	if yes {
		if err := store.Trust(t.project, t.scan); err != nil {
			fmt.Fprintf(streams.Err, "cairn: warning: %v; trusting %s for this run only\n", err, t.project.Dir)
		}
		t.state = trust.Trusted
		return t
	}
	why := "is not trusted"
	switch {
	case !t.scan.Sure():
		why = "has control files cairn cannot check whole (too large, too many or unreadable), so trust cannot last from one start to the next"
	case state == trust.Changed && len(t.changes) > 0:
		why = "changed since you trusted it (" + listFiles(t.changes) + ")"
	case state == trust.Changed:
		why = "changed since you trusted it"
	case state == trust.Outdated:
		why = "was trusted by an older cairn, which checked its files another way"
	}
	t.ignored = fmt.Sprintf("project %s %s, so cairn ignores its %s (only settings that make approvals stricter apply)", t.project.Dir, why, listFiles(t.files))
	fmt.Fprintf(streams.Err, "cairn: warning: %s; read them, then run cairn --trust-project there to use them\n", t.ignored)
	return t
}

// runFiles are the files the project's control files name as something
// to run (trust.Project.Scripts), those of the project that the person's
// own settings in cairnDir run (trust.Project.PersonalScripts), and, when
// cairn runs their hooks, Claude Code's settings files, each with what it
// is, for the approval gate (approval.Config.RunFiles): a model's edit of
// one asks in every mode but yolo.
func (t projectTrust) runFiles(cairnDir string) map[string]string {
	if t.project.Dir == "" {
		return nil
	}
	files := map[string]string{}
	for _, s := range t.project.PersonalScripts(settings.GlobalFile(cairnDir)) {
		files[s.Path] = s.What()
	}
	// The scan this run took holds the project's scripts (those under
	// .cairn/ are protected anyway).
	for _, f := range t.scan.Files {
		if f.Script != nil {
			files[f.Script.Path] = f.Script.What()
		}
	}
	if t.project.ClaudeSettings {
		for _, f := range hook.ClaudeProjectFiles(t.project.Dir) {
			files[f] = "Claude Code's settings, whose hooks cairn runs"
		}
	}
	return files
}

// keep keeps the project trusted after cairn itself, at the person's
// request, wrote its control file at path, in the working directory cwd
// (an "Always allow" rule, a project setting): otherwise the next start
// would take the person's own change for a stranger's. Only that file is
// re-recorded, and only while the other control files are as this run
// trusted them; any other change waits for the next start to ask about
// it. It does nothing for an untrusted project.
func (t *projectTrust) keep(streams IOStreams, cwd, path string) {
	if !t.trusted() || t.store == nil {
		return
	}
	name, err := filepath.Rel(cwd, path)
	if err != nil {
		return
	}
	scan, err := t.store.Keep(t.project, t.scan, name)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: warning: %v\n", err)
		return
	}
	t.scan = scan
}

// askTrust asks on the terminal whether to trust the project, before the
// full-screen interface starts. Anything but y or yes is no.
func askTrust(streams IOStreams, t projectTrust) bool {
	w := streams.Err
	fmt.Fprintf(w, "\nThis project has files that change what cairn does:\n")
	for _, f := range t.scan.Files {
		fmt.Fprintf(w, "  %s%s\n", printable(f.Path), describeControlFile(t.project, f))
	}
	switch {
	case !t.scan.Sure():
		fmt.Fprintf(w, "cairn cannot fingerprint every one of them whole, so it cannot tell whether they\nchange: it asks at every start until they are smaller or fewer.\n")
	case t.state == trust.Changed && len(t.changes) > 0:
		fmt.Fprintf(w, "Since you trusted %s, these changed: %s.\n", t.project.Dir, printable(listFiles(t.changes)))
	case t.state == trust.Changed:
		fmt.Fprintf(w, "They changed since you trusted %s.\n", t.project.Dir)
	case t.state == trust.Outdated:
		fmt.Fprintf(w, "You trusted %s with an older cairn, which checked these files another way.\n", t.project.Dir)
	}
	if t.scan.TooMany {
		fmt.Fprintf(w, "  (and more: cairn lists only the first %d)\n", len(t.scan.Files))
	}
	fmt.Fprintf(w, "Only trust a project you know: its settings can switch approvals off and its\nprompts speak to the model for you. Untrusted, cairn ignores these files.\n")
	fmt.Fprintf(w, "Trust %s? [y/N] ", t.project.Dir)
	answer := strings.ToLower(strings.TrimSpace(readLine(streams.In)))
	fmt.Fprintln(w)
	return answer == "y" || answer == "yes"
}

// describeControlFile says what the person should know about a control
// file before trusting it: that it is a link out of the project (cairn
// would read a file the project does not hold, and does not watch it for
// changes), that cairn cannot fingerprint it, or what it would do where
// that matters most: an approval mode looser than the default.
func describeControlFile(p trust.Project, f trust.ControlFile) string {
	switch {
	case f.Script != nil && f.Script.Outside:
		return fmt.Sprintf("  (%s, outside the project: cairn cannot tell when it changes)", f.Script.What())
	case f.Script != nil && f.Outside != "":
		return fmt.Sprintf(" -> %s  (%s, in a directory out of the project: cairn cannot tell when it changes)", printable(f.Outside), f.Script.What())
	case f.Outside != "":
		return fmt.Sprintf(" -> %s  (a link out of the project: cairn would read that file but cannot tell when it changes)", printable(f.Outside))
	case f.Script != nil && f.Doubt == "":
		return "  (" + f.Script.What() + ")"
	case f.Doubt != "":
		return "  (" + f.Doubt + ")"
	}
	if filepath.Join(p.Root, filepath.FromSlash(f.Path)) != settings.ProjectFile(p.Dir) {
		return ""
	}
	if m := projectApprovalMode(p.Dir); m != "" && m != approval.ModeDefault {
		return fmt.Sprintf("  (sets approvalMode %q)", m)
	}
	return ""
}

// printable quotes a name from the project that holds control characters,
// which could otherwise rewrite the question on the terminal.
func printable(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
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

// isCairnHome reports whether dir is the directory holding the person's
// own cairn directory cairnDir, so that dir/.cairn is cairnDir itself and
// not a project's. It compares the directories themselves, never where a
// .cairn leads: a project's .cairn that links to the person's own is still
// the project's, and asks for trust.
func isCairnHome(dir, cairnDir string) bool {
	if filepath.Base(cairnDir) != ".cairn" {
		return false
	}
	a, errA := os.Stat(dir)
	b, errB := os.Stat(filepath.Dir(cairnDir))
	return errA == nil && errB == nil && os.SameFile(a, b)
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
