package sandbox

import "time"

// maxMemoDirs bounds the directories the check remembers between runs
// (about 200 bytes each); past it, the others are read every time.
const maxMemoDirs = 1_000_000

// A dirStamp names a directory and its last change: its device, its inode
// and its status change time, in nanoseconds.
type dirStamp struct {
	dev, ino uint64
	ctime    int64
}

// A dirMemo is what one run of the check read of a directory, kept for the
// next run. Creating, removing or renaming an entry of a directory changes
// the directory's status change time, which commands cannot set back; so,
// while a directory's stamp stays the same, its entries are the ones the
// memo records, and the next run need not read them. It still looks at
// every .git and git directory the memo records (their configuration and
// hooks change without their directory changing) and walks every
// subdirectory. An encrypted (fscrypt) directory has no stamp: what it
// lists changes when its key is added or removed, which no time records.
//
// A memo is made only of a directory whose status change time was more
// than memoSlack before the run read it: a change made just after the read
// could otherwise fall within the same tick of the kernel's coarse clock
// and leave the time as it was.
type dirMemo struct {
	stamp      dirStamp
	entries    int      // counted against maxCheckEntries
	subdirs    []string // the names of the entries that are directories
	dotGit     bool     // an entry named .git
	gitDirLike bool     // HEAD beside objects, refs or commondir
}

// leaf reports whether the walk has nothing to do in the directory m
// records but count its entries.
func (m *dirMemo) leaf() bool {
	return len(m.subdirs) == 0 && !m.dotGit && !m.gitDirLike
}

// remembered returns the memo of dir when the directory d, open as dir, is
// the one the last run remembered and has not changed since, and f's
// stamp when the check may remember d (it is on the workdir's file
// system, and that is one memoFS trusts).
func (s *checkRun) remembered(d dirHandle, dir string) (*dirMemo, dirStamp, bool) {
	if !s.memoOn {
		return nil, dirStamp{}, false
	}
	st, ok := d.stamp()
	if !ok || st.dev != s.memoDev {
		return nil, dirStamp{}, false
	}
	if m := s.c.memo[dir]; m != nil && m.stamp == st {
		return m, st, true
	}
	return nil, st, true
}

// unchangedLeaf reports whether name, a subdirectory of the open directory
// parent at p, is a leaf the last run remembered and has not changed since,
// so that the walk need not open it; if so, it counts its entries and keeps
// its memo.
func (s *checkRun) unchangedLeaf(parent dirHandle, p, name string) bool {
	m := s.c.memo[p]
	if m == nil || !m.leaf() {
		return false
	}
	st, err := parent.stampAt(name)
	if err != nil || st != m.stamp {
		return false
	}
	s.keep(p, m)
	s.dirsRemembered++
	s.budget -= m.entries
	return true
}

// keep passes the memo of dir on to the next run.
func (s *checkRun) keep(dir string, m *dirMemo) {
	if len(s.next) < maxMemoDirs {
		s.next[dir] = m
	}
}

// memoOf returns the memo of what was just read of a directory stamped st
// at start, or nil when it changed too recently to be remembered.
func memoOf(st dirStamp, stamped bool, start time.Time) *dirMemo {
	if !stamped || st.ctime >= start.Add(-memoSlack).UnixNano() {
		return nil
	}
	return &dirMemo{stamp: st}
}
