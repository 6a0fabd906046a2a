package builtin

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// maxIgnoreFileBytes bounds how much of one .gitignore file is read.
const maxIgnoreFileBytes = 1 << 20

// ignoreRules are the .gitignore patterns that apply in one directory of
// the workspace: those of the workspace root's .git/info/exclude and of
// every .gitignore from the root down to the directory, in increasing
// priority. A value is never changed once made; with adds a level.
type ignoreRules struct {
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

// size returns how many patterns r holds: what matching a path against
// them, or copying them, costs.
func (r *ignoreRules) size() int {
	if r == nil {
		return 0
	}
	return len(r.patterns)
}

// ignored reports whether the path with the given components (relative to
// the workspace root) is ignored.
func (r *ignoreRules) ignored(components []string, isDir bool) bool {
	if r == nil || r.matcher == nil {
		return false
	}
	return r.matcher.Match(components, isDir)
}

// with returns the rules of the directory dir (relative to the workspace
// root, in OS form, "." for the root) given r, the rules of its parent:
// r plus dir's own .gitignore, read through dirH, dir open. A missing or
// unreadable .gitignore, or one that is a symbolic link (which git does
// not follow either), adds nothing.
func (r *ignoreRules) with(dirH *dirHandle, dir string) *ignoreRules {
	var domain []string
	if dir != "." {
		domain = strings.Split(filepath.ToSlash(dir), "/")
	}
	more := readIgnoreFile(dirH, ".gitignore", domain)
	if dir == "." {
		more = append(readIgnoreFile(dirH, filepath.Join(".git", "info", "exclude"), nil), more...)
	}
	if len(more) == 0 {
		return r
	}
	var patterns []gitignore.Pattern
	if r != nil {
		patterns = append(patterns, r.patterns...)
	}
	patterns = append(patterns, more...)
	return &ignoreRules{patterns: patterns, matcher: gitignore.NewMatcher(patterns)}
}

// readIgnoreFile parses the gitignore file at name below dirH, whose
// patterns apply below domain; no symbolic link on the way is followed.
func readIgnoreFile(dirH *dirHandle, name string, domain []string) []gitignore.Pattern {
	dir, err := dirH.openDir(filepath.Dir(name), false)
	if err != nil {
		return nil
	}
	defer dir.close()
	f, err := dir.openFile(filepath.Base(name), os.O_RDONLY|oNonblock|oNoFollow, 0)
	if err != nil {
		return nil
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil
	}
	var out []gitignore.Pattern
	sc := bufio.NewScanner(io.LimitReader(f, maxIgnoreFileBytes))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}
