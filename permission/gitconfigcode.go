package permission

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/lite-agent/lite-agent-go/internal/gitindex"
	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// gitRepoCode says why a git command of the line (one that talks to a
// remote, with network) makes it opaque because of the repository's own
// configuration: a copied repository (an archive, a directory handed
// over, one the agent did not clone) may carry a .git/config whose core.fsmonitor, filter, diff
// driver or pager is a command, which git runs for `git status` or `git
// diff` as much as for anything else, and a core.worktree that points
// git's reads and writes out of the project. The gate reads the
// repository's configuration as git would find it from the workdir
// (.git/config, config.worktree, the common directory's config that
// .git/commondir names, and the files they include, whatever the include's
// condition) and asks when one of these keys holds a value that is not
// known to be harmless (a boolean fsmonitor, git-lfs's filters, a plain
// pager, signing or credential program). Keys that only matter when git
// talks to a remote (core.sshCommand, credential helpers, url rewrites)
// count with network only (see gitNetwork). Hooks stay the project's
// code, as a Makefile is: the gate protects them from the line's writes.
// It asks too when git may use another repository than .git
// (gitElsewhere) and when .git holds links out of the project
// (gitDirLinks). It returns "" when nothing of the kind is found.
//
// changer says the line has a git command that may change the index
// (add, checkout, merge …) and several that it has more than one git
// command: a later one then finds as submodules what the first recorded
// (git add -A; git status runs git in a nested repository the add just
// took), and with submodule.recurse the changer itself goes into them, so
// the configuration of every repository nested in the project counts too.
func (g *Gate) gitRepoCode(network, changer, several bool) string {
	if why := gitElsewhere(g.workdir); why != "" {
		return why
	}
	recurse := false
	if why := g.gitRepoCodeIn(filepath.Join(g.workdir, ".git"), g.workdir, network, 0, &recurse); why != "" {
		return why
	}
	if !changer || !several && !recurse {
		return ""
	}
	return g.nestedRepoCode(network)
}

// gitElsewhere says why git, run in workdir, may not use the repository
// of workdir/.git, whose configuration the gate reads: a .git directory
// that is not a repository to git (is_git_directory: a HEAD that names a
// ref or a commit, objects and refs) sends git on, to the workdir itself
// as a bare repository (its HEAD, objects, refs, config and
// info/attributes) or up to a parent's .git, as a copied tree may lay
// them out. It returns "" when .git is a repository, or when git finds
// none of these (it then stops: not a git repository).
func gitElsewhere(workdir string) string {
	if gitValidDir(filepath.Join(workdir, ".git")) {
		return ""
	}
	for d := workdir; ; d = filepath.Dir(d) {
		if d != workdir {
			if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
				return "git may use the repository of " + clip(d) + ", a parent of the workdir, whose .git directory is not one git takes"
			}
		}
		if gitValidDir(d) {
			return "git may take " + clip(d) + " for a bare repository, whose configuration the gate does not read, since the workdir's .git directory is not one git takes"
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// gitValidDir reports whether git takes dir for a git directory, as
// is_git_directory does: HEAD a link into refs/, or a file naming a ref
// in refs/ or holding an object name, and objects and refs in dir or in
// the common directory its commondir names.
func gitValidDir(dir string) bool {
	head := filepath.Join(dir, "HEAD")
	fi, err := os.Lstat(head)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, err := os.Readlink(head)
		if err != nil || !strings.HasPrefix(to, "refs/") {
			return false
		}
	} else {
		b, err := readNoWait(head, maxGitConfigSize)
		if err != nil {
			return false
		}
		b = b[:min(len(b), 255)] // git reads no more
		ref, isRef := bytes.CutPrefix(b, []byte("ref:"))
		if !(isRef && bytes.HasPrefix(bytes.TrimLeft(ref, " \t\n\r"), []byte("refs/")) || gitHexName(b)) {
			return false
		}
	}
	common, ok := gitCommonDir(dir)
	if !ok {
		return true // a common directory the gate cannot read: take it as git may, and ask then
	}
	if common == "" {
		common = dir
	}
	for _, sub := range []string{"objects", "refs"} {
		if _, err := os.Stat(filepath.Join(common, sub)); err != nil {
			return false
		}
	}
	return true
}

// gitHexName reports whether b begins with an object name of 40 hex
// digits, as get_oid_hex reads a detached HEAD.
func gitHexName(b []byte) bool {
	if len(b) < 40 {
		return false
	}
	for _, c := range b[:40] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// gitNetwork reports whether the git subcommand sub talks to a remote,
// where the keys gitCodeKey adds for network count.
func gitNetwork(sub string) bool {
	switch sub {
	case "fetch", "pull", "push", "remote":
		return true
	}
	return false
}

// gitIndexChangers are the git subcommands that may change the index,
// from the worktree or from commits, and so record a submodule there.
var gitIndexChangers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"add": true, "commit": true, "stash": true, "checkout": true, "switch": true, "restore": true,
		"reset": true, "merge": true, "pull": true, "rebase": true, "cherry-pick": true, "revert": true,
		"am": true, "apply": true, "mv": true, "rm": true,
	}
})

