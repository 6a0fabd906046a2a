package builtin

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A ProtectedPathError reports that a mutating file tool refused to change
// a path in [FileOptions.Protected]: the agent's data home or its project
// configuration (permissions, hooks, MCP servers, subagents, skills), or
// the repository's hooks and config. Its text is what the model reads.
type ProtectedPathError struct {
	// Op is "write" or "delete".
	Op string
	// Path is the path as the model gave it.
	Path string
}

// Error returns the model-facing message.
func (e *ProtectedPathError) Error() string {
	return fmt.Sprintf("Protected path: %s is the agent's own configuration (permissions, hooks, MCP servers, "+
		"subagents, skills, git hooks or config, or the data home); the file tools never %s it, "+
		"whatever name or link leads there. Ask the user to change it.", e.Path, e.Op)
}

// errChanged is the cause when a directory on a path was moved while the
// path was being opened.
var errChanged = errors.New("a directory on the path was moved during the call; try again")

// A fileID is a file's identity: its device and inode numbers. The zero
// value is unknown and matches nothing.
type fileID struct{ dev, ino uint64 }

// protector knows the protected paths and refuses changes beneath them. It
// is fixed at construction and safe for concurrent use.
type protector struct {
	// paths are the protected paths as configured and, for those inside
	// the workspace, as spelled from its real path; absolute and clean.
	paths []string
}

// newProtector validates paths and adds two more spellings of each: through
// the real workspace dir (real) when given through its configured path
// (dir), and with the symbolic links of its existing part resolved.
func newProtector(paths []string, dir, real string) (protector, error) {
	var p protector
	add := func(q string) {
		if !slices.Contains(p.paths, q) {
			p.paths = append(p.paths, q)
		}
	}
	for _, q := range paths {
		if !filepath.IsAbs(q) {
			return protector{}, fmt.Errorf("file tools: protected path %q is not an absolute path", q)
		}
		q = filepath.Clean(q)
		add(q)
		if rel, ok := within(dir, q); ok {
			add(filepath.Join(real, rel))
		}
		add(canonical(q))
	}
	return p, nil
}

// canonical returns q with the symbolic links of its longest existing
// part resolved.
func canonical(q string) string {
	var rest []string
	for cur := q; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return q
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// A protection is one protected path as it is when a call checks it: the
// identity of its deepest existing ancestor (the path itself when it
// exists, links followed) and the names below that ancestor.
type protection struct {
	anchor fileID
	rest   []string
}

// current resolves the protected paths as they are now: the identities
// change when a file is replaced or a missing one is created.
func (p protector) current() []protection {
	out := make([]protection, 0, len(p.paths))
	for _, q := range p.paths {
		var rest []string
		for cur := q; ; {
			if info, err := os.Stat(cur); err == nil {
				out = append(out, protection{anchor: idOf(info), rest: rest})
				break
			}
			parent := filepath.Dir(cur)
			if parent == cur {
				break
			}
			rest = append([]string{filepath.Base(cur)}, rest...)
			cur = parent
		}
	}
	return out
}

// byName returns the protected path that target, a clean absolute path
// with no symbolic link in it, is or lies beneath, comparing names without
// regard to case (a case-insensitive file system gives one file many
// spellings). It reports false when there is none.
func (p protector) byName(target string) (string, bool) {
	for _, q := range p.paths {
		if beneathFold(q, target) {
			return q, true
		}
	}
	return "", false
}

// byIdentity reports whether a file reached through names, one per
// component below the workspace, lies at or beneath a protected path.
// chain holds the identities met on the way: chain[0] is the workspace
// and chain[i] the directory or file named by names[i-1]; it may stop
// short of the last name when that file does not exist.
func byIdentity(now []protection, chain []fileID, names []string) bool {
	for _, pr := range now {
		if pr.anchor == (fileID{}) {
			continue
		}
		for i, id := range chain {
			if id != pr.anchor {
				continue
			}
			below := names[i:]
			if len(below) < len(pr.rest) {
				continue
			}
			match := true
			for j, n := range pr.rest {
				if !strings.EqualFold(below[j], n) {
					match = false
					break
				}
			}
			if match {
				return true
			}
		}
	}
	return false
}

// beneathFold reports whether p is base or lies beneath it, both clean
// absolute paths, comparing components without regard to case.
func beneathFold(base, p string) bool {
	if len(p) < len(base) || !strings.EqualFold(p[:len(base)], base) {
		return false
	}
	return len(p) == len(base) || p[len(base)] == filepath.Separator || strings.HasSuffix(base, string(filepath.Separator))
}

// splitRel returns the components of rel, a clean relative path.
func splitRel(rel string) []string {
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(rel, string(filepath.Separator))
}

// A fileStat is what the mutating tools need to know of a file, read
// without following a symbolic link.
type fileStat struct {
	mode     fs.FileMode
	size     int64
	mtime    time.Time
	id       fileID
	uid, gid int // -1 when unknown
}
