package permission

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

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
// It returns "" when nothing of the kind is found.
//
// changer says the line has a git command that may change the index
// (add, checkout, merge …) and several that it has more than one git
// command: a later one then finds as submodules what the first recorded
// (git add -A; git status runs git in a nested repository the add just
// took), and with submodule.recurse the changer itself goes into them, so
// the configuration of every repository nested in the project counts too.
func (g *Gate) gitRepoCode(network, changer, several bool) string {
	recurse := false
	if why := g.gitRepoCodeIn(filepath.Join(g.workdir, ".git"), g.workdir, network, 0, &recurse); why != "" {
		return why
	}
	if !changer || !several && !recurse {
		return ""
	}
	return g.nestedRepoCode(network)
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
var gitIndexChangers = map[string]bool{
	"add": true, "commit": true, "stash": true, "checkout": true, "switch": true, "restore": true,
	"reset": true, "merge": true, "pull": true, "rebase": true, "cherry-pick": true, "revert": true,
	"am": true, "apply": true, "mv": true, "rm": true,
}

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
				changer = changer || gitIndexChangers[arg]
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
	if common, ok := gitCommonDir(dir); !ok {
		return "git runs with a common directory (" + clip(filepath.Join(dir, "commondir")) + ") the gate cannot read, whose configuration may run commands"
	} else if common != "" {
		files = append(files, filepath.Join(common, "config"))
	}
	seen := map[string]bool{}
	var why string
	hashSize := 20
	var read func(f string, depth int)
	read = func(f string, depth int) {
		if why != "" || seen[f] || depth > maxGitIncludes {
			return
		}
		seen[f] = true
		entries, whole := gitConfigEntries(f)
		if !whole {
			why = "git reads " + clip(f) + ", a configuration the gate cannot read, which may run commands"
			return
		}
		for _, e := range entries {
			if e.key == "path" && (e.section == "include" || strings.HasPrefix(e.section, "includeif ") || strings.HasPrefix(e.section, "includeif.")) {
				v := e.value
				if strings.HasPrefix(v, "~/") && g.home != "" {
					v = filepath.Join(g.home, v[2:])
				} else if !filepath.IsAbs(v) {
					v = filepath.Join(filepath.Dir(f), v)
				}
				read(filepath.Clean(v), depth+1)
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
			if k, isPath := gitCodeKey(e, network); k != "" && (isPath && !g.gitPathInside(e, worktree) || !isPath && !gitHarmless(e, dir, worktree)) {
				why = "git runs with the repository's " + k + " = " + clip(e.value) + " (" + clip(f) + "), which may run a command or reach outside the project"
				return
			}
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	if why != "" {
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
		v = filepath.Join(sub, v)
	}
	return filepath.Clean(v), true
}

// maxGitIndexSize bounds the index gitlinks reads; a larger one asks.
const maxGitIndexSize = 256 << 20

// gitlinks returns the paths of the submodules (entries of mode 160000)
// that the git index file f lists, none when f does not exist. It reads
// index versions 2, 3 and 4 with object names of hashSize bytes, and fails
// on anything else, a split index (whose entries are in another file)
// among them.
func gitlinks(f string, hashSize int) ([]string, error) {
	b, err := readNoWait(f, maxGitIndexSize)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	bad := errors.New("index: not a format the gate reads")
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, bad
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, bad
	}
	n := binary.BigEndian.Uint32(b[8:12])
	var links []string
	var name []byte // the entry's path (version 4 makes it from the previous one)
	off := 12
	for i := uint32(0); i < n; i++ {
		start := off
		fixed := 40 + hashSize + 2
		if off+fixed > len(b) {
			return nil, bad
		}
		mode := binary.BigEndian.Uint32(b[off+24 : off+28])
		flags := binary.BigEndian.Uint16(b[off+40+hashSize : off+fixed])
		off += fixed
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > len(b) {
				return nil, bad
			}
			off += 2
		}
		if version == 4 {
			strip, k := binary.Uvarint(b[off:])
			if k <= 0 || strip > uint64(len(name)) {
				return nil, bad
			}
			off += k
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, bad
			}
			name = append(name[:len(name)-int(strip)], b[off:off+end]...)
			off += end + 1
		} else {
			end := bytes.IndexByte(b[off:], 0)
			if end < 0 {
				return nil, bad
			}
			name = b[off : off+end]
			off = start + (off-start+end+8)&^7
			if off > len(b) {
				return nil, bad
			}
		}
		if mode&0o170000 == 0o160000 {
			links = append(links, string(name))
		}
	}
	// Extensions follow, each a 4-byte signature and a 4-byte size, until
	// the trailing checksum.
	for off+8 <= len(b)-hashSize {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4 : off+8]))
		if sig == "link" {
			return nil, errors.New("index: a split index")
		}
		if size < 0 || off+8+size > len(b) {
			return nil, bad
		}
		off += 8 + size
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
		c = filepath.Join(dir, c)
	}
	return filepath.Clean(c), true
}

