package permission

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// gitRepoCode says why a git command of the line (subcommand sub) makes it
// opaque because of the repository's own configuration: a copied
// repository (an archive, a directory handed over, one the agent did not
// clone) may carry a .git/config whose core.fsmonitor, filter, diff
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
// count for fetch, pull, push and remote only. Hooks stay the project's
// code, as a Makefile is: the gate protects them from the line's writes.
// It returns "" when nothing of the kind is found.
func (g *Gate) gitRepoCode(sub string) string {
	network := false
	switch sub {
	case "fetch", "pull", "push", "remote":
		network = true
	}
	dir := filepath.Join(g.workdir, ".git")
	files := []string{filepath.Join(dir, "config"), filepath.Join(dir, "config.worktree")}
	if common, ok := gitCommonDir(dir); !ok {
		return "git runs with a common directory (.git/commondir) the gate cannot read, whose configuration may run commands"
	} else if common != "" {
		files = append(files, filepath.Join(common, "config"))
	}
	seen := map[string]bool{}
	var why string
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
			if k := gitCodeKey(e, network); k != "" && !g.gitHarmless(e, dir) {
				why = "git runs with the repository's " + k + " = " + clip(e.value) + " (" + clip(f) + "), which may run a command or reach outside the project"
				return
			}
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	return why
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
// work on files outside it, and "" otherwise. Keys are matched by their
// last part whatever the section's spelling ([diff "x"], [diff.x]), so
// that a header the gate reads otherwise than git still counts; network
// adds the keys git only uses when it talks to a remote.
func gitCodeKey(e gitConfigEntry, network bool) string {
	name := e.section + "." + e.key
	section, _, _ := strings.Cut(strings.ReplaceAll(e.section, ".", " "), " ")
	switch e.key {
	case "fsmonitor", "worktree", "textconv", "external", "clean", "smudge", "process", "driver",
		"program", "difffilter", "pager", "command":
		return name
	case "sshcommand", "askpass", "gitproxy", "helper", "uploadpack", "receivepack", "vcs",
		"insteadof", "pushinsteadof", "alternaterefscommand", "allow":
		if network {
			return name
		}
	}
	if section == "pager" {
		return name
	}
	return ""
}

// gitHarmless reports whether e, a key gitCodeKey names, holds a value
// that runs nothing of the project's and stays in it: a boolean
// core.fsmonitor (git's own daemon), git-lfs's filters, a plain pager
// (less, more, cat, delta, bat, diff-so-fancy) with options only, a
// signing program (gpg, gpg2, gpgsm, ssh-keygen), a credential helper of
// git's or the system's keyring by name, or a core.worktree that is the
// workdir itself. dir is the .git directory, to which a relative worktree
// is relative.
func (g *Gate) gitHarmless(e gitConfigEntry, dir string) bool {
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
		return filepath.Clean(v) == filepath.Clean(g.workdir)
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
