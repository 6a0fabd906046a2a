package permission

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// Limits of the look at a repository's history that protectedGitMayBring
// takes: a history larger, or slower to read, makes the line ask.
const (
	maxBringCommits = 100000
	maxBringTime    = 2 * time.Second
)

// protectedGitMayBring returns a protected path of the worktree (the
// workdir outside .git) that does not exist now but that git sub, a
// command that writes the worktree from commits, the index or a stash
// (git checkout B -- .lite-agent/hooks.json, git merge B, git stash pop),
// could create: one that the index or a commit of the repository's
// history (every ref, every reflog entry, the revisions the line names)
// may hold, or that a repository on this machine the line fetches from
// may (localFetch: its history is not read). ops are the command's
// operands, which may name revisions. It returns "" when none can be
// brought, and a path whenever the history cannot be read in full: an
// opaque history asks. What a fetch from the network brings is the
// upstream repository's, as trusted as the clone it came from.
func (g *Gate) protectedGitMayBring(ops []string, localFetch bool) string {
	absent := g.absentProtectedInWorktree()
	if len(absent) == 0 {
		return ""
	}
	if localFetch {
		return absent[0]
	}
	rels := make([]string, len(absent))
	for i, p := range absent {
		rel, err := filepath.Rel(g.workdir, p)
		if err != nil {
			return p
		}
		rels[i] = filepath.ToSlash(rel)
	}
	i, err := g.history.holds(g.workdir, rels, ops)
	if err != nil {
		return absent[0]
	}
	if i >= 0 {
		return absent[i]
	}
	return ""
}

// absentProtectedInWorktree returns the protected paths inside the
// worktree (the workdir outside .git) that do not exist, or that cannot
// be looked at: a file where a directory of the path would be (conf, a
// file, for conf/prod.yaml) is replaced by git with a commit's directory.
func (g *Gate) absentProtectedInWorktree() []string {
	gitDir := filepath.Join(g.workdir, ".git")
	var out []string
	for _, p := range g.protected {
		if !pathmatch.Within(p, g.workdir) || pathmatch.Within(p, gitDir) || p == g.workdir {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			out = append(out, p)
		}
	}
	return out
}

// A historyCache remembers, by repository and the paths looked for, what
// earlier walks learned: the commits (and tags and trees) whose history
// they read in full and found without the paths, where a later walk
// stops, and the commits they read whose own trees are without them but
// whose history was not read in full (the walk hit its bound), with the
// objects each links to, which a later walk follows without reading the
// commit again. Objects do not change, so both stay true; a history too
// large for one call is read over several. A Gate and its copies share
// one.
type historyCache struct {
	mu    sync.Mutex
	memos map[string]*historyMemo
	// limits of one walk; zero means the package's defaults (tests set
	// them lower).
	maxCommits int
	maxTime    time.Duration
}

// A historyMemo is what walks of one repository for one set of paths
// learned.
type historyMemo struct {
	clean map[plumbing.Hash]bool  // read in full, without the paths
	known map[plumbing.Hash]links // trees without the paths; history not all read
}

// links are the objects a commit or a tag names that a walk goes on to:
// a commit's parents (left out where a shallow clone lacks them, which
// may change) and a tag's object.
type links struct{ parents, objects []plumbing.Hash }

// maxKnownCommits bounds the commits a memo keeps links of (about 100
// bytes each).
const maxKnownCommits = 300000

func newHistoryMemo() *historyMemo {
	return &historyMemo{clean: map[plumbing.Hash]bool{}, known: map[plumbing.Hash]links{}}
}

