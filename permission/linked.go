package permission

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// linkedPrograms says why a program of the line, reached through a
// symbolic link, makes the line opaque: the analysis judges a program by
// the name the line gives it, but bash runs the file the link leads to. A
// link in the workdir to a system program (x → /usr/bin/kill, a cloned
// repository's tools/fmt → /usr/sbin/reboot) is not the project's own
// program: unless the file it leads to, and every link on the way, has
// the name the analysis judged (.venv/bin/python → /usr/bin/python3.12),
// the line is opaque. A program named by a path is taken from each
// directory of a; a bare name is looked up by PATH (see pathFinds) and
// checked when bash would find it in the workdir (an activated
// .venv/bin). A file the workdir holds, a copy or a hard link included, is
// the project's own program, judged as the README's "What neither does"
// says.
func (g *Gate) linkedPrograms(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		if c.Name == "" {
			continue
		}
		var files []string
		if strings.Contains(c.Name, "/") {
			for _, d := range a.Dirs {
				if p := g.absTarget(d, c.Name); p != "" {
					files = append(files, p)
				}
			}
		} else if p := g.pathFinds(c.Name); p != "" && g.workdir != "" &&
			pathmatch.Within(g.lookups().Resolve(filepath.Dir(p)), g.lookups().Resolve(g.workdir)) {
			files = append(files, p)
		}
		judged := shellscan.ProgramName(c.Name)
		for _, p := range files {
			if hop := otherName(p, judged, g.workdir); hop != "" {
				return clip(c.Name) + " leads to " + clip(hop) + ", a program outside the workdir the analysis did not judge it as"
			}
		}
	}
	return ""
}

// maxHops bounds the links otherName follows, as the kernel's 40.
const maxHops = 40

// otherName follows the links of the program file p, hop by hop, and
// returns the file the chain ends at when that lies outside the workdir
// and a link on the way leads to a name the analysis would judge other
// than judged; "" when each does not, the chain ends in the workdir or p
// is no link. A link in a system directory (owned by root, writable by
// no one else, outside the workdir: /usr/bin/awk → /etc/alternatives/awk
// → /usr/bin/mawk) is trusted as PATH's are. A chain longer than the
// kernel follows is reported by p.
func otherName(p, judged, workdir string) string {
	root := ""
	if workdir != "" {
		root = pathmatch.Resolve(workdir)
	}
	cur, other := p, false
	for i := 0; ; i++ {
		// The directories on the way may be links as well: resolve them,
		// and read the link of the last component only.
		dir, err := filepath.EvalSymlinks(filepath.Dir(cur))
		if err != nil {
			return ""
		}
		cur = filepath.Join(dir, filepath.Base(cur))
		target, err := os.Readlink(cur)
		if err != nil {
			break // not a link (or missing: bash cannot run it)
		}
		if i >= maxHops {
			return p
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		if !systemDir(dir, root) && shellscan.ProgramName(target) != judged {
			other = true
		}
		cur = target
	}
	if !other || root != "" && pathmatch.Within(cur, root) {
		return ""
	}
	return cur
}

// systemDir reports whether the resolved directory dir is a system
// directory outside the workdir root (which may be ""): it and its parent
// are owned by root and writable by no one else.
func systemDir(dir, root string) bool {
	if root != "" && pathmatch.Within(dir, root) {
		return false
	}
	for _, d := range []string{dir, filepath.Dir(dir)} {
		fi, err := os.Stat(d)
		if err != nil || !rootOnly(fi) {
			return false
		}
	}
	return true
}
