package permission

import "slices"

// withCurrentHooks returns g, or a copy of it that also protects the
// hooks directories and included configuration files the repository's
// git configuration names now (see hooksPathDirs) but did not when the
// gate was made: a line approved earlier in the session (git config
// core.hooksPath .githooks, a project's npm install that runs husky) may
// have set core.hooksPath since, and a later line that writes
// .githooks/pre-commit writes code git runs as much as one that writes
// .git/hooks/pre-commit does. The files are small and few; they are read
// again for each bash line.
func (g *Gate) withCurrentHooks() *Gate {
	var extra []string
	for _, p := range g.hooksPathProtected() {
		if !slices.Contains(g.protected, p) && !slices.Contains(extra, p) {
			extra = append(extra, p)
		}
	}
	if len(extra) == 0 {
		return g
	}
	c := *g
	c.protected = append(slices.Clip(g.protected), extra...)
	return &c
}