// holds is historyHolds with the walks of earlier calls remembered.
func (c *historyCache) holds(workdir string, rels, ops []string) (int, error) {
	if c == nil {
		return historyHolds(workdir, rels, ops, newHistoryMemo(), maxBringCommits, maxBringTime)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := filepath.Join(workdir, ".git") + "\x00" + strings.Join(rels, "\x00")
	memo := c.memos[key]
	if memo == nil {
		memo = newHistoryMemo()
		if c.memos == nil {
			c.memos = map[string]*historyMemo{}
		}
		c.memos[key] = memo
	}
	maxCommits, maxTime := c.maxCommits, c.maxTime
	if maxCommits == 0 {
		maxCommits = maxBringCommits
	}
	if maxTime == 0 {
		maxTime = maxBringTime
	}
	return historyHolds(workdir, rels, ops, memo, maxCommits, maxTime)
}

// errHistory says that a repository's history could not be read in full
// within the limits.
var errHistory = errors.New("the repository's history cannot be read in full")

// historyHolds returns the index in rels (slash-separated paths relative
// to the worktree of the repository at workdir) of a path that the index
// or a commit of the history holds, or -1 for none. memo holds what
// earlier walks learned (see historyCache), and learns what this one
// reads; maxCommits and maxTime bound the commits read and the time
// taken. The history is every
// commit reachable from a ref, a reflog entry or a special head
// (FETCH_HEAD, ORIG_HEAD …): a revision the line names from one of those
// (B, B~2, HEAD^2, -) is among them. ops are the line's operands: one
// that names a tree (B:sub, whose files git checkout B:sub -- . writes at
// the top), a reflog selector or a search, or an object name that is not
// one of the history's, is an error, as is a history too large to read.
func historyHolds(workdir string, rels, ops []string, memo *historyMemo, maxCommits int, maxTime time.Duration) (i int, err error) {
	// go-git decodes what a repository holds, which whoever made the
	// repository chose: a decoder that panics on it makes the history
	// unreadable (the line asks), never the gate's process end.
	defer func() {
		if r := recover(); r != nil {
			i, err = 0, fmt.Errorf("%w: reading it failed: %v", errHistory, r)
		}
	}()
	st := filesystem.NewStorageWithOptions(gitDirFiles(filepath.Join(workdir, ".git")), cache.NewObjectLRU(8*cache.MiByte),
		filesystem.Options{KeepDescriptors: true, ExclusiveAccess: true})
	defer st.Close()
	deadline := time.Now().Add(maxTime)
	if i, err := indexHolds(filepath.Join(workdir, ".git", "index"), rels, deadline); err != nil || i >= 0 {
		return i, err
	}
	var hexOps []string
	for _, op := range ops {
		if strings.ContainsAny(op, ":") || strings.Contains(op, "@{") {
			return 0, fmt.Errorf("%w: the revision %q", errHistory, op)
		}
		if gitStateFile(op) {
			// COMMIT_EDITMSG, MERGE_MSG …: what git commit -F file (in
			// the line, or in the background) writes there is not read
			return 0, fmt.Errorf("%w: the revision %q", errHistory, op)
		}
		hexOps = append(hexOps, revisionHashes(op)...)
	}
	roots, soft, err := historyRoots(st, filepath.Join(workdir, ".git"))
	if err != nil {
		return 0, err
	}
	for _, h := range soft {
		if _, _, err := looseObject(filepath.Join(workdir, ".git"), h); err == nil || st.HasEncodedObject(h) == nil {
			roots = append(roots, h)
		}
	}
	shallow := map[plumbing.Hash]bool{}
	if hs, err := st.Shallow(); err == nil {
		for _, h := range hs {
			shallow[h] = true
		}
	}
	// A tree that holds .lite-agent/hooks.json holds .lite-agent: only
	// the outermost paths are looked for.
	outer, index := outermost(rels)
	w := historyWalk{st: st, gitDir: filepath.Join(workdir, ".git"), rels: outer, memo: memo, seen: map[plumbing.Hash]bool{}, trees: map[plumbing.Hash]bool{},
		shallow: shallow, maxCommits: maxCommits, deadline: deadline}
	defer w.close()
	for _, h := range roots {
		i, err := w.from(h)
		if err != nil {
			return 0, err
		}
		if i >= 0 {
			return index[i], nil
		}
	}
	// An object name the line gives must be one the walk saw: a commit
	// that no ref or reflog reaches (one made with git commit-tree) may
	// hold anything.
	for _, op := range hexOps {
		known := false
		for _, set := range []map[plumbing.Hash]bool{w.seen, memo.clean} {
			for h := range set {
				if strings.HasPrefix(h.String(), op) {
					known = true
					break
				}
			}
		}
		if !known {
			return 0, fmt.Errorf("%w: the object %q is not in it", errHistory, op)
		}
		if len(op) < 2*len(plumbing.ZeroHash) {
			if err := w.onlySeenWithPrefix(op); err != nil {
				return 0, err
			}
		}
	}
	// Every object seen has its history read in full now, unless a
	// shallow clone's list cut it: git fetch --unshallow (or --deepen)
	// brings the parents below, which a later walk must read; the links
	// the memo keeps lead it there without reading the rest again.
	if w.cut {
		return -1, nil
	}
	for h := range w.seen {
		memo.clean[h] = true
	}
	clear(memo.known)
	return -1, nil
}

// indexHolds returns the index in rels of a path that the git index file
// f holds (an entry that is the path or below it, names compared as a
// file system that folds case would), or -1 for none or no index. It
// reads the entries' names as it goes, keeping none: go-git's decoder
// kept every entry, and a 168 MB index of 1.5 million files took 6.8 s
// and 620 MB, beyond the walk's bound of time. An index it cannot read
// (a split or a sparse index, whose entries are elsewhere or folded
// into directories, or an unknown version), or one not read by deadline,
// is an error.
func indexHolds(f string, rels []string, deadline time.Time) (int, error) {
	file, err := gitFiles{}.Open(f)
	if errors.Is(err, fs.ErrNotExist) {
		return -1, nil
	}
	if err != nil {
		return 0, fmt.Errorf("%w: the index: %w", errHistory, err)
	}
	defer file.Close()
	fi, err := file.(gitFile).Stat()
	if err != nil {
		return 0, fmt.Errorf("%w: the index: %w", errHistory, err)
	}
	i, err := scanIndex(bufio.NewReaderSize(file, 1<<16), fi.Size(), rels, deadline)
	if err != nil {
		return 0, fmt.Errorf("%w: the index: %w", errHistory, err)
	}
	return i, nil
}

// scanIndex is indexHolds on the index r of size bytes.
func scanIndex(r *bufio.Reader, size int64, rels []string, deadline time.Time) (int, error) {
	read := int64(0)
	next := func(n int) ([]byte, error) {
		b := make([]byte, n)
		_, err := io.ReadFull(r, b)
		read += int64(n)
		return b, err
	}
	hdr, err := next(12)
	if err != nil {
		return 0, err
	}
	if string(hdr[:4]) != "DIRC" {
		return 0, errors.New("not an index")
	}
	version, count := binary.BigEndian.Uint32(hdr[4:]), binary.BigEndian.Uint32(hdr[8:])
	if version < 2 || version > 4 {
		return 0, fmt.Errorf("index version %d", version)
	}
	folded := make([]string, len(rels))
	for i, rel := range rels {
		folded[i] = pathmatch.FoldName(rel)
	}
	fixed := make([]byte, 64)
	var name []byte
	for n := uint32(0); n < count; n++ {
		if n%65536 == 0 && time.Now().After(deadline) {
			return 0, errors.New("not read in the time allowed")
		}
		if _, err := io.ReadFull(r, fixed[:62]); err != nil {
			return 0, err
		}
		read += 62
		head := 62
		if flags := binary.BigEndian.Uint16(fixed[60:]); flags&0x4000 != 0 {
			if version < 3 {
				return 0, errors.New("extended flags in a version 2 index")
			}
			if _, err := io.ReadFull(r, fixed[62:64]); err != nil {
				return 0, err
			}
			read += 2
			head = 64
		}
		if version == 4 {
			strip, k, err := indexVarint(r)
			if err != nil {
				return 0, err
			}
			read += int64(k)
			if strip > uint64(len(name)) {
				return 0, errors.New("malformed path prefix")
			}
			name = name[:len(name)-int(strip)]
		} else {
			name = name[:0]
		}
		suffix, err := r.ReadSlice(0)
		for errors.Is(err, bufio.ErrBufferFull) {
			if len(name) > 1<<20 {
				return 0, errors.New("a path too long")
			}
			name = append(name, suffix...)
			read += int64(len(suffix))
			suffix, err = r.ReadSlice(0)
		}
		if err != nil {
			return 0, err
		}
		read += int64(len(suffix))
		name = append(name, suffix[:len(suffix)-1]...)
		if len(name) > 1<<20 {
			return 0, errors.New("a path too long")
		}
		if version < 4 { // NULs pad the entry to a multiple of 8 bytes
			pad := (head+len(name)+8)&^7 - (head + len(name) + 1)
			if _, err := r.Discard(pad); err != nil {
				return 0, err
			}
			read += int64(pad)
		}
		for i, rel := range folded {
			if indexNameUnder(name, rel) {
				return i, nil
			}
		}
	}
	// Extensions follow, then the checksum: one git requires (its
	// signature not in capitals: link, sdir) holds entries, or says
	// what they are, elsewhere.
	for size-read > 20 {
		ext, err := next(8)
		if err != nil {
			return 0, err
		}
		if ext[0] < 'A' || ext[0] > 'Z' {
			return 0, fmt.Errorf("the index extension %q", ext[:4])
		}
		n := int64(binary.BigEndian.Uint32(ext[4:]))
		if _, err := r.Discard(int(min(n, size))); err != nil {
			return 0, err
		}
		read += n
	}
	return -1, nil
}

// indexVarint reads the number git's index version 4 writes before a
// path (the bytes of the previous path it keeps), and the bytes it took.
func indexVarint(r *bufio.Reader) (uint64, int, error) {
	c, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	v, k := uint64(c&127), 1
	for c&128 != 0 {
		if c, err = r.ReadByte(); err != nil {
			return 0, 0, err
		}
		if k++; k > 9 {
			return 0, 0, errors.New("malformed path prefix")
		}
		v = (v+1)<<7 | uint64(c&127)
	}
	return v, k, nil
}

// indexNameUnder reports whether the index entry name is the path rel
// (folded), below it, or above it (conf for conf/prod.yaml: an entry is a
// file, a link or a submodule, never a directory, and a link there leads
// the path elsewhere), compared as a file system that folds case would.
func indexNameUnder(name []byte, rel string) bool {
	if isASCII(name) && isASCII(rel) {
		k := min(len(name), len(rel))
		switch {
		case len(name) > k && name[k] != '/', len(rel) > k && rel[k] != '/':
			return false
		}
		return foldEqual(name[:k], rel[:k], true, "")
	}
	n := pathmatch.FoldName(string(name))
	return n == rel || strings.HasPrefix(n, rel+"/") || strings.HasPrefix(rel, n+"/")
}

// onlySeenWithPrefix returns an error unless every object of the
// repository whose name starts with the abbreviation op is one the walk
// saw (or an earlier one read in full): git takes an abbreviation that
// several objects share for the one a command can use, the only commit
// among them for git checkout, so a tag of a blob the walk saw does not
// vouch for a commit no ref reaches that shares its first digits. The
// objects of other repositories that objects/info/alternates names are
// not listed: an abbreviation there is an error.
func (w *historyWalk) onlySeenWithPrefix(op string) error {
	if fi, err := os.Stat(filepath.Join(w.gitDir, "objects", "info", "alternates")); err == nil && fi.Size() > 0 || err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: the abbreviation %q, with alternate object directories", errHistory, op)
	}
	prefix, err := hex.DecodeString(op[:len(op)&^1])
	if err != nil {
		return fmt.Errorf("%w: the abbreviation %q", errHistory, op)
	}
	hs, err := w.st.HashesWithPrefix(prefix)
	if err != nil {
		return fmt.Errorf("%w: the abbreviation %q: %w", errHistory, op, err)
	}
	for _, h := range hs {
		if strings.HasPrefix(h.String(), op) && !w.seen[h] && !w.memo.clean[h] {
			return fmt.Errorf("%w: the abbreviation %q names %s too", errHistory, op, h)
		}
	}
	return nil
}

