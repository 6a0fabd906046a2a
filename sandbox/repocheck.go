package sandbox

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/gitconfig"
	"github.com/lite-agent/lite-agent-go/internal/gitindex"
)

// Limits of the repository check.
const (
	// maxCheckEntries bounds the directory entries one check reads in the
	// workdir; past it the check stops and says so.
	maxCheckEntries = 4_000_000
	// maxCheckFile bounds the bytes read of one configuration, .git,
	// commondir or index file; a longer configuration counts as one that
	// runs code, a longer index as one that cannot be parsed.
	maxCheckFile  = 1 << 20
	maxCheckIndex = 256 << 20
	// checkSlack is how long before the sandbox was made a change still
	// counts as the commands': file times come from the kernel's coarse
	// clock, which lags by up to one tick (10ms at HZ=100).
	checkSlack = 50 * time.Millisecond
	// quarantineSuffix is added, with a number, to what the check moves
	// aside.
	quarantineSuffix = ".lite-agent-quarantine-"
)

// nestedCodeKeys matches, in lower case, the settings of a repository's
// configuration that make git run a program: those of codeKeys, the hooks
// directory and what else names a command (an alias or a submodule update
// starting with "!", a transport's upload-pack, a remote helper).
// It is compiled on first use, so that the package's initialisation
// allocates little.
var nestedCodeKeys = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(` + codeKeys + `|core\.hookspath|core\.gitproxy|core\.alternaterefscommand|` +
		`remote\..*\.(uploadpack|receivepack|vcs|proxy)|gpg\.ssh\.defaultkeycommand|trailer\..*\.(command|cmd)|` +
		`(browser|man)\..*\.(cmd|path)|web\.browser|sendemail\..*|alias\..*|submodule\..*\.update)$`)
})

// A RepoCheckError reports what [Bubblewrap.AfterRun] found: git
// repositories that commands left in the workdir (a new one, or one whose
// configuration or hooks they changed) and that would make git, run
// outside the sandbox, run a program, each moved aside so that git no
// longer finds it; and, with Incomplete, a check that could not look
// everywhere.
type RepoCheckError struct {
	// Workdir is the workdir the paths are relative to.
	Workdir string
	// Moved lists the repositories moved aside.
	Moved []QuarantinedRepo
	// Failed lists the repositories that could not be moved aside, so
	// that git run there would still run their code.
	Failed []QuarantinedRepo
	// Incomplete says why part of the workdir was not checked ("" when
	// all of it was).
	Incomplete string
}

// A QuarantinedRepo is a repository [Bubblewrap.AfterRun] found.
type QuarantinedRepo struct {
	// Path is what made git find the repository, relative to the
	// workdir: a .git directory, file or link, or the HEAD of a git
	// directory that is not named .git.
	Path string
	// MovedTo is where Path was moved to, relative to the workdir ("" if
	// it was not). Moving it back restores the repository unchanged.
	MovedTo string
	// Reasons says what would run: settings such as "core.fsmonitor",
	// hooks such as "hooks/post-checkout".
	Reasons []string
	// Err says why it could not be moved; nil when it was.
	Err error
}

// Error names each repository, what would run, where it went and how to
// restore it.
func (e *RepoCheckError) Error() string {
	var b strings.Builder
	b.WriteString("sandbox: ")
	if len(e.Moved)+len(e.Failed) > 0 {
		b.WriteString("a command left git repositories that would run programs outside the sandbox (git status, diff, commit … there or, through a gitlink, in the project)")
	}
	for _, q := range e.Moved {
		fmt.Fprintf(&b, "; moved %s (%s) to %s: read its config and hooks without running git there; to keep it, after the session (it is moved aside again until then), mv %s %s",
			q.Path, strings.Join(q.Reasons, ", "), q.MovedTo, shellQuote(q.MovedTo), shellQuote(q.Path))
	}
	for _, q := range e.Failed {
		fmt.Fprintf(&b, "; could not move %s (%s): %v; do not run git there", q.Path, strings.Join(q.Reasons, ", "), q.Err)
	}
	if e.Incomplete != "" {
		if len(e.Moved)+len(e.Failed) > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "the check for repositories commands left in %s is incomplete: %s", e.Workdir, e.Incomplete)
	}
	return b.String()
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// repoCheck is the state of a Bubblewrap's repository check.
type repoCheck struct {
	since         time.Time       // changes from then on are the commands'
	knownDirs     map[string]bool // git directories the mount plan protects, relative to the workdir
	knownFiles    map[string]bool // .git files the mount plan keeps read-only, relative
	worktreeHooks []string        // Options.WorktreeHooks

	mu    sync.Mutex          // one check at a time
	moved map[string]bool     // guarded by mu: the git directories the check moved aside, relative, which the walk skips
	memo  map[string]*dirMemo // guarded by mu: what the last complete walk read, by directory relative to the workdir

	lastRead, lastRemembered int // guarded by mu: the directories the last walk read and took from memo
}

// newRepoCheck returns the check of a sandbox with options o (cleaned),
// made now: the workdir's .git and the git directories in .git/modules
// whose configuration o keeps read-only are known, as are the .git
// files o keeps read-only.
func newRepoCheck(o Options, now time.Time) *repoCheck {
	c := &repoCheck{since: now.Add(-checkSlack), knownDirs: map[string]bool{".git": true}, knownFiles: map[string]bool{}, moved: map[string]bool{},
		worktreeHooks: o.WorktreeHooks}
	readOnly := func(p string) bool {
		return slices.ContainsFunc(o.ReadOnly, func(r string) bool { return within(p, r) })
	}
	for _, d := range gitDirsBelow(filepath.Join(o.Workdir, ".git", "modules")) {
		if readOnly(filepath.Join(d, "config")) {
			if rel, err := filepath.Rel(o.Workdir, d); err == nil {
				c.knownDirs[rel] = true
			}
		}
	}
	for _, p := range o.ReadOnly {
		if filepath.Base(p) == ".git" && within(p, o.Workdir) && p != filepath.Join(o.Workdir, ".git") {
			if rel, err := filepath.Rel(o.Workdir, p); err == nil {
				c.knownFiles[rel] = true
			}
		}
	}
	return c
}

// AfterRun implements [AfterRunner]: it looks, on the host, for git
// repositories that commands made or changed in the workdir since the
// Bubblewrap was made, other than those the mount plan protects, and
// moves aside each that would make git run a program. The caller runs it
// once the wrapped command, and everything it started, has ended.
//
// It looks at every gitlink of the index of the workdir's .git (the
// paths whose repository the project's git status enters), and walks
// the workdir, .git included, for .git directories, files and links and
// for directories that git would take for a git directory (HEAD with
// objects, refs or commondir). A repository counts as one that runs code
// when its configuration (config and config.worktree, with the files they
// include inside the workdir, and its commondir's) sets a key that names a
// command (core.fsmonitor, core.hooksPath, filters, textconv, pagers,
// editors, credential helpers, aliases starting with "!" …), includes a
// file outside the workdir, cannot be parsed, or its hooks directory holds
// anything but *.sample files; a .git link, or a .git file or commondir
// naming a place outside the workdir, counts as one too, and so does a
// hook in a directory of its worktree that a core.hooksPath of its own,
// of a protected git directory it names (the project's: a .git file or
// commondir naming it makes another worktree of the project's
// repository) or of the user's ([Options.WorktreeHooks]) names. It counts as changed
// when one of those files, a hooks directory or a hook, or the .git file
// or link, changed since the Bubblewrap was made (by its
// status change time, which commands cannot set back), or when the git
// directory did (a .git directory's own time, which every commit changes,
// counts only with its parent's, which renaming it into place changes
// too): a repository of the user's that ran code before stays as it is. A repository git init or
// git clone made, with only sample hooks, is left alone. The gitlinks
// are looked at first, however large the workdir; the walk stops, and
// the error says so, past 4,000,000 entries or when ctx is done.
//
// The walk remembers what it read of each directory for the next check,
// which reads again only the directories whose status change time (or
// device and inode) changed: making, removing or renaming an entry
// changes it, and commands cannot set it back. It still stats every
// directory and looks at every .git and git directory it remembers, whose
// configuration and hooks change without their directory changing. A
// directory changed less than two seconds before a check read it is read
// again by the next one, and only ext2/3/4, XFS, Btrfs, tmpfs, F2FS and ZFS
// workdirs are remembered (other file systems, network, FUSE and overlay
// ones among them, are read in full every time), never an encrypted
// (fscrypt) directory, whose listing changes when its key is added or
// removed while its times stay.
//
// Moving aside renames the .git (or a git directory's HEAD) to
// NAME.lite-agent-quarantine-N, never over an existing name, and keeps
// everything; AfterRun then returns a [*RepoCheckError] naming each move
// and how to undo it. It reads files itself, through the workdir opened
// as an [os.Root] (no link leads out of it), opens nothing that is not a
// regular file or directory, and runs no program. It is safe for
// concurrent use; checks run one at a time.
func (b *Bubblewrap) AfterRun(ctx context.Context) error {
	c := b.check
	c.mu.Lock()
	defer c.mu.Unlock()
	root, err := os.OpenRoot(b.opts.Workdir)
	if err != nil {
		return &RepoCheckError{Workdir: b.opts.Workdir, Incomplete: "cannot open the workdir: " + err.Error()}
	}
	defer root.Close()
	s := &checkRun{c: c, root: root, wd: b.opts.Workdir, ctx: ctx, seen: map[string]bool{}, budget: maxCheckEntries,
		next: map[string]*dirMemo{}}
	s.gitlinks()
	s.walk()
	if s.incomplete == "" {
		c.memo = s.next
	}
	c.lastRead, c.lastRemembered = s.dirsRead, s.dirsRemembered
	s.quarantine()
	if len(s.found) == 0 && s.incomplete == "" {
		return nil
	}
	e := &RepoCheckError{Workdir: b.opts.Workdir, Incomplete: s.incomplete}
	for _, q := range s.found {
		if q.Err != nil {
			e.Failed = append(e.Failed, q)
		} else {
			e.Moved = append(e.Moved, q)
		}
	}
	return e
}

// checkRun is one run of the check.
type checkRun struct {
	c          *repoCheck
	root       *os.Root
	wd         string // the workdir, as the options name it
	ctx        context.Context
	seen       map[string]bool // candidates looked at, relative
	budget     int
	incomplete string
	found      []QuarantinedRepo

	next           map[string]*dirMemo // the memo for the next run
	memoOn         bool                // the workdir's file system is one memoFS trusts
	memoDev        uint64              // its device: other directories are not remembered
	dirsRead       int                 // directories read
	dirsRemembered int                 // directories taken from the last run's memo
}

// gitlinks looks at the repository of every gitlink in .git/index.
func (s *checkRun) gitlinks() {
	data, _, err := s.read(".git/index", maxCheckIndex)
	if err != nil {
		return // no index, or none git reads
	}
	hashLen := 20
	if cfg, _, err := s.read(".git/config", maxCheckFile); err == nil {
		if entries, err := gitconfig.Parse(cfg); err == nil {
			for _, e := range entries {
				if e.Name == "extensions.objectformat" && strings.EqualFold(e.Value, "sha256") {
					hashLen = 32
				}
			}
		}
	}
	links, err := gitindex.Gitlinks(data, hashLen)
	if err != nil {
		return // opaque: the walk below looks everywhere
	}
	for _, l := range links {
		p := filepath.Join(filepath.FromSlash(l), ".git")
		if fi, err := s.root.Lstat(p); err == nil {
			s.candidate(p, fi)
		}
	}
}

// walk walks the whole workdir, without following links, for
// repositories.
func (s *checkRun) walk() {
	f, err := s.root.OpenFile(".", checkDirFlags, 0)
	if err != nil {
		s.incomplete = "cannot read the workdir: " + err.Error()
		return
	}
	defer f.Close()
	d, err := handleOf(f)
	if err != nil {
		s.incomplete = "cannot read the workdir: " + err.Error()
		return
	}
	defer d.close()
	s.memoDev, s.memoOn = memoFS(d)
	s.walkDir(d, ".", 0)
}

// maxOpenDepth is how deep the walk keeps directories open to open
// their children by name; deeper, it opens each by its path from the
// workdir, which is slower.
const maxOpenDepth = 48

// walkDir looks at the directory dir, open as d, and below it.
func (s *checkRun) walkDir(d dirHandle, dir string, depth int) {
	if s.incomplete != "" {
		return
	}
	if err := s.ctx.Err(); err != nil {
		s.incomplete = "cancelled: " + err.Error()
		return
	}
	m := s.readDir(d, dir)
	if s.budget < 0 {
		s.incomplete = fmt.Sprintf("more than %d entries", maxCheckEntries)
		return
	}
	if m.gitDirLike && dir != "." && filepath.Base(dir) != ".git" && !s.c.knownDirs[dir] && !s.c.moved[dir] {
		s.gitDirCandidate(dir)
	}
	if p := filepath.Join(dir, ".git"); m.dotGit && p != ".git" {
		// Not a DirEntry's Info: it would look the name up by a path of
		// the process's, where the workdir's links lead anywhere.
		if fi, err := s.root.Lstat(p); err == nil {
			s.candidate(p, fi)
		}
	}
	for _, name := range m.subdirs {
		p := filepath.Join(dir, name)
		if s.unchangedLeaf(d, p, name) {
			if s.budget < 0 {
				s.incomplete = fmt.Sprintf("more than %d entries", maxCheckEntries)
				return
			}
			continue
		}
		sub, err := s.openSub(d, p, name, depth)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) && s.incomplete == "" {
				s.incomplete = "cannot read " + p + ": " + err.Error()
			}
			continue
		}
		s.walkDir(sub, p, depth+1)
		sub.close()
	}
}

// openSub opens the directory name of d, at p, at depth.
func (s *checkRun) openSub(d dirHandle, p, name string, depth int) (dirHandle, error) {
	if depth < maxOpenDepth {
		return d.openDirAt(name)
	}
	f, err := s.root.OpenFile(p, checkDirFlags, 0)
	if err != nil {
		return d, err
	}
	defer f.Close()
	return handleOf(f)
}

// readDir returns what the walk needs of the directory dir, open as d:
// the last run's memo when the directory has not changed since, or else
// what it reads now. It counts the entries against the budget.
func (s *checkRun) readDir(d dirHandle, dir string) *dirMemo {
	start := time.Now()
	old, st, stamped := s.remembered(d, dir)
	if old != nil {
		s.keep(dir, old)
		s.dirsRemembered++
		s.budget -= old.entries
		return old
	}
	s.dirsRead++
	entries := d.readDir(func(n int) bool {
		s.budget -= n
		return s.budget >= 0
	})
	m := memoOf(st, stamped, start)
	if m == nil {
		m = &dirMemo{}
	} else {
		s.keep(dir, m)
	}
	m.entries = len(entries)
	hasHead := false
	for _, e := range entries {
		switch e.Name() {
		case "HEAD":
			hasHead = true
		case "objects", "refs", "commondir":
			m.gitDirLike = true
		case ".git":
			m.dotGit = true
		}
		if e.Type().IsDir() {
			m.subdirs = append(m.subdirs, e.Name())
		}
	}
	m.gitDirLike = m.gitDirLike && hasHead
	return m
}

// readEntries reads the entries of f in batches until the end, an error,
// or budget, given each batch's size, returns false.
func readEntries(f *os.File, budget func(n int) bool) []fs.DirEntry {
	var entries []fs.DirEntry
	for {
		batch, err := f.ReadDir(4096)
		entries = append(entries, batch...)
		if !budget(len(batch)) || err != nil || len(batch) == 0 {
			return entries
		}
	}
}

// candidate looks at the .git p (a directory, a gitdir: file or a link).
func (s *checkRun) candidate(p string, fi fs.FileInfo) {
	if s.seen[p] || s.c.knownFiles[p] {
		return
	}
	s.seen[p] = true
	ev := &evaluation{s: s}
	if !fi.IsDir() {
		// What a file or link names is its content; a directory's own
		// time changes at each commit in it and says nothing.
		ev.touch(ctime(fi))
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		ev.reason("a symbolic link")
	case fi.IsDir():
		ev.gitDir(p, true)
		ev.worktreeHooks(p, filepath.Dir(p))
	case fi.Mode().IsRegular():
		data, _, err := s.read(p, maxCheckFile)
		if err != nil {
			ev.reason("unreadable .git file")
			break
		}
		// As git reads it: all that follows "gitdir: ", less the line
		// ends at the end; a second line is part of the path.
		target, ok := strings.CutPrefix(string(data), "gitdir: ")
		if !ok {
			break // git refuses it
		}
		if rel, ok := s.inside(filepath.Dir(p), strings.TrimRight(target, "\r\n")); !ok {
			ev.reason("gitdir outside the workdir")
		} else {
			if s.c.knownDirs[rel] {
				ev.known(rel)
			} else {
				ev.gitDir(rel, true)
			}
			ev.worktreeHooks(rel, filepath.Dir(p))
		}
	default:
		ev.reason("not a file or directory")
	}
	s.report(p, ev)
}

// gitDirCandidate looks at dir, which git would take for a git directory.
func (s *checkRun) gitDirCandidate(dir string) {
	if s.seen[dir] {
		return
	}
	s.seen[dir] = true
	ev := &evaluation{s: s}
	ev.gitDir(dir, true)
	ev.worktreeHooks(dir, dir)
	s.report(filepath.Join(dir, "HEAD"), ev)
}

// report records p for quarantine when its repository runs code and
// changed.
func (s *checkRun) report(p string, ev *evaluation) {
	if len(ev.reasons) > 0 && ev.changed {
		s.found = append(s.found, QuarantinedRepo{Path: p, Reasons: ev.reasons})
	}
}

// quarantine moves aside what was found.
func (s *checkRun) quarantine() {
	for i := range s.found {
		q := &s.found[i]
		to, err := s.moveAside(q.Path)
		if err != nil {
			q.Err = err
			continue
		}
		q.MovedTo = to
		s.c.moved[to] = true
	}
}

// moveAside renames p to p.lite-agent-quarantine-N, the first N free,
// never replacing a name, and returns the new path.
func (s *checkRun) moveAside(p string) (string, error) {
	dir, name := filepath.Split(p)
	dir = filepath.Clean(dir)
	d, err := s.root.OpenFile(dir, checkDirFlags, 0)
	if err != nil {
		return "", err
	}
	defer d.Close()
	for n := 1; n < 1000; n++ {
		to := fmt.Sprintf("%s%s%d", name, quarantineSuffix, n)
		err := renameNoReplace(d, name, to)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, to), nil
	}
	return "", errors.New("no free quarantine name")
}

// read reads the regular file p of the workdir, at most limit bytes (a
// longer one is an error), without blocking on a fifo.
func (s *checkRun) read(p string, limit int64) ([]byte, fs.FileInfo, error) {
	f, err := s.root.OpenFile(p, checkFileFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, fs.ErrInvalid
	}
	if fi.Size() > limit {
		return nil, nil, errors.New("too large")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(data)) > limit {
		err = errors.New("too large")
	}
	return data, fi, err
}

// inside resolves target, a path git reads relative to dir (relative to
// the workdir), and returns it relative to the workdir when it lies there.
// An absolute target may name the workdir by its real path, as git
// inside the sandbox sees it. A target with a ".." after a name does not
// lie there: the system takes the ".." from where that name leads when it
// is a link, while this reads the path as text.
func (s *checkRun) inside(dir, target string) (string, bool) {
	named := false
	for _, c := range strings.Split(filepath.ToSlash(target), "/") {
		switch c {
		case "", ".":
		case "..":
			if named {
				return "", false
			}
		default:
			named = true
		}
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(s.wd, dir, target)
	}
	target = filepath.Clean(target)
	for _, wd := range []string{s.wd, canonical(s.wd)} {
		if within(target, wd) {
			rel, err := filepath.Rel(wd, target)
			return rel, err == nil
		}
	}
	return "", false
}

// An evaluation gathers why a repository would run code and whether it
// changed.
type evaluation struct {
	s       *checkRun
	reasons []string
	changed bool
	configs int
	// hooksPaths and worktrees hold the values of core.hooksPath and
	// core.worktree the configuration sets.
	hooksPaths, worktrees []string
}

func (ev *evaluation) reason(r string) {
	if !slices.Contains(ev.reasons, r) {
		ev.reasons = append(ev.reasons, r)
	}
}

func (ev *evaluation) touch(t time.Time) {
	if !t.Before(ev.s.c.since) {
		ev.changed = true
	}
}

// gitDir looks at the git directory dir: its configuration, its hooks
// and, with followCommon, its commondir's.
func (ev *evaluation) gitDir(dir string, followCommon bool) {
	ev.touchGitDir(dir)
	for _, name := range []string{"config", "config.worktree"} {
		ev.config(filepath.Join(dir, name), 0)
	}
	ev.hooks(filepath.Join(dir, "hooks"), "hooks")
	if !followCommon {
		return
	}
	p := filepath.Join(dir, "commondir")
	data, fi, err := ev.s.read(p, maxCheckFile)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		ev.reason("unreadable commondir")
		return
	}
	ev.touch(ctime(fi))
	common, ok := ev.s.inside(dir, strings.TrimSpace(string(data)))
	switch {
	case !ok:
		ev.reason("commondir outside the workdir")
	case ev.s.c.knownDirs[common]:
		ev.known(common)
	case common != dir:
		ev.gitDir(common, false)
	}
}

// known looks at dir, a git directory the mount plan protects, reached
// from another worktree (a .git file or a commondir naming it): its
// configuration and hooks are the user's and count for nothing here, but
// the hooks directory its core.hooksPath names relative to the worktree
// is this worktree's, which commands write (see worktreeHooks).
func (ev *evaluation) known(dir string) {
	k := &evaluation{s: ev.s}
	for _, name := range []string{"config", "config.worktree"} {
		k.config(filepath.Join(dir, name), 0)
	}
	ev.hooksPaths = append(ev.hooksPaths, k.hooksPaths...)
}

// hooks looks at the hooks directory p, named label in the reasons: a
// link counts as code, and so does each entry but *.sample files; its
// status change time and its entries' count.
func (ev *evaluation) hooks(p, label string) {
	fi, err := ev.s.root.Lstat(p)
	if err != nil {
		return
	}
	ev.touch(ctime(fi))
	if fi.Mode()&fs.ModeSymlink != 0 {
		ev.reason(label + " is a symbolic link")
		return
	}
	f, err := ev.s.root.OpenFile(p, checkDirFlags, 0)
	if err != nil {
		return
	}
	var entries []fs.DirEntry
	for ev.s.budget >= 0 {
		batch, err := f.ReadDir(1024)
		entries = append(entries, batch...)
		ev.s.budget -= len(batch)
		if err != nil || len(batch) == 0 {
			break
		}
	}
	f.Close()
	for _, e := range entries {
		if info, err := ev.s.root.Lstat(filepath.Join(p, e.Name())); err == nil {
			ev.touch(ctime(info))
		}
		if !strings.HasSuffix(e.Name(), ".sample") {
			ev.reason(label + "/" + e.Name())
		}
	}
}

// worktreeHooks looks at the hooks directories of the repository whose
// git directory is dir that lie outside it: those a core.hooksPath of its
// configuration or the user's relative one ([Options.WorktreeHooks])
// names, relative to its worktree wt (the directory holding its .git, or
// what its core.worktree names) where relative. The repository's own
// core.hooksPath already counts as code; a hook a command put in such a
// directory, or the directory itself, counts as a change.
func (ev *evaluation) worktreeHooks(dir, wt string) {
	wts := []string{wt}
	for _, w := range ev.worktrees {
		if rel, ok := ev.s.inside(dir, w); ok {
			wts = append(wts, rel)
		}
	}
	var rels []string
	for _, h := range ev.hooksPaths {
		if h == "" || strings.HasPrefix(h, "~") || strings.HasPrefix(h, "%(prefix)") {
			continue // none, or outside the workdir
		}
		for _, w := range wts {
			if rel, ok := ev.s.inside(w, h); ok {
				rels = append(rels, rel)
			}
		}
	}
	for _, h := range ev.s.c.worktreeHooks {
		for _, w := range wts {
			if rel, ok := ev.s.inside(w, h); ok {
				rels = append(rels, rel)
			}
		}
	}
	slices.Sort(rels)
	for _, rel := range slices.Compact(rels) {
		ev.hooks(rel, rel)
	}
}

// touchGitDir counts the git directory dir as changed when it was
// renamed into place or made one in place: a directory a command renames
// keeps the times of the files in it, so an old directory holding a file
// named config, or hooks, would otherwise pass for the user's repository.
// Renaming dir, or adding a HEAD to it, changes its own status change
// time; so does every commit in a .git directory, which therefore counts
// only with its parent's, which a rename into place changes too.
func (ev *evaluation) touchGitDir(dir string) {
	fi, err := ev.s.root.Lstat(dir)
	if err != nil {
		return
	}
	t := ctime(fi)
	if filepath.Base(dir) == ".git" {
		if pfi, err := ev.s.root.Lstat(filepath.Dir(dir)); err == nil && ctime(pfi).Before(t) {
			t = ctime(pfi)
		}
	}
	ev.touch(t)
}

// config reads the configuration file p and the files it includes.
func (ev *evaluation) config(p string, depth int) {
	data, fi, err := ev.s.read(p, maxCheckFile)
	if errors.Is(err, fs.ErrNotExist) {
		if depth > 0 {
			// Git reads no missing file, but an include naming one
			// is no part of a plain repository, and the name git
			// reads might not be the one read here.
			ev.reason("include of a missing file")
		}
		return
	}
	ev.configs++
	if err != nil {
		ev.reason("unreadable " + filepath.Base(p))
		if fi2, err := ev.s.root.Lstat(p); err == nil {
			ev.touch(ctime(fi2))
		}
		return
	}
	ev.touch(ctime(fi))
	entries, err := gitconfig.Parse(data)
	if err != nil {
		ev.reason(filepath.Base(p) + " that git may read otherwise")
		return
	}
	for _, e := range entries {
		key := strings.ToLower(e.Name)
		switch key {
		case "core.hookspath":
			ev.hooksPaths = append(ev.hooksPaths, strings.TrimSpace(e.Value))
		case "core.worktree":
			ev.worktrees = append(ev.worktrees, strings.TrimSpace(e.Value))
		}
		switch {
		case key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path"):
			if e.NoValue || e.Value == "" {
				continue
			}
			if strings.HasPrefix(e.Value, "~") || strings.HasPrefix(e.Value, "%(prefix)") {
				ev.reason("include outside the workdir")
				continue
			}
			rel, ok := ev.s.inside(filepath.Dir(p), e.Value)
			if !ok {
				ev.reason("include outside the workdir")
				continue
			}
			if depth >= 10 || ev.configs >= maxGitConfigFiles {
				ev.reason("includes nested too deep")
				continue
			}
			ev.config(rel, depth+1)
		case nestedCodeKeys().MatchString(key):
			v := strings.ToLower(strings.TrimSpace(e.Value))
			switch {
			case key == "core.fsmonitor" && !e.NoValue && (v == "" || v == "false" || v == "no" || v == "off" || v == "0"):
			case (strings.HasPrefix(key, "alias.") || strings.HasPrefix(key, "submodule.")) && !strings.HasPrefix(v, "!"):
			default:
				ev.reason(e.Name)
			}
		}
	}
}
