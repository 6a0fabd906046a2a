package permission

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// adminPrograms says why a program of a the analysis does not model makes
// the line opaque (see shellscan.Analysis.Unmodelled): bash would run one
// that lies in an sbin directory, where systems keep the programs that
// administer them (criu, losetup, update-locale, apache2 -k stop), or
// links to one there. It returns "" otherwise.
//
// A bare name is looked up by the PATH of GateOptions.BashEnv (the gate's
// own process's when that is unknown: a guess, which may only make a line
// opaque, never allow one); a path is taken from each directory of a.
// Where /usr/sbin is a link to /usr/bin (Arch, Fedora 42), no program lies
// in an sbin directory: a program whose name is one systems keep there
// (sbinNames) is opaque wherever it lies, but for a file the workdir holds
// (the project's own program).
func (g *Gate) adminPrograms(a *shellscan.Analysis) string {
	for _, p := range a.Unmodelled {
		if sbinNames()[shellscan.ProgramName(p)] && !g.ownProgram(a, p) {
			return clip(p) + " is a system administration program, kept in an sbin directory, which the analysis does not model"
		}
		if !strings.Contains(p, "/") {
			if dir := adminDir(g.pathFinds(p)); dir != "" {
				return clip(p) + " is a system administration program (PATH finds it in " + clip(dir) + "), which the analysis does not model"
			}
			continue
		}
		for _, d := range a.Dirs {
			if dir := adminDir(g.absTarget(d, p)); dir != "" {
				return clip(p) + " is a system administration program in " + clip(dir) + ", which the analysis does not model"
			}
		}
	}
	return ""
}

// pathFinds returns the file bash runs for the bare program name: the
// first executable regular file of that name in the directories of PATH,
// or "". A directory that is not absolute is skipped: bash would look
// there first, but the check only ever makes a line opaque.
func (g *Gate) pathFinds(name string) string {
	var env []string
	if g.opts.BashEnv != nil {
		env = g.opts.BashEnv()
	} else {
		env = os.Environ()
	}
	pathVar := ""
	for _, kv := range env {
		if k, v, _ := strings.Cut(kv, "="); k == "PATH" {
			pathVar = v // bash takes the last of repeated entries
		}
	}
	for _, dir := range filepath.SplitList(pathVar) {
		if !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// adminDir returns the sbin directory the program file p lies in, with
// its directory's links resolved, or that its own links lead to; "" when
// neither is an sbin directory or p is no file.
func adminDir(p string) string {
	if p == "" {
		return ""
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && filepath.Base(dir) == "sbin" {
		return dir
	}
	if target, err := filepath.EvalSymlinks(p); err == nil && filepath.Base(filepath.Dir(target)) == "sbin" {
		return filepath.Dir(target)
	}
	return ""
}

// ownProgram reports whether the program path p, from every directory of
// a, is a file the workdir holds (its links resolved). A bare name is
// never one: PATH finds it, or nothing.
func (g *Gate) ownProgram(a *shellscan.Analysis, p string) bool {
	if !strings.Contains(p, "/") || g.workdir == "" {
		return false
	}
	root := g.lookups().Resolve(g.workdir)
	for _, d := range a.Dirs {
		target := g.absTarget(d, p)
		if target == "" {
			return false
		}
		real, err := filepath.EvalSymlinks(target)
		if err != nil || !pathmatch.Within(real, root) {
			return false
		}
	}
	return true
}