// outermost returns the paths of rels below none of the others (compared
// as a file system that folds case would), and for each, its index in
// rels.
func outermost(rels []string) (outer []string, index []int) {
	for i, rel := range rels {
		below := false
		for j, other := range rels {
			r, o := pathmatch.FoldName(rel), pathmatch.FoldName(other)
			if j != i && (strings.HasPrefix(r, o+"/") || r == o && j < i) {
				below = true
				break
			}
		}
		if !below {
			outer = append(outer, rel)
			index = append(index, i)
		}
	}
	return outer, index
}

// historyRoots returns the objects a walk of the history starts from:
// every ref's target, every reflog entry's, and those of the files git
// reads as refs by their names (HEAD, FETCH_HEAD, ORIG_HEAD, MERGE_HEAD
// … and any other name of capitals: git checkout COMMIT_EDITMSG checks
// out the commit the last message names), of the repository and of each
// of its linked worktrees (.git/worktrees/x/HEAD, its reflogs and refs,
// which git checkout worktrees/x/HEAD reads). soft are the objects of
// the files of capitals that git does not keep refs in (a commit
// message): one that is not in the repository brings nothing.
func historyRoots(st *filesystem.Storage, gitDir string) (roots, soft []plumbing.Hash, err error) {
	refs, err := st.IterReferences()
	if err != nil {
		return nil, nil, fmt.Errorf("%w: refs: %w", errHistory, err)
	}
	err = refs.ForEach(func(r *plumbing.Reference) error {
		if r.Type() == plumbing.HashReference {
			roots = append(roots, r.Hash())
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%w: refs: %w", errHistory, err)
	}
	dirs := []string{gitDir}
	worktrees, err := os.ReadDir(filepath.Join(gitDir, "worktrees"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, fmt.Errorf("%w: worktrees: %w", errHistory, err)
	}
	for _, e := range worktrees {
		dirs = append(dirs, filepath.Join(gitDir, "worktrees", e.Name()))
	}
	for k, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil && (k == 0 || !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR)) {
			return nil, nil, fmt.Errorf("%w: %w", errHistory, err)
		}
		for _, e := range entries {
			if !pseudoRefName(e.Name()) || e.IsDir() {
				continue
			}
			hs, err := hashesIn(filepath.Join(dir, e.Name()))
			if err != nil {
				return nil, nil, err
			}
			if gitRefFiles[e.Name()] {
				roots = append(roots, hs...)
			} else {
				soft = append(soft, hs...)
			}
		}
		sub := []string{"logs"}
		if k > 0 {
			sub = append(sub, "refs") // a linked worktree's own refs (refs/bisect, refs/worktree …)
		}
		for _, s := range sub {
			err = filepath.WalkDir(filepath.Join(dir, s), func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) {
						return nil
					}
					return err
				}
				if d.IsDir() {
					return nil
				}
				hs, err := hashesIn(p)
				roots = append(roots, hs...)
				return err
			})
			if err != nil {
				return nil, nil, fmt.Errorf("%w: %s: %w", errHistory, s, err)
			}
		}
	}
	return roots, soft, nil
}