// gitIndexChanges reports whether the line a has a git command that may
// change the index (gitIndexChangers) and whether it has more than one git
// command with a subcommand.
func gitIndexChanges(a *shellscan.Analysis) (changer, several bool) {
	n := 0
	for _, c := range a.Commands {
		if pathmatch.FoldName(path.Base(c.Name)) != "git" || c.Wrapper {
			continue
		}
		for _, arg := range c.Args {
			if !strings.HasPrefix(arg, "-") {
				n++
				changer = changer || gitIndexChangers()[arg]
				break
			}
		}
	}
	return changer, n > 1
}

// nestedRepoCode is gitRepoCodeIn for every repository nested in the
// workdir (a directory holding .git, as a directory or a file), found by
// a walk that does not follow links and leaves the workdir's own .git
// out; a project too large to walk asks.
func (g *Gate) nestedRepoCode(network bool) string {
	lk := g.lookups()
	budget := maxLinkWalk
	queue := []string{g.workdir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := lk.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return "git may record and enter repositories nested in the project, which is too large for the gate to look through"
			}
			p := filepath.Join(d, e.Name())
			if pathmatch.FoldName(e.Name()) == ".git" {
				if d == g.workdir {
					continue
				}
				sub, ok := gitDirOf(d)
				if !ok {
					return "git may enter the repository nested at " + clip(d) + ", whose git directory the gate cannot read"
				}
				if sub == "" {
					continue
				}
				var recurse bool
				if why := g.gitRepoCodeIn(sub, d, network, 1, &recurse); why != "" {
					return why
				}
				continue
			}
			if e.IsDir() {
				queue = append(queue, p)
			}
		}
	}
	return ""
}

// maxSubmoduleDepth bounds how deep gitRepoCodeIn follows submodules of
// submodules; a deeper one asks.
const maxSubmoduleDepth = 8

