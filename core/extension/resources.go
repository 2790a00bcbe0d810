package extension

import (
	"context"
	"fmt"
	"path/filepath"
)

// Resources are the skill, prompt template and theme paths extensions add
// (version 2; pi's resources_discover), in load order.
type Resources struct {
	SkillPaths  []string `json:"skillPaths,omitempty"`
	PromptPaths []string `json:"promptPaths,omitempty"`
	ThemePaths  []string `json:"themePaths,omitempty"`
}

// DiscoverResources asks every extension that handles resources_discover
// for the resources it adds (reason "startup", as pi asks at start),
// waiting for those still starting; a relative path is taken from cwd. An
// extension that fails or does not answer adds nothing, and errs says why.
func (m *Manager) DiscoverResources(ctx context.Context, cwd string) (Resources, []error) {
	var out Resources
	var errs []error
	abs := func(ps []string) []string {
		for i, p := range ps {
			if !filepath.IsAbs(p) {
				ps[i] = filepath.Join(cwd, p)
			}
		}
		return ps
	}
	for _, e := range m.exts {
		var r Resources
		if err := e.call(ctx, "resources_discover", map[string]any{"cwd": cwd, "reason": "startup"}, &r); err != nil {
			errs = append(errs, fmt.Errorf("extension %s: resources_discover: %w", e.cfg.Name, err))
			continue
		}
		out.SkillPaths = append(out.SkillPaths, abs(r.SkillPaths)...)
		out.PromptPaths = append(out.PromptPaths, abs(r.PromptPaths)...)
		out.ThemePaths = append(out.ThemePaths, abs(r.ThemePaths)...)
	}
	return out, errs
}