// gitRefFiles are the files of capitals git keeps refs in.
var gitRefFiles = map[string]bool{"HEAD": true, "FETCH_HEAD": true, "ORIG_HEAD": true, "MERGE_HEAD": true,
	"CHERRY_PICK_HEAD": true, "REVERT_HEAD": true, "REBASE_HEAD": true, "AUTO_MERGE": true, "BISECT_HEAD": true}

// gitStateFile reports whether name is one of the files git writes in
// the git directory that are not refs but which git reads as one when a
// line names it (COMMIT_EDITMSG, MERGE_MSG, BISECT_LOG …): a line or a
// command in the background may write an object's name there (git commit
// -F file) after the history was read.
func gitStateFile(name string) bool {
	if !pseudoRefName(name) || gitRefFiles[name] {
		return false
	}
	for _, p := range []string{"MERGE_", "BISECT_", "REBASE_", "CHERRY_PICK_", "REVERT_", "AUTO_", "SQUASH_", "TAG_", "NOTES_"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return strings.Contains(name, "MSG") || strings.Contains(name, "DESCRIPTION")
}

// pseudoRefName reports whether git reads the file name of a git
// directory as a ref when a line names it: capitals, '_' and '-'.
func pseudoRefName(name string) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; !('A' <= c && c <= 'Z' || c == '_' || c == '-') {
			return false
		}
	}
	return name != ""
}