// gitRepoCodeIn is gitRepoCode for the repository whose git directory is
// dir and whose worktree is worktree, and then for each submodule its
// index lists (a gitlink) that is checked out there: git status and git
// diff run git in those too, with their own configuration, which a copied
// tree may carry in sub/.git/config or in the git directory a sub/.git
// file names (.git/modules/NAME).
//
// recurse is set when the configuration turns submodule.recurse on.
func (g *Gate) gitRepoCodeIn(dir, worktree string, network bool, depth int, recurse *bool) string {
	files := []string{filepath.Join(dir, "config"), filepath.Join(dir, "config.worktree")}
	if why := g.gitDirLinks(dir); why != "" {
		return why
	}
	if common, ok := gitCommonDir(dir); !ok {
		return "git runs with a common directory (" + clip(filepath.Join(dir, "commondir")) + ") the gate cannot read, whose configuration may run commands"
	} else if common != "" {
		if !g.inProject(common) {
			return "git keeps the repository's objects, references and configuration in " + clip(common) + ", outside the project"
		}
		if why := g.gitDirLinks(common); why != "" {
			return why
		}
		files = append(files, filepath.Join(common, "config"))
	}
	seen := map[string]bool{}
	var why string
	hashSize := 20
	// fileEntry is an entry and the file it is in.
	type fileEntry struct {
		e gitConfigEntry
		f string
	}
	var all []fileEntry // judged once every file is read: a later one may make the repository a partial clone
	var read func(f string, depth int)
	read = func(f string, depth int) {
		if why != "" || seen[f] || depth > maxGitIncludes {
			return
		}
		seen[f] = true
		entries, whole := gitConfigEntries(f)
		if !whole {
			why = "git reads " + clip(f) + ", a configuration the gate cannot read whole or parse, which may run commands"
			return
		}
		for _, e := range entries {
			if e.key == "path" && (e.section == "include" || strings.HasPrefix(e.section, "includeif ") || strings.HasPrefix(e.section, "includeif.")) {
				// git joins the path to the including file's
				// directory as strings, and the kernel takes a ".."
				// after a link from where the link leads: the path is
				// read as joined, not cleaned.
				v, known := gitInterpolate(e.value, g.home)
				if !known {
					why = "git includes " + clip(e.value) + " (" + clip(f) + "), a file the gate cannot find, whose configuration may run commands"
					return
				}
				if v == "" {
					continue // git stops on it
				}
				if !filepath.IsAbs(v) {
					v = f[:strings.LastIndexByte(f, '/')+1] + v
				}
				if gitOddPath(v) {
					why = "git includes " + clip(e.value) + " (" + clip(f) + "), which it may find elsewhere than the gate (in /proc or /dev)"
					return
				}
				read(v, depth+1)
				if why != "" {
					return
				}
				continue
			}
			if e.section == "submodule" && e.key == "recurse" && !gitFalse(e.value) {
				*recurse = true
			}
			if e.section == "extensions" && e.key == "objectformat" && strings.EqualFold(e.value, "sha256") {
				hashSize = 32
			}
			// A partial clone fetches the objects it lacks from its
			// promisor remote in git show, git diff or git blame as
			// much as in git fetch: the remote's keys count for every
			// git command then.
			if e.section == "extensions" && e.key == "partialclone" || strings.HasPrefix(e.section, "remote ") && e.key == "promisor" && !gitFalse(e.value) {
				network = true
			}
			all = append(all, fileEntry{e, f})
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	if why != "" {
		return why
	}
	for _, fe := range all {
		e := fe.e
		if k, isPath := gitCodeKey(e, network); k != "" && (isPath && !g.gitPathInside(e, worktree) || !isPath && !gitHarmless(e, dir, worktree)) {
			return "git runs with the repository's " + k + " = " + clip(e.value) + " (" + clip(fe.f) + "), which may run a command or reach outside the project"
		}
	}
	if why := g.gitModulesCode(dir, worktree, network, depth, recurse); why != "" {
		return why
	}
	links, err := gitlinks(filepath.Join(dir, "index"), hashSize)
	if err != nil {
		return "git may run in submodules the gate cannot list (" + err.Error() + ")"
	}
	for _, l := range links {
		sub := filepath.Join(worktree, filepath.FromSlash(l))
		subDir, ok := gitDirOf(sub)
		if !ok {
			return "git may run in the submodule " + clip(sub) + ", whose git directory the gate cannot read"
		}
		if subDir == "" {
			continue // not checked out: git does not go there
		}
		if depth+1 > maxSubmoduleDepth {
			return "git may run in submodules nested deeper than the gate follows"
		}
		if why := g.gitRepoCodeIn(subDir, sub, network, depth+1, recurse); why != "" {
			return why
		}
	}
	return ""
}

// gitModulesCode is gitRepoCodeIn for each submodule's git directory
// kept in dir/modules (.git/modules/NAME), checked out or not: git
// checkout and git pull with submodule.recurse check a submodule out from
// there, and git fetch fetches into one whose recorded commit changed,
// each with that directory's configuration. A submodule's worktree is
// the one its core.worktree names when that is in the project, else its
// name beneath worktree, as git submodule add makes it.
func (g *Gate) gitModulesCode(dir, worktree string, network bool, depth int, recurse *bool) string {
	modules := filepath.Join(dir, "modules")
	budget := maxLinkWalk
	queue := []string{modules}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if d != modules && gitValidDir(d) {
			if depth+1 > maxSubmoduleDepth {
				return "git may run in submodules nested deeper than the gate follows"
			}
			rel, _ := filepath.Rel(modules, d)
			sub := filepath.Join(worktree, rel)
			if w := gitModuleWorktree(d); w != "" && g.inProject(w) {
				sub = w // a submodule named otherwise than its path, or moved since
			}
			if why := g.gitRepoCodeIn(d, sub, network, depth+1, recurse); why != "" {
				return why
			}
			continue
		}
		entries, err := g.lookups().ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return "git may run in submodules of " + clip(modules) + ", too many for the gate to look through"
			}
			p := filepath.Join(d, e.Name())
			if e.Type()&fs.ModeSymlink != 0 {
				// gitDirLinks leaves modules to this walk.
				to, ok := physical(p)
				if !ok || to != "" && !g.inProject(to) || to == "" && !g.inProject(p) {
					return "git may run in the submodule git directory " + clip(p) + ", a link out of the project"
				}
				if fi, err := os.Stat(to); to != "" && err == nil && fi.IsDir() {
					queue = append(queue, p)
				}
				continue
			}
			if e.IsDir() {
				queue = append(queue, p)
			}
		}
	}
	return ""
}