// gitCodeKey returns the name of e (section.key) when it is one of the
// configuration keys through which a repository makes git run a command or
// work on files outside it, and "" otherwise; path is set for a key whose
// value names a file or directory git reads or writes (see gitPathKeys).
// Keys are matched by their last part whatever the section's spelling
// ([diff "x"], [diff.x]), so that a header the gate reads otherwise than
// git still counts, and any key ending in "command" or "cmd" counts
// (tar.<format>.command, gpg.ssh.defaultKeyCommand); network adds the
// keys git only uses when it talks to a remote.
func gitCodeKey(e gitConfigEntry, network bool) (name string, path bool) {
	name = e.section + "." + e.key
	section, _, _ := strings.Cut(strings.ReplaceAll(e.section, ".", " "), " ")
	switch e.key {
	case "sshcommand", "askpass", "gitproxy", "helper", "uploadpack", "receivepack", "vcs",
		"insteadof", "pushinsteadof", "alternaterefscommand", "allow",
		"cookiefile", "sslkey", "sslcert", "sslcainfo", "sslcapath":
		if !network {
			return "", false
		}
		return name, strings.HasPrefix(e.key, "ssl") || e.key == "cookiefile"
	case "fsmonitor", "worktree", "textconv", "external", "clean", "smudge", "process", "driver",
		"program", "difffilter", "pager":
		return name, false
	}
	if gitPathKeys[e.key] || section == "mailmap" && e.key == "file" {
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
var gitPathKeys = map[string]bool{
	"template": true, "signaturefile": true, "outputdirectory": true, "ignorerevsfile": true,
	"orderfile": true, "excludesfile": true, "attributesfile": true, "allowedsignersfile": true,
	"revocationfile": true,
}

// gitHarmless reports whether e, a key gitCodeKey names, holds a value
// that runs nothing of the project's and stays in it: a boolean
// core.fsmonitor (git's own daemon), git-lfs's filters, a plain pager
// (less, more, cat, delta, bat, diff-so-fancy) with options only, a
// signing program (gpg, gpg2, gpgsm, ssh-keygen), a credential helper of
// git's or the system's keyring by name, or a core.worktree that is the
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
			v = filepath.Join(dir, v)
		}
		return filepath.Clean(v) == filepath.Clean(worktree)
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
// words) is ssh with options that run nothing else: no shell syntax (git
// runs the value through sh), no -F (a configuration file, which may hold a
// ProxyCommand) and no option that runs a command or reads one
// (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec, Include).
// `ssh -i ~/.ssh/work_key -o IdentitiesOnly=yes` is plain.
func gitPlainSSH(v string, words []string) bool {
	if words[0] != "ssh" && words[0] != "/usr/bin/ssh" {
		return false
	}
	if strings.ContainsAny(v, "$`'\"\\;&|<>()*?[]{}!#\n") {
		return false
	}
	for _, w := range words[1:] {
		l := strings.ToLower(w)
		if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "-o") && strings.ContainsRune(w, 'F') {
			return false
		}
		if strings.Contains(l, "command") || strings.Contains(l, "match") || strings.Contains(l, "include") {
			return false
		}
		if strings.Contains(w, "~") && !strings.HasPrefix(w, "~/") {
			return false
		}
	}
	return true
}

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
	v := e.value
	switch {
	case strings.HasPrefix(v, "~/") && g.home != "":
		v = filepath.Join(g.home, v[2:])
	case strings.HasPrefix(v, "~"):
		return false
	case !filepath.IsAbs(v):
		v = filepath.Join(worktree, v)
	}
	v = filepath.Clean(v)
	lk := g.lookups()
	return pathmatch.Within(v, worktree) && pathmatch.Within(lk.ResolveFrom(v, worktree), lk.ResolveFrom(worktree, worktree)) &&
		!g.namesSecret([]string{""}, v, false, true)
}