// hashesIn returns the object names at the starts of the lines of file f
// and, for a reflog, after the first (old new …), ignoring the rest. A
// missing f holds none; one that is not a regular file (a FIFO, a
// device), or is larger than maxGitRefFile, is an error: what it would
// name is unknown.
func hashesIn(f string) ([]plumbing.Hash, error) {
	b, err := readNoWait(f, maxGitRefFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errHistory, err)
	}
	var out []plumbing.Hash
	for line := range bytes.Lines(b) { // no bound on a line: a long reflog message hides no entry after it
		fields := strings.Fields(string(line))
		for _, w := range fields[:min(2, len(fields))] {
			if h, ok := hexHash(w); ok && !h.IsZero() {
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// maxGitRefFile bounds the size of a special head or a reflog the
// history check reads (a reflog line is about 150 bytes).
const maxGitRefFile = 64 << 20

// gitLineRevisions returns the words of the line's git commands other
// than c that may name what c then writes from: a command before it may
// point a ref or a file git reads as one at any object (git branch y H
// && git checkout y, git tag t B:sub && git checkout t -- ., git commit
// -m H && git checkout COMMIT_EDITMSG), which the history read before the
// line does not reach. They are the object names (as revisionHashes
// finds them, in messages too) and the words that name a tree or a
// reflog entry (B:sub, x@{1}), which historyHolds takes as it takes c's.
func gitLineRevisions(a *shellscan.Analysis, c shellscan.Command) []string {
	var out []string
	for _, o := range a.Commands {
		if pathmatch.FoldName(path.Base(o.Name)) != "git" || o.Wrapper || slices.Equal(o.Args, c.Args) && o.Name == c.Name {
			continue
		}
		out = append(out, gitRevisionWords(o.Args)...)
	}
	return out
}

// gitRevisionWords returns the words of git args that may name an object
// (see gitLineRevisions), reading the words of a message (-m, --message,
// a cluster ending in m) for object names only.
func gitRevisionWords(args []string) []string {
	var out []string
	message := false
	// a refspec of git push, fetch or pull (HEAD:x, +B:refs/heads/y)
	// names its source, a revision, and a ref the command writes
	refspecs := len(args) > 0 && (args[0] == "push" || args[0] == "fetch" || args[0] == "pull")
	for i, w := range args {
		if src, _, ok := strings.Cut(strings.TrimPrefix(w, "+"), ":"); ok && refspecs && i > 0 && !message &&
			!strings.HasPrefix(w, "-") && strings.Count(w, ":") == 1 && !strings.Contains(w, "@{") {
			out = append(out, revisionHashes(src)...)
			continue
		}
		if message || strings.HasPrefix(w, "--message=") {
			for _, f := range strings.Fields(strings.TrimPrefix(w, "--message=")) {
				out = append(out, revisionHashes(f)...)
			}
			message = false
			continue
		}
		// -m, --message and a cluster ending in m (git commit -am)
		// take the next word as a message.
		message = w == "--message" || len(w) > 1 && w[0] == '-' && w[1] != '-' && w[len(w)-1] == 'm'
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "m") {
			// a cluster with a message in it (-amfix: x)
			for _, f := range strings.Fields(w) {
				out = append(out, revisionHashes(f)...)
			}
			continue
		}
		if strings.Contains(w, ":") || strings.Contains(w, "@{") {
			out = append(out, w)
			continue
		}
		if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "--") {
			w = v
		}
		out = append(out, revisionHashes(w)...)
	}
	return out
}

// gitRefWriter reports whether git args (the subcommand sub first) may
// point a ref, or a file git reads as one, at an object the args name:
// git branch, tag, worktree add (its HEAD), commit (COMMIT_EDITMSG), and
// a fetch or push within the repository (git fetch . H:refs/heads/y). A
// command run in the background may do it after a later line's git
// checkout y was judged: (sleep 1; git branch -f B H) & then sleep 3; git
// checkout B.
func gitRefWriter(sub string, args []string) bool {
	switch sub {
	case "branch", "tag", "worktree", "commit":
		return true
	case "fetch", "push":
		for _, a := range args[1:] {
			if !strings.HasPrefix(a, "-") {
				return a == "."
			}
		}
	}
	return false
}

// revisionHashes returns, in lower case, the words of the operand op that
// may be (abbreviated) object names: the name a revision starts from on
// each side of a range (H, H^0, H~2, H^{tree}, ^H, A..H, A...H), and, when
// op is a cluster of short options (-sH, -qsH: git restore's source),
// each tail of it after an option letter, which may be the value of the
// letter before. git resolves each, whether or not a ref or reflog
// reaches it.
func revisionHashes(op string) []string {
	words := []string{op}
	if len(op) > 2 && op[0] == '-' && op[1] != '-' {
		words = words[:0]
		for k := 2; k < len(op); k++ {
			if c := op[k-1]; k == 2 || 'g' <= c && c <= 'z' || 'G' <= c && c <= 'Z' {
				words = append(words, op[k:])
			}
		}
	}
	var out []string
	for _, w := range words {
		for _, side := range strings.Split(strings.ReplaceAll(w, "...", ".."), "..") {
			side = strings.TrimLeft(side, "^")
			if i := strings.IndexAny(side, "^~"); i >= 0 {
				side = side[:i]
			}
			if looksLikeHash(side) {
				out = append(out, strings.ToLower(side))
			}
		}
	}
	return out
}

// looksLikeHash reports whether s may be an abbreviated object name.
func looksLikeHash(s string) bool {
	if len(s) < 4 || len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// historyWalk walks commits, from roots, for trees that hold one of rels.
type historyWalk struct {
	st     *filesystem.Storage
	gitDir string
	packs  []*walkPack // nil until packChain reads them
	// loose lists, by fan-out directory (the object name's first two
	// hex digits), the loose objects there, read once a walk: a packed
	// repository has few, and looking for each object's file cost an
	// open a commit
	loose    map[string]map[string]bool
	rels     []string
	memo     *historyMemo
	seen     map[plumbing.Hash]bool // commits and tags visited
	trees    map[plumbing.Hash]bool // root trees checked
	shallow  map[plumbing.Hash]bool // commits whose parents a shallow clone lacks
	cut      bool                   // a commit of shallow with parents was met
	deadline time.Time
	// commits counts the objects read; maxCommits bounds it
	commits, maxCommits int
	steps               int // objects visited, read or known
}

// from walks the history from the object h (a commit, a tag, or a tree)
// and returns the index of a path of rels a tree on the way holds, or -1.
func (w *historyWalk) from(h plumbing.Hash) (int, error) {
	stack := []plumbing.Hash{h}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if w.seen[h] || w.memo.clean[h] {
			continue
		}
		w.seen[h] = true
		w.steps++
		l, known := w.memo.known[h]
		if !known || w.steps%1024 == 0 {
			if !known {
				w.commits++
			}
			if w.commits > w.maxCommits || time.Now().After(w.deadline) {
				return 0, fmt.Errorf("%w: more than %d new commits, or past the time allowed", errHistory, w.maxCommits)
			}
		}
		if !known {
			typ, body, err := w.object(h)
			if err != nil {
				return 0, err
			}
			switch typ {
			case plumbing.CommitObject, plumbing.TagObject:
				trees, parents, objects := headerLinks(body)
				for _, x := range trees {
					if i, err := w.tree(x); err != nil || i >= 0 {
						return i, err
					}
				}
				l = links{parents, objects}
			case plumbing.TreeObject:
				if i, err := w.tree(h); err != nil || i >= 0 {
					return i, err
				}
			}
			if len(w.memo.known) < maxKnownCommits {
				w.memo.known[h] = l
			}
		}
		if !w.shallow[h] {
			stack = append(stack, l.parents...)
		} else if len(l.parents) > 0 {
			w.cut = true
		}
		stack = append(stack, l.objects...)
	}
	return -1, nil
}

// headerLinks returns the objects the headers of a commit or a tag (body)
// name: its trees (tree), its parents (parent) and a tag's object
// (object). The headers end at the first empty line, where the message
// begins.
func headerLinks(body []byte) (trees, parents, objects []plumbing.Hash) {
	for line := range bytes.Lines(body) {
		line = bytes.TrimSuffix(line, []byte("\n"))
		if len(line) == 0 {
			break
		}
		key, val, _ := bytes.Cut(line, []byte(" "))
		x, ok := hexHash(string(val))
		switch {
		case !ok:
		case string(key) == "tree":
			trees = append(trees, x)
		case string(key) == "parent":
			parents = append(parents, x)
		case string(key) == "object":
			objects = append(objects, x)
		}
	}
	return trees, parents, objects
}

// object reads the object h, whole.
func (w *historyWalk) object(h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	if !w.isLoose(h) {
		// not loose when the walk listed its directory: packed, or
		// missing (go-git's look finds it or not)
	} else if typ, b, err := looseObject(w.gitDir, h); !errors.Is(err, fs.ErrNotExist) {
		if err != nil {
			return 0, nil, fmt.Errorf("%w: object %s: %w", errHistory, h, err)
		}
		return typ, b, nil
	}
	if err := w.packChain(h); err != nil {
		return 0, nil, fmt.Errorf("%w: object %s: %w", errHistory, h, err)
	}
	obj, err := w.st.EncodedObject(plumbing.AnyObject, h)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: object %s: %w", errHistory, h, err)
	}
	r, err := obj.Reader()
	if err != nil {
		return 0, nil, fmt.Errorf("%w: object %s: %w", errHistory, h, err)
	}
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxGitObject+1))
	if err != nil || len(b) > maxGitObject {
		return 0, nil, fmt.Errorf("%w: object %s: too large or unreadable (%v)", errHistory, h, err)
	}
	return obj.Type(), b, nil
}