// gitModuleWorktree returns the worktree the core.worktree of the git
// directory dir names (the last one, as git takes it), as its links lead,
// "" when there is none or it does not exist.
func gitModuleWorktree(dir string) string {
	entries, _ := gitConfigEntries(filepath.Join(dir, "config"))
	w := ""
	for _, e := range entries {
		if e.section == "core" && e.key == "worktree" {
			w = e.value
		}
	}
	if w == "" {
		return ""
	}
	if !filepath.IsAbs(w) {
		w = dir + "/" + w
	}
	p, _ := physical(w)
	return p
}

// gitDirOf returns the git directory of the checked-out submodule at sub:
// sub/.git when that is a directory, or the one a sub/.git file names
// ("gitdir: PATH", relative to sub), "" when there is neither. ok is false
// when sub/.git is there but cannot be read.
func gitDirOf(sub string) (dir string, ok bool) {
	p := filepath.Join(sub, ".git")
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	if fi.IsDir() {
		return p, true
	}
	b, err := readNoWait(p, maxGitConfigSize)
	if err != nil {
		return "", false
	}
	v, found := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir:")
	if !found {
		return "", false
	}
	v = strings.TrimSpace(v)
	if !filepath.IsAbs(v) {
		v = sub + "/" + v
	}
	return physical(v)
}

// physical returns the path p names with its links followed (git takes
// the real path of a git directory, so that a ".." after a link leads
// beside the link's target), "" when it does not exist; ok is false when
// it cannot be worked out.
func physical(p string) (string, bool) {
	if gitOddPath(p) {
		return "", false
	}
	r, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	return r, true
}

// gitOddPath reports whether git may find the path p elsewhere than the
// gate, lexically or through links: beneath a process's directory in
// /proc (git's /proc/self/cwd is its own working directory, not the
// gate's), or in /dev (a descriptor, the terminal).
func gitOddPath(p string) bool {
	if !filepath.IsAbs(p) {
		return false
	}
	a, b := pathmatch.ResolveFrom(p, "/nonexistent/a"), pathmatch.ResolveFrom(p, "/nonexistent/b")
	c := filepath.Clean(p)
	return a != b || pathmatch.Within(a, "/proc") || pathmatch.Within(a, "/dev") || pathmatch.Within(c, "/proc") || pathmatch.Within(c, "/dev")
}

