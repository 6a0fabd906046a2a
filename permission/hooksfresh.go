package permission

import (
	"slices"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
)

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
	c.line = nil // it holds g's protected paths, resolved
	return &c
}

// fileInHooksDir returns the path of a write_file, edit_file or
// delete_file call when it lies in a hooks directory core.hooksPath names,
// or is a file the git configuration includes (see hooksPathDirs), as the
// configuration says now; "" otherwise. The file tools protect .git/hooks
// and .git/config, not these, and a hook written there runs at the next
// git commit as one in .git/hooks does.
func (g *Gate) fileInHooksDir(call Call) string {
	p := fileToolPath(call)
	if p == "" {
		return ""
	}
	target := g.absTarget("", p)
	if target == "" {
		return ""
	}
	if pathmatch.Hits(target, g.hooksPathProtected(), call.Name == "delete_file") {
		return p
	}
	return ""
}

// fileToolPath is the path a write_file, edit_file or delete_file call
// changes, or "" for another call or one without a path.
func fileToolPath(call Call) string {
	switch call.Name {
	case "write_file", "edit_file", "delete_file":
	default:
		return ""
	}
	v, _ := lookup(parseInput(call.Input), []string{"path"})
	p, _ := v.(string)
	return p
}