// isLoose reports whether the directory of loose objects that would hold
// h listed it when the walk first looked there (or could not be listed:
// then every object counts as loose, and looseObject looks).
func (w *historyWalk) isLoose(h plumbing.Hash) bool {
	hex := h.String()
	names, ok := w.loose[hex[:2]]
	if !ok {
		entries, err := os.ReadDir(filepath.Join(w.gitDir, "objects", hex[:2]))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			names = map[string]bool{}
		case err != nil:
			names = nil
		default:
			names = make(map[string]bool, len(entries))
			for _, e := range entries {
				names[e.Name()] = true
			}
		}
		if w.loose == nil {
			w.loose = map[string]map[string]bool{}
		}
		w.loose[hex[:2]] = names
	}
	return names == nil || names[hex[2:]]
}

// looseObject reads the loose object h of the git directory gitDir,
// whole, inflating no more than its header says it holds (and at most
// maxGitObject): go-git's storage inflates a loose object until its zlib
// stream ends, and a 4 MB object of 4 GiB of zeros behind a header of
// "commit 100" took 48 s and 15 GB (git calls it corrupt). An object that
// is not loose is fs.ErrNotExist.
func looseObject(gitDir string, h plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	hex := h.String()
	f, err := gitFiles{}.Open(filepath.Join(gitDir, "objects", hex[:2], hex[2:]))
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, nil, err
	}
	defer zr.Close()
	header := make([]byte, 0, 32)
	for one := make([]byte, 1); ; {
		if _, err := io.ReadFull(zr, one); err != nil {
			return 0, nil, err
		}
		if one[0] == 0 {
			break
		}
		if header = append(header, one[0]); len(header) >= 32 {
			return 0, nil, errors.New("malformed loose object header")
		}
	}
	name, size, _ := strings.Cut(string(header), " ")
	typ, err := plumbing.ParseObjectType(name)
	n, nerr := strconv.ParseUint(size, 10, 63)
	if err != nil || nerr != nil || typ < plumbing.CommitObject || typ > plumbing.TagObject || size != strconv.FormatUint(n, 10) {
		return 0, nil, errors.New("malformed loose object header")
	}
	if n > maxGitObject {
		return 0, nil, errors.New("too large")
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(zr, b); err != nil {
		return 0, nil, err
	}
	if k, _ := zr.Read(make([]byte, 1)); k > 0 {
		return 0, nil, errors.New("more data than its header says")
	}
	return typ, b, nil
}