// maxGitIndexSize bounds the index gitlinks reads; a larger one asks.
const maxGitIndexSize = 256 << 20

// gitlinks returns the paths of the submodules (entries of mode 160000)
// that the git index file f lists, none when f does not exist. It reads
// index versions 2, 3 and 4 with object names of hashSize bytes, and fails
// on anything else, a split index (whose entries are in another file)
// among them (see [gitindex.Gitlinks]).
func gitlinks(f string, hashSize int) ([]string, error) {
	b, err := readNoWait(f, maxGitIndexSize)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	links, err := gitindex.Gitlinks(b, hashSize)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	return links, nil
}

// gitCommonDir returns the directory .git/commondir names (relative to the
// .git directory dir), "" when there is none; ok is false when the file
// exists but cannot be read.
func gitCommonDir(dir string) (common string, ok bool) {
	b, err := readNoWait(filepath.Join(dir, "commondir"), maxGitConfigSize)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return "", true
	}
	if err != nil {
		return "", false
	}
	c := strings.TrimRight(string(b), "\r\n")
	if c == "" {
		return "", true
	}
	if !filepath.IsAbs(c) {
		c = dir + "/" + c
	}
	return physical(c)
}

// gitCodeKey returns the name of e (section.key) when it is one of the
// configuration keys through which a repository makes git run a command or
// work on files outside it, and "" otherwise; path is set for a key whose
// value names a file or directory git reads or writes (see gitPathKeys).
// Keys are matched by their last part whatever the section's spelling
// ([diff "x"], [diff.x]), so that a header the gate reads otherwise than
// git still counts, and any key ending in "command" or "cmd" counts
// (tar.<format>.command, gpg.ssh.defaultKeyCommand), as do an editor
// (core.editor, sequence.editor) and pull.rebase or branch.<name>.rebase
// = interactive, which makes git pull start one; network adds the keys
// git only uses when it talks to a remote.
func gitCodeKey(e gitConfigEntry, network bool) (name string, path bool) {
	name = e.section + "." + e.key
	section, _, _ := strings.Cut(strings.ReplaceAll(e.section, ".", " "), " ")
	switch e.key {
	case "sshcommand", "askpass", "gitproxy", "helper", "uploadpack", "receivepack", "vcs",
		"insteadof", "pushinsteadof", "alternaterefscommand", "allow",
		"cookiefile", "sslkey", "sslcert", "sslcainfo", "sslcapath", "proxysslkey", "proxysslcert", "proxysslcainfo":
		if !network {
			return "", false
		}
		return name, strings.Contains(e.key, "ssl") || e.key == "cookiefile"
	case "fsmonitor", "worktree", "textconv", "external", "clean", "smudge", "process", "driver",
		"program", "difffilter", "pager", "editor":
		return name, false
	case "rebase":
		// pull.rebase or branch.<name>.rebase = interactive makes git
		// pull start the sequence editor, which the repository names
		// too (sequence.editor), or vi, which reads keys from a pipe.
		if (section == "pull" || section == "branch") && strings.HasPrefix(strings.ToLower(e.value), "i") {
			return name, false
		}
		return "", false
	}
	if gitPathKeys()[e.key] || section == "mailmap" && e.key == "file" {
		return name, true
	}
	if section == "pager" || strings.HasSuffix(e.key, "command") || strings.HasSuffix(e.key, "cmd") {
		return name, false
	}
	return "", false
}

// gitPathKeys are the last parts of keys whose value is a file or
// directory git reads (and may show: blame.ignoreRevsFile's lines in an
// error, format.signatureFile in every patch) or writes
// (format.outputDirectory); they are harmless inside the worktree.
var gitPathKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"template": true, "signaturefile": true, "outputdirectory": true, "ignorerevsfile": true,
		"orderfile": true, "excludesfile": true, "attributesfile": true, "allowedsignersfile": true,
		"revocationfile": true, "skiplist": true,
	}
})

