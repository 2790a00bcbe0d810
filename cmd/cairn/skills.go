package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/cairn-dev/cairn/core/settings"
	"github.com/cairn-dev/cairn/core/skills"
)

// skillsFor finds the run's skills, once (the result is kept in opts): the
// person's, the project's once it is trusted, other agents' unless the
// otherAgentDirs setting is off, none with --no-skills; then --skill's
// paths, whatever --no-skills says.
func skillsFor(env environment, opts *Options, cwd string, t projectTrust) skills.Set {
	if opts.skills != nil {
		return *opts.skills
	}
	var roots []skills.Root
	if !opts.Pi.NoSkills {
		project := ""
		projectSettings := ""
		if t.trusted() {
			project, projectSettings = cwd, settings.ProjectFile(cwd)
		}
		// A broken settings file is reported where the run loads it.
		st, _ := settings.Load(settings.GlobalFile(env.dir), projectSettings)
		roots = skills.Roots(skills.Where{Home: homeDir(env), CairnDir: env.dir, Project: project,
			OtherAgents: st.Effective().OtherAgentDirs})
		// The skills of the person's plugins, after their own.
		plugins, _ := installedPlugins(env, cwd, t.trusted())
		roots = append(roots, pluginSkillRoots(plugins)...)
		roots = withPiSkills(roots, env)
	}
	var missing []skills.Problem
	for _, p := range opts.Pi.Skills {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
			missing = append(missing, skills.Problem{Path: abs, Err: errors.New("--skill: no such file or directory"), Skipped: true})
			continue
		}
		roots = append(roots, skills.Root{Path: abs, Source: skills.SourceUser, Label: "--skill " + p})
	}
	set := skills.Load(roots)
	set.Problems = append(set.Problems, missing...)
	opts.skills = &set
	return set
}

// withPiSkills puts pi's own skills (~/.pi/agent/skills, or under
// PI_CODING_AGENT_DIR) right after cairn's, when pi is set up and the list
// does not hold them yet: a pi user's skills work without otherAgentDirs.
func withPiSkills(roots []skills.Root, env environment) []skills.Root {
	if env.piDir == "" {
		return roots
	}
	dir := filepath.Join(env.piDir, "skills")
	for _, r := range roots {
		if filepath.Clean(r.Path) == filepath.Clean(dir) {
			return roots
		}
	}
	pi := skills.Root{Path: dir, Source: skills.SourceUser, Label: "pi's " + filepath.ToSlash(dir)}
	if home := homeDir(env); home != "" && strings.HasPrefix(dir, home+string(filepath.Separator)) {
		pi.Label = "~/" + filepath.ToSlash(dir[len(home)+1:])
	}
	at := min(1, len(roots))
	return append(roots[:at:at], append([]skills.Root{pi}, roots[at:]...)...)
}

// homeDir is the person's home directory: HOME, else the system's idea;
// "" for an environment without variables (a test's).
func homeDir(env environment) string {
	if env.getenv == nil {
		return ""
	}
	if h := env.getenv("HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
}

// skillWarnings are the lines a run says about its skills at start: the
// skills that cannot be used (or only in part) and the names a skill of
// the person's own took from another.
func skillWarnings(set skills.Set) []string {
	var out []string
	for _, p := range set.Problems {
		if !p.Note {
			out = append(out, p.Error())
		}
	}
	for _, h := range set.Hidden {
		out = append(out, hiddenLine(h))
	}
	return out
}

// hiddenLine says which skill a duplicate name hid.
func hiddenLine(h skills.Hidden) string {
	return fmt.Sprintf("skill %q of %s (%s) is hidden by the one of %s (%s)",
		h.Skill.Name, h.Skill.Root, h.Skill.Path, h.By.Root, h.By.Path)
}

const skillsUsage = `Usage: cairn skills [--trust-project]

Lists the skills cairn offers the model: name, description, where it was
found and its SKILL.md; then skills hidden by another of the same name, and
files that could not be used. A project's skills are listed once it is
trusted (--trust-project trusts it). See docs/skills.md.
`

// skillsCommand is `cairn skills`.
func skillsCommand(args []string, streams IOStreams, getenv func(string) string) int {
	opts := &Options{}
	for _, a := range args {
		switch a {
		case "--trust-project":
			opts.TrustProject = true
		case "-h", "--help":
			fmt.Fprint(streams.Out, skillsUsage)
			return exitOK
		default:
			fmt.Fprintf(streams.Err, "cairn: unknown argument %s\n%s", a, skillsUsage)
			return exitUsage
		}
	}
	env := newEnvironment(getenv)
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: find the working directory: %v\n", err)
		return exitFailure
	}
	set := skillsFor(env, opts, cwd, projectTrustFor(streams, env, opts, cwd, nil))
	printSkills(streams, set)
	return exitOK
}

// printSkills writes the listing of `cairn skills`.
func printSkills(streams IOStreams, set skills.Set) {
	out := streams.Out
	if len(set.Skills) == 0 {
		fmt.Fprintln(out, "No skills. Put one in ~/.cairn/skills/<name>/SKILL.md (see docs/skills.md).")
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	if len(set.Skills) > 0 {
		fmt.Fprintln(tw, "NAME\tSOURCE\tDESCRIPTION\tPATH")
	}
	for _, sk := range set.Skills {
		name := sk.Name
		if sk.ModelHidden {
			name += " (only /skill:" + sk.Name + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable(name), printable(sk.Root), printable(oneLine(sk.Description, 70)), printable(sk.Path))
	}
	tw.Flush()
	var granting []string
	for _, sk := range set.Skills {
		if len(sk.AllowedTools) > 0 {
			granting = append(granting, fmt.Sprintf("  %s: %s", sk.Name, strings.Join(sk.AllowedTools, ", ")))
		}
	}
	if len(granting) > 0 {
		fmt.Fprintln(out, "\nallowed-tools (usable without asking by the prompt that runs the skill; see docs/skills.md):")
		for _, g := range granting {
			fmt.Fprintln(out, printable(g))
		}
	}
	if len(set.Hidden) > 0 {
		fmt.Fprintln(out, "\nHidden (a skill found earlier has the name):")
		for _, h := range set.Hidden {
			fmt.Fprintln(out, "  "+printable(hiddenLine(h)))
		}
	}
	if len(set.Problems) > 0 {
		fmt.Fprintln(out, "\nProblems:")
		for _, p := range set.Problems {
			fmt.Fprintln(out, "  "+printable(p.Error()))
		}
	}
}

// oneLine is s on one line, cut to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