// maxDeltaDepth bounds the chain of deltas a packed object the walk
// reads may be at the end of (git's pack-objects makes chains of at most
// 4095, by default 50).
const maxDeltaDepth = 10000

// A walkPack is a pack of the repository the walk looks objects up in
// before go-git reads them, and the offsets of its entries whose delta
// chains were found within the bounds.
type walkPack struct {
	idx  *idxfile.MemoryIndex
	f    billy.File
	good map[int64]int // offset: the length of the chain below it
	zr   io.ReadCloser // reset for each delta read
}

// packChain returns an error when the object h is packed at the end of a
// chain of deltas longer than maxDeltaDepth, or of objects any of which
// (a delta's result, or the object at the chain's root) is larger than
// maxGitObject: go-git resolves a chain by recursion, keeping every
// level, and a tree at the end of a chain of a million deltas of 50
// bytes (a pack of 52 MB that git reads in 0.6 s) took 7 s and 2.4 GB.
// An object in no pack is nothing to look at here; one in several packs
// is looked at in each.
func (w *historyWalk) packChain(h plumbing.Hash) error {
	if w.packs == nil {
		w.packs = []*walkPack{}
		dir := filepath.Join(w.gitDir, "objects", "pack")
		entries, err := os.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for _, e := range entries {
			name, ok := strings.CutSuffix(e.Name(), ".idx")
			if !ok || !strings.HasPrefix(name, "pack-") {
				continue
			}
			f, err := gitFiles{}.Open(filepath.Join(dir, e.Name()))
			if err != nil {
				return err
			}
			idx := idxfile.NewMemoryIndex()
			err = idxfile.NewDecoder(bufio.NewReader(f)).Decode(idx)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s: %w", e.Name(), err)
			}
			pf, err := gitFiles{}.Open(filepath.Join(dir, name+".pack"))
			if errors.Is(err, fs.ErrNotExist) {
				continue // go-git does not read an index without its pack
			}
			if err != nil {
				return err
			}
			w.packs = append(w.packs, &walkPack{idx: idx, f: pf, good: map[int64]int{}})
		}
	}
	// Every pack that holds h: go-git may read any of them.
	for _, p := range w.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		if err := p.chain(off); err != nil {
			return err
		}
	}
	return nil
}

// close closes the packs' files.
func (w *historyWalk) close() {
	for _, p := range w.packs {
		p.f.Close()
	}
}

// chain checks the chain of deltas from the entry of p at off (see
// packChain).
func (p *walkPack) chain(off int64) error {
	var path []int64
	depth := 0
	for {
		if d, ok := p.good[off]; ok {
			depth = d
			break
		}
		if len(path) > maxDeltaDepth {
			return fmt.Errorf("a chain of more than %d deltas", maxDeltaDepth)
		}
		path = append(path, off)
		var b [64]byte
		n, err := p.f.ReadAt(b[:], off)
		if n == 0 {
			return fmt.Errorf("pack entry at %d: %v", off, err)
		}
		c := b[0]
		typ, size, shift, i := (c>>4)&7, uint64(c&15), 4, 1
		for ; c&0x80 != 0; i++ {
			if i >= n || shift > 56 {
				return fmt.Errorf("pack entry at %d: a malformed header", off)
			}
			c = b[i]
			size |= uint64(c&0x7f) << shift
			shift += 7
		}
		if size > maxGitObject {
			return fmt.Errorf("pack entry at %d: too large", off)
		}
		var base int64
		switch typ {
		case 1, 2, 3, 4: // commit, tree, blob, tag: the root of the chain
			p.good[off] = 0
			depth = 0
			path = path[:len(path)-1]
		case 6: // a delta on the entry rel bytes before
			if i >= n {
				return fmt.Errorf("pack entry at %d: a malformed header", off)
			}
			c = b[i]
			rel := int64(c & 0x7f)
			for i++; c&0x80 != 0; i++ {
				if i >= n || rel > 1<<48 {
					return fmt.Errorf("pack entry at %d: a malformed header", off)
				}
				c = b[i]
				rel = (rel+1)<<7 | int64(c&0x7f)
			}
			base = off - rel
		case 7: // a delta on the object named
			if i+20 > n {
				return fmt.Errorf("pack entry at %d: a malformed header", off)
			}
			var x plumbing.Hash
			copy(x[:], b[i:i+20])
			i += 20
			if base, err = p.idx.FindOffset(x); err != nil {
				return fmt.Errorf("pack entry at %d: its base %s is not in the pack", off, x)
			}
		default:
			return fmt.Errorf("pack entry at %d: type %d", off, typ)
		}
		if typ == 6 || typ == 7 {
			if base <= 0 || base >= off && typ == 6 {
				return fmt.Errorf("pack entry at %d: a malformed base", off)
			}
			if err := p.deltaResult(off + int64(i)); err != nil {
				return fmt.Errorf("pack entry at %d: %w", off, err)
			}
			off = base
			continue
		}
		break
	}
	for k := len(path) - 1; k >= 0; k-- {
		depth++
		if depth > maxDeltaDepth {
			return fmt.Errorf("a chain of more than %d deltas", maxDeltaDepth)
		}
		p.good[path[k]] = depth
	}
	return nil
}