// gitHarmless reports whether e, a key gitCodeKey names, holds a value
// that runs nothing of the project's and stays in it: a boolean
// core.fsmonitor (git's own daemon), git-lfs's filters, a plain pager
// (less, more, cat, delta, bat, diff-so-fancy) with options only, a
// signing program (gpg, gpg2, gpgsm, ssh-keygen), a credential helper of
// git's or the system's keyring by name, an editor by name with options
// (vi, vim, nano, emacs, code …), or a core.worktree that is the
// repository's own worktree (the workdir, or a submodule's directory).
// dir is the git directory, to which a relative worktree is relative.
func gitHarmless(e gitConfigEntry, dir, worktree string) bool {
	v := e.value
	words := strings.Fields(v)
	if len(words) == 0 {
		return true
	}
	options := func(ws []string) bool {
		for _, w := range ws {
			if !strings.HasPrefix(w, "-") || strings.ContainsAny(w, "/$`'\"\\;&|<>()~") {
				return false
			}
		}
		return true
	}
	switch e.key {
	case "fsmonitor":
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "1", "0":
			return true
		}
		return false
	case "worktree":
		if !filepath.IsAbs(v) {
			v = dir + "/" + v
		}
		// git takes the real path, a ".." after a link beside its target.
		p, ok := physical(v)
		w, wok := physical(worktree)
		return ok && wok && p != "" && p == w
	case "clean", "smudge", "process":
		if words[0] != "git-lfs" || len(words) < 2 {
			return false
		}
		for _, w := range words[1:] {
			switch w {
			case "clean", "smudge", "filter-process", "--skip", "--", "%f":
			default:
				return false
			}
		}
		return true
	case "program":
		return len(words) == 1 && slices.Contains([]string{"gpg", "gpg2", "gpgsm", "ssh-keygen",
			"/usr/bin/gpg", "/usr/bin/gpg2", "/usr/bin/gpgsm", "/usr/bin/ssh-keygen"}, v)
	case "sshcommand":
		return gitPlainSSH(v, words)
	case "editor":
		// An editor by name with options only: git runs it on a file of
		// .git (git commit without -m, git rebase -i), which a line
		// that starts one asks about anyway.
		return slices.Contains([]string{"vi", "vim", "nvim", "nano", "emacs", "emacsclient", "code", "subl", "mate", "micro", "hx", "kak"}, words[0]) &&
			options(words[1:])
	case "rebase":
		return false
	case "helper":
		return slices.Contains([]string{"cache", "store", "libsecret", "manager", "manager-core", "osxkeychain", "wincred"}, words[0]) &&
			options(words[1:])
	}
	if e.key == "pager" || strings.HasPrefix(strings.ReplaceAll(e.section, ".", " ")+" ", "pager ") {
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "1", "0":
			return true // pager.<cmd> may be a boolean
		}
		return slices.Contains([]string{"less", "more", "cat", "delta", "bat", "most", "diff-so-fancy"}, words[0]) && options(words[1:])
	}
	return false
}

// gitPlainSSH reports whether the core.sshCommand value v (split into
// words) is ssh with options that run, load and write nothing: no shell
// syntax (git runs the value through sh), only -i, -p, -l, the flags
// 4 6 a A C k q T t v x, and -o with one of sshPlainOptions. -F (a
// configuration, which may hold a ProxyCommand), -I and -o
// PKCS11Provider or SecurityKeyProvider (a library ssh loads: a
// project's .so runs in git pull), -E and -o UserKnownHostsFile (files
// ssh writes) and ProxyCommand, LocalCommand, KnownHostsCommand, Match
// exec or Include are not. `ssh -i ~/.ssh/work_key -o
// IdentitiesOnly=yes` is plain.
func gitPlainSSH(v string, words []string) bool {
	if words[0] != "ssh" && words[0] != "/usr/bin/ssh" {
		return false
	}
	if strings.ContainsAny(v, "$`'\"\\;&|<>()*?[]{}!#\n") {
		return false
	}
	for i := 1; i < len(words); i++ {
		w := words[i]
		if len(w) < 2 || w[0] != '-' {
			return false
		}
		arg := func() string {
			if len(w) > 2 {
				return w[2:]
			}
			if i++; i < len(words) {
				return words[i]
			}
			return ""
		}
		switch w[1] {
		case 'o':
			key, val, _ := strings.Cut(arg(), "=")
			key = strings.ToLower(key)
			if !sshPlainOptions()[key] || key == "identityfile" && strings.HasPrefix(val, "~") && !strings.HasPrefix(val, "~/") {
				return false
			}
		case 'i', 'p', 'l':
			a := arg()
			if a == "" || w[1] == 'i' && strings.HasPrefix(a, "~") && !strings.HasPrefix(a, "~/") {
				return false
			}
		default:
			for _, c := range w[1:] {
				if !strings.ContainsRune("46aACkqTtvx", c) {
					return false
				}
			}
		}
	}
	return true
}

