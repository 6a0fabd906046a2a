package pathmatch

import (
	"io/fs"
	"os"
	"sync"
)

// Lookups remembers what the walks of paths found on the file system:
// which names exist, which are symbolic links and where those lead, the
// entries of the directories read, and each path resolved. A
// caller that resolves many paths at one moment (the checks of one bash
// line resolve every word and every protected path, most of them beneath
// the same few directories) walks each directory once. Like a [Set],
// Lookups are for one decision, not to keep across changes of the file
// system. A nil *Lookups looks each name up afresh. Lookups are safe for
// concurrent use.
type Lookups struct {
	mu       sync.Mutex
	names    map[string]nameLookup
	dirs     map[string]dirLookup
	resolved map[[2]string]string // ResolveFrom's answers, by path and cwd
}

// dirLookup is what ReadDir said of one directory.
type dirLookup struct {
	entries []fs.DirEntry
	err     error
}

// nameLookup is what Lstat and Readlink said of one name.
type nameLookup struct {
	missing bool   // Lstat failed
	link    bool   // a symbolic link
	to      string // its target, when Readlink succeeded
	toErr   bool   // Readlink failed
}

// NewLookups returns empty Lookups.
func NewLookups() *Lookups {
	return &Lookups{names: map[string]nameLookup{}, dirs: map[string]dirLookup{}, resolved: map[[2]string]string{}}
}

// look returns what the file system says of the absolute path p, asking
// it once for l.
func (l *Lookups) look(p string) nameLookup {
	if l != nil {
		l.mu.Lock()
		n, ok := l.names[p]
		l.mu.Unlock()
		if ok {
			return n
		}
	}
	var n nameLookup
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		n.missing = true
	case fi.Mode()&fs.ModeSymlink != 0:
		n.link = true
		to, err := os.Readlink(p)
		n.to, n.toErr = to, err != nil
	}
	if l != nil {
		l.mu.Lock()
		l.names[p] = n
		l.mu.Unlock()
	}
	return n
}

// ReadDir is [os.ReadDir] of the directory dir, read once for l: the
// entries it returns are shared, not to be changed.
func (l *Lookups) ReadDir(dir string) ([]fs.DirEntry, error) {
	if l == nil {
		return os.ReadDir(dir)
	}
	l.mu.Lock()
	d, ok := l.dirs[dir]
	l.mu.Unlock()
	if !ok {
		d.entries, d.err = os.ReadDir(dir)
		l.mu.Lock()
		l.dirs[dir] = d
		l.mu.Unlock()
	}
	return d.entries, d.err
}

// Resolve is [Resolve] through l.
func (l *Lookups) Resolve(p string) string { return l.ResolveFrom(p, "") }

// ResolveFrom is [ResolveFrom] through l, each answer worked out once.
func (l *Lookups) ResolveFrom(p, cwd string) string {
	if l == nil {
		return resolveFrom(nil, p, cwd)
	}
	key := [2]string{p, cwd}
	l.mu.Lock()
	r, ok := l.resolved[key]
	l.mu.Unlock()
	if !ok {
		r = resolveFrom(l, p, cwd)
		l.mu.Lock()
		l.resolved[key] = r
		l.mu.Unlock()
	}
	return r
}

// ThroughDescriptor is [ThroughDescriptor] through l.
func (l *Lookups) ThroughDescriptor(p, cwd string, at bool) bool {
	return throughDescriptor(l, p, cwd, at)
}

// NewSet is [NewSet] through l.
func (l *Lookups) NewSet(protected []string) *Set { return newSet(l, protected) }

// PatternHits is [PatternHits] through l.
func (l *Lookups) PatternHits(target string, protected []string, ancestors bool) bool {
	return patternHits(l, target, protected, ancestors)
}