// deltaResult checks the size of the object the delta whose data (zlib)
// starts at off makes.
func (p *walkPack) deltaResult(off int64) error {
	src := io.NewSectionReader(p.f, off, 64)
	if p.zr == nil {
		zr, err := zlib.NewReader(src)
		if err != nil {
			return err
		}
		p.zr = zr
	} else if err := p.zr.(zlib.Resetter).Reset(src, nil); err != nil {
		return err
	}
	zr := p.zr
	var b [20]byte
	n, _ := io.ReadFull(zr, b[:])
	r := bytes.NewReader(b[:n])
	for range 2 { // the base's size, then the result's
		size, shift := uint64(0), 0
		for {
			c, err := r.ReadByte()
			if err != nil || shift > 56 {
				return errors.New("a malformed delta")
			}
			size |= uint64(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				break
			}
		}
		if size > maxGitObject {
			return errors.New("a delta too large")
		}
	}
	return nil
}

// maxGitObject bounds the size of a commit, tag or tree the walk reads.
const maxGitObject = 16 << 20

// tree returns the index of a path of rels that the root tree h holds, or
// -1. A path holds when every component is found (in any case, as a file
// system that folds names would find it: every entry equal to a
// component in that sense is looked in, Conf as well as conf), or when a
// component before the last is not a directory: a link or a submodule
// there is as much a write of the protected path.
func (w *historyWalk) tree(h plumbing.Hash) (int, error) {
	if w.trees[h] {
		return -1, nil
	}
	w.trees[h] = true
	typ, root, err := w.object(h) // the root tree, read once for every path
	if err != nil {
		return 0, err
	}
	if typ != plumbing.TreeObject {
		return 0, fmt.Errorf("%w: %s is not a tree", errHistory, h)
	}
	for i, rel := range w.rels {
		held, err := w.treeHolds(h, root, strings.Split(rel, "/"), map[treeLook]bool{})
		if err != nil || held {
			return i, err
		}
	}
	return -1, nil
}

// treeHolds reports whether the tree h, whose object is body, holds the
// path of components parts (see tree). looked holds the trees below h
// already looked in, with the components looked for (a tree whose
// entries repeat a name, each the same tree, is looked in once).
func (w *historyWalk) treeHolds(h plumbing.Hash, body []byte, parts []string, looked map[treeLook]bool) (bool, error) {
	held := false
	err := treeEntries(body, parts[0], func(dir bool, x plumbing.Hash) error {
		if held {
			return nil
		}
		if len(parts) == 1 || !dir {
			held = true
			return nil
		}
		if looked[treeLook{x, len(parts)}] {
			return nil
		}
		looked[treeLook{x, len(parts)}] = true
		if time.Now().After(w.deadline) {
			return fmt.Errorf("%w: past the time allowed", errHistory)
		}
		typ, sub, err := w.object(x)
		if err != nil {
			return err
		}
		if typ != plumbing.TreeObject {
			return fmt.Errorf("%w: %s is not a tree", errHistory, x)
		}
		held, err = w.treeHolds(x, sub, parts[1:], looked)
		return err
	})
	if err != nil && !errors.Is(err, errHistory) {
		err = fmt.Errorf("%w: tree %s: %w", errHistory, h, err)
	}
	return held, err
}

// A treeLook is a tree looked in for the last n components of a path.
type treeLook struct {
	h plumbing.Hash
	n int
}

// treeEntries calls fn for each entry of the tree object body (entries of
// "<mode> <name>\x00<20-byte object name>") whose name is name as a file
// system that folds case compares them, telling whether it is a
// directory, until fn returns an error.
func treeEntries(body []byte, name string, fn func(dir bool, h plumbing.Hash) error) error {
	want, ascii := "", isASCII(name)
	if !ascii {
		want = pathmatch.FoldName(name)
	}
	for len(body) > 0 {
		sp := bytes.IndexByte(body, ' ')
		nul := bytes.IndexByte(body, 0)
		if sp < 0 || nul < sp || len(body) < nul+1+20 {
			return errors.New("malformed tree")
		}
		var h plumbing.Hash
		mode, n := body[:sp], body[sp+1:nul]
		copy(h[:], body[nul+1:nul+21])
		body = body[nul+21:]
		if foldEqual(n, name, ascii, want) {
			if err := fn(string(mode) == "40000" || string(mode) == "040000", h); err != nil {
				return err
			}
		}
	}
	return nil
}

// hexHash parses a full object name in hex.
func hexHash(s string) (plumbing.Hash, bool) {
	if !plumbing.IsHash(s) {
		return plumbing.ZeroHash, false
	}
	return plumbing.NewHash(s), true
}

// foldEqual reports whether the tree entry's name n is name as a file
// system that folds case compares them: ASCII names as bytes.EqualFold
// does, others by FoldName (want is name's folded form when name is not
// all ASCII).
func foldEqual(n []byte, name string, ascii bool, want string) bool {
	if ascii && isASCII(n) {
		if len(n) != len(name) {
			return false
		}
		for i := range n {
			a, b := n[i], name[i]
			if 'A' <= a && a <= 'Z' {
				a += 'a' - 'A'
			}
			if 'A' <= b && b <= 'Z' {
				b += 'a' - 'A'
			}
			if a != b {
				return false
			}
		}
		return true
	}
	if ascii {
		want = pathmatch.FoldName(name) // n is not all ASCII
	}
	return pathmatch.FoldName(string(n)) == want
}

func isASCII[S ~string | ~[]byte](s S) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