// sshPlainOptions are the ssh -o options (lower case) gitPlainSSH lets
// pass: they choose keys, algorithms, ports, users and timeouts, and
// neither run, load nor write anything.
var sshPlainOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"identitiesonly": true, "identityfile": true, "port": true, "user": true, "stricthostkeychecking": true,
		"batchmode": true, "connecttimeout": true, "connectionattempts": true, "serveraliveinterval": true,
		"serveralivecountmax": true, "tcpkeepalive": true, "hostkeyalgorithms": true, "pubkeyacceptedkeytypes": true,
		"pubkeyacceptedalgorithms": true, "kexalgorithms": true, "ciphers": true, "macs": true, "loglevel": true,
		"compression": true, "preferredauthentications": true, "passwordauthentication": true,
		"pubkeyauthentication": true, "hostkeyalias": true, "checkhostip": true, "addressfamily": true,
	}
})

// gitFalse reports whether v is one of git's spellings of false.
func gitFalse(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0", "":
		return true
	}
	return false
}

// gitPathInside reports whether the path e's value names (relative to
// worktree, or ~/ beneath the home), as written and through links, lies
// in the repository's worktree and is no secret location there (a
// project's .env).
func (g *Gate) gitPathInside(e gitConfigEntry, worktree string) bool {
	v, known := gitInterpolate(e.value, g.home)
	switch {
	case !known || v == "":
		return false
	case !filepath.IsAbs(v):
		v = worktree + "/" + v
	}
	// git opens the path as written: a ".." after a link leads beside
	// the link's target, which the path cleaned would hide.
	lk := g.lookups()
	real := lk.ResolveFrom(v, worktree)
	if p, ok := physical(v); !ok {
		return false
	} else if p != "" {
		real = p
	}
	return pathmatch.Within(filepath.Clean(v), worktree) && pathmatch.Within(real, lk.ResolveFrom(worktree, worktree)) &&
		!g.namesSecret([]string{""}, v, false, true) && !g.namesSecret([]string{""}, real, false, true)
}

// gitInterpolate returns the path v names as git's interpolate_path
// makes it of a path-valued key or an include: ~ and ~/ are beneath home
// (git takes $HOME, which the gate's home is), ~user/ beneath that user's
// home, "" for a user there is not (git stops on it). known is false for
// %(prefix)/, beneath git's installation prefix, or ~ with no home known:
// the gate cannot tell where either leads (%(prefix)/../root/.ssh is any
// path).
func gitInterpolate(v, home string) (p string, known bool) {
	if strings.HasPrefix(v, "%(prefix)/") {
		return "", false
	}
	if !strings.HasPrefix(v, "~") {
		return v, true
	}
	name, rest, _ := strings.Cut(v[1:], "/")
	if name == "" {
		if home == "" {
			return "", false
		}
		return home + v[1:], true
	}
	u, err := user.Lookup(name)
	if err != nil {
		var unknown user.UnknownUserError
		return "", errors.As(err, &unknown)
	}
	if strings.Contains(v[1:], "/") {
		return u.HomeDir + "/" + rest, true
	}
	return u.HomeDir, true
}

// inProject reports whether the path p, through links, lies in the
// workdir.
func (g *Gate) inProject(p string) bool {
	lk := g.lookups()
	return pathmatch.Within(lk.ResolveFrom(p, g.workdir), lk.ResolveFrom(g.workdir, g.workdir))
}

// gitStateDirs are the directories of a git directory whose files git
// itself reads or writes, looked through by gitDirLinks; of the others
// (modules, hooks, lfs, annex …) and of objects' fan-out only whether they
// are links counts.
var gitStateDirs = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"refs": true, "logs": true, "objects": true, "info": true, "worktrees": true, "rebase-merge": true,
		"rebase-apply": true, "sequencer": true, "rr-cache": true, "remotes": true, "branches": true,
	}
})

// gitDirLinks says why a symbolic link in the git directory dir makes a
// git line opaque: git reads the files there and shows what a few of
// them hold (packed-refs' lines in an error, BISECT_START's and
// rebase-merge/head-name's in git status, shallow's), and writes others
// in place (COMMIT_EDITMSG, the reflogs in logs, FETCH_HEAD) or beneath
// linked directories (objects, refs), so a copied repository's link to
// ~/.ssh/id_ed25519 prints the key and one to ~/.bashrc rewrites it. A
// link that stays in the project, leads to no secret and no protected
// path is fine (git's contrib/git-new-workdir makes such links, Android's
// repo too when the workdir holds .repo); the directories such a link
// leads to are looked through as well. Only gitStateDirs are looked
// into, and of objects only info and pack (the loose objects' fan-out
// is not read: a link there only sends git's compressed objects
// elsewhere); of git-lfs's and git-annex's stores only whether they are
// links counts; submodules' git directories (modules) are
// gitModulesCode's; hooks, the project's code that git runs but neither
// shows nor writes, do not count. It returns "" otherwise.
func (g *Gate) gitDirLinks(dir string) string {
	lk := g.lookups()
	budget := maxLinkWalk
	seen := map[string]bool{dir: true}
	queue := []string{dir}
	objects := filepath.Join(dir, "objects")
	// link checks the link p: why it counts, or the directory it leads
	// to, to look through.
	link := func(p string) (why, follow string) {
		to, ok := physical(p)
		if !ok || to != "" && (!g.inProject(to) || g.hitsProtected(to, true) || g.namesSecret([]string{""}, to, false, true)) ||
			to == "" && (!g.inProject(p) || g.namesSecret([]string{""}, p, false, false)) {
			return "git reads or writes " + clip(p) + ", a link out of the project, to a secret or to a protected path, which a copied repository may hold", ""
		}
		if fi, err := os.Stat(to); to != "" && err == nil && fi.IsDir() && !seen[to] {
			seen[to] = true
			return "", to
		}
		return "", ""
	}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if d == objects {
			// Of the objects, only info (alternates, commit-graph)
			// and pack: a link among the fan-out directories only
			// gives git somewhere else to write its compressed
			// objects, and reading the hundreds of them costs.
			for _, name := range []string{"info", "pack"} {
				p := filepath.Join(d, name)
				fi, err := os.Lstat(p)
				switch {
				case err != nil:
				case fi.Mode()&fs.ModeSymlink != 0:
					why, follow := link(p)
					if why != "" {
						return why
					}
					if follow != "" {
						queue = append(queue, follow)
					}
				case fi.IsDir():
					queue = append(queue, p)
				}
			}
			continue
		}
		entries, err := lk.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return "git works in " + clip(dir) + ", too large for the gate to look through for links out of the project"
			}
			if d == dir && e.Name() == "hooks" {
				continue // the project's code, which git runs and neither shows nor writes
			}
			if e.Type()&fs.ModeSymlink != 0 {
				why, follow := link(filepath.Join(d, e.Name()))
				if why != "" {
					return why
				}
				if follow != "" {
					queue = append(queue, follow)
				}
				continue
			}
			if !e.IsDir() || d == dir && !gitStateDirs()[e.Name()] {
				continue // only whether it is a link counts
			}
			if p := filepath.Join(d, e.Name()); !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return ""
}
