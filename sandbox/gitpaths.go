package sandbox

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"time"
)

// gitConfigTimeout bounds each "git config" that gitCodePaths runs.
const gitConfigTimeout = 5 * time.Second

// maxGitConfigFiles bounds the configuration files gitCodePaths reads.
const maxGitConfigFiles = 64

// gitCodePaths returns what, beside storage.ProjectPaths.ProtectedPaths,
// makes git outside the sandbox run code when a sandboxed command changes
// it, in the repository whose git directory is gitDir (wd/.git) and whose
// worktree is wd:
//
//   - the directory core.hooksPath names (husky's .husky/_; a relative
//     one in the user's or the system's configuration, wherever
//     GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM put it, or in the settings
//     GIT_CONFIG_COUNT and GIT_CONFIG_PARAMETERS give, too), and every
//     file include.path and includeIf.*.path name, followed from file to
//     file, whatever their conditions; files go to files, directories to
//     dirs;
//   - the workdir paths named by the commands git runs by itself
//     (codeKeys: core.fsmonitor, textconv, filters …; see commandPaths);
//   - the existing .git/worktrees, whose NAME/commondir and
//     NAME/config.worktree choose the configuration of the linked
//     worktrees;
//   - in each git directory below .git/modules (submodules, nested ones
//     too), its config, hooks, worktrees, and its commondir and
//     config.worktree where they exist, and what its configuration names as
//     above; and the .git of its worktree (core.worktree), the file that
//     names it;
//   - in .git and each of those, a missing commondir, and a missing
//     config.worktree where extensions.worktreeConfig is set, as files
//     (created before the command: see [Options.ReadOnlyFiles]).
//
// It also returns the relative core.hooksPath of the user's, the
// system's and the environment's configuration (everyWorktree), which
// names a directory of every worktree, nested repositories' included.
//
// It reads the configuration with the git program found in PATH; without
// one there is nothing of git's to run.
func gitCodePaths(wd, gitDir, userHome string) (dirs, files, everyWorktree []string) {
	fi, err := os.Stat(gitDir)
	if err != nil || !fi.IsDir() {
		return nil, nil, nil
	}
	git, _ := exec.LookPath("git")
	seen := map[string]bool{}
	// readConfig reads file, whose relative core.hooksPath names a
	// directory of worktree ("": of every worktree).
	var readConfig func(file, worktree string)
	readConfig = func(file, worktree string) {
		if git == "" || seen[file] || len(seen) >= maxGitConfigFiles {
			return
		}
		seen[file] = true
		for _, kv := range gitConfigPaths(git, file) {
			key, value := kv[0], kv[1]
			if key == "code" {
				wt := worktree
				if wt == "" {
					wt = wd
				}
				d, f := commandPaths(value, wt)
				dirs, files = append(dirs, d...), append(files, f...)
				continue
			}
			p, ok := gitPath(value, userHome)
			if !ok {
				continue
			}
			if key == "core.hookspath" {
				if !filepath.IsAbs(p) && worktree == "" {
					everyWorktree = append(everyWorktree, p)
					continue
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(worktree, p)
				}
				dirs = append(dirs, filepath.Clean(p))
				continue
			}
			if !filepath.IsAbs(p) {
				if file == "" {
					continue // git refuses a relative include the environment gives
				}
				p = filepath.Join(filepath.Dir(file), p)
			}
			p = filepath.Clean(p)
			files = append(files, p)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				readConfig(p, worktree)
			}
		}
	}
	var gitDirConfig func(dir, worktree string, top bool)
	gitDirConfig = func(dir, worktree string, top bool) {
		for _, rel := range everyWorktree {
			dirs = append(dirs, filepath.Join(worktree, rel))
		}
		for _, name := range []string{"config", "config.worktree"} {
			if p := filepath.Join(dir, name); exists(p) {
				readConfig(p, worktree)
			}
		}
		if p := filepath.Join(dir, "worktrees"); exists(p) {
			dirs = append(dirs, p)
		}
		if !top {
			dirs = append(dirs, filepath.Join(dir, "config"), filepath.Join(dir, "hooks"))
			for _, name := range []string{"commondir", "config.worktree"} {
				if p := filepath.Join(dir, name); exists(p) {
					dirs = append(dirs, p)
				}
			}
		}
		// A missing commondir, created, would make git read the
		// configuration of the directory it names; a missing
		// config.worktree is read once extensions.worktreeConfig is set.
		if exists(filepath.Join(dir, "HEAD")) {
			if p := filepath.Join(dir, "commondir"); !exists(p) {
				files = append(files, p)
			}
			if p := filepath.Join(dir, "config.worktree"); !exists(p) && git != "" &&
				gitConfigValue(git, filepath.Join(dir, "config"), "extensions.worktreeconfig", "--type=bool") == "true" {
				files = append(files, p)
			}
		}
		modules := filepath.Join(dir, "modules")
		subs := gitDirsBelow(modules)
		if len(subs) > maxGitConfigFiles {
			// More than the reader reads (a command may have made
			// thousands, each costing git config runs and mounts):
			// keep them all read-only instead, with the .git file of a
			// submodule checked out where its name says (the default),
			// which could be replaced by a repository of the command's.
			dirs = append(dirs, modules)
			for _, sub := range subs {
				rel, err := filepath.Rel(modules, sub)
				if err != nil {
					continue
				}
				if fi, err := os.Lstat(filepath.Join(worktree, rel, ".git")); err == nil && fi.Mode().IsRegular() {
					dirs = append(dirs, filepath.Join(worktree, rel, ".git"))
				}
			}
			subs = nil
		}
		for _, sub := range subs {
			wt := worktree
			if git != "" {
				if v := gitConfigValue(git, filepath.Join(sub, "config"), "core.worktree"); v != "" {
					if !filepath.IsAbs(v) {
						v = filepath.Join(sub, v)
					}
					wt = filepath.Clean(v)
					// The checked-out submodule's .git names this git
					// directory: replaced by a repository of the
					// command's, it would be what git runs there.
					dirs = append(dirs, filepath.Join(wt, ".git"))
				}
			}
			gitDirConfig(sub, wt, false)
		}
	}
	// A relative core.hooksPath in the user's or the system's
	// configuration, or in the settings the environment gives
	// (GIT_CONFIG_COUNT, GIT_CONFIG_PARAMETERS), names a directory of
	// every worktree, submodules' included. They are read first, so
	// that git directories a command made in .git/modules cannot use up
	// the budget before them.
	xdg := os.Getenv("XDG_CONFIG_HOME")
	if xdg == "" && userHome != "" {
		xdg = filepath.Join(userHome, ".config")
	}
	for _, f := range []string{filepath.Join(userHome, ".gitconfig"), filepath.Join(xdg, "git", "config"), "/etc/gitconfig",
		os.Getenv("GIT_CONFIG_GLOBAL"), os.Getenv("GIT_CONFIG_SYSTEM")} {
		if filepath.IsAbs(f) && exists(f) {
			readConfig(f, "")
		}
	}
	if git != "" {
		readConfig("", "")
	}
	gitDirConfig(gitDir, wd, true)
	return dirs, files, everyWorktree
}

// gitDirsBelow returns the git directories (those holding a HEAD) below
// dir, not looking inside one it found: a submodule's name may hold slashes.
func gitDirsBelow(dir string) []string {
	var out []string
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if exists(filepath.Join(p, "HEAD")) {
			out = append(out, p)
		} else if len(out) < maxGitConfigFiles {
			out = append(out, gitDirsBelow(p)...)
		}
	}
	return out
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// gitPath expands a path-valued git setting as git does: ~/ is the user's
// home, ~NAME/ the home of the user NAME (the current one's too); %(prefix)/
// (git's installation) is outside any project. A ~NAME that names no
// user git cannot expand either.
func gitPath(v, userHome string) (string, bool) {
	switch {
	case v == "" || strings.HasPrefix(v, "%(prefix)/"):
		return "", false
	case v == "~" || strings.HasPrefix(v, "~/"):
		if userHome == "" {
			return "", false
		}
		return filepath.Join(userHome, v[1:]), true
	case strings.HasPrefix(v, "~"):
		name, rest, _ := strings.Cut(v[1:], "/")
		u, err := user.Lookup(name)
		if err != nil || u.HomeDir == "" {
			return "", false
		}
		return filepath.Join(u.HomeDir, rest), true
	}
	return v, true
}

// codeKeys matches the settings whose values are commands git runs by
// itself, at status, diff, checkout, commit, fetch or push, and whose
// programs may lie in the workdir.
const codeKeys = `core\.(fsmonitor|sshcommand|editor|pager|askpass)|sequence\.editor|pager\..*|diff\.external|` +
	`diff\..*\.(textconv|command)|filter\..*\.(clean|smudge|process)|merge\..*\.driver|credential\.(.*\.)?helper|` +
	`gpg\.(.*\.)?program|interactive\.difftool|(diff|merge)tool\..*\.cmd`

// gitConfigPaths returns the (lowercase key, value) pairs of file's
// core.hooksPath, include.path and includeIf.*.path settings, as git
// parses them, and, under the key "code", the commands of codeKeys;
// file "" means the settings the environment gives.
func gitConfigPaths(git, file string) [][2]string {
	out, err := gitConfig(git, file, "--get-regexp", `^(core\.hookspath|include\.path|includeif\..*\.path|`+codeKeys+`)$`)
	if err != nil {
		return nil
	}
	var kvs [][2]string
	for _, rec := range bytes.Split(out, []byte{0}) {
		k, v, ok := bytes.Cut(rec, []byte{'\n'})
		if !ok {
			continue
		}
		key := strings.ToLower(string(k))
		switch {
		case strings.HasPrefix(key, "includeif."):
			key = "include.path"
		case key != "core.hookspath" && key != "include.path":
			key = "code"
		}
		kvs = append(kvs, [2]string{key, string(v)})
	}
	return kvs
}

// gitConfigValue returns the last value of key in file, or "".
func gitConfigValue(git, file, key string, opts ...string) string {
	out, err := gitConfig(git, file, append(opts, "--get", key)...)
	if err != nil {
		return ""
	}
	return string(bytes.TrimSuffix(out, []byte{0}))
}

// gitConfig runs git config on file alone: no includes, no system or
// global files, from / so that no repository around is read. file ""
// means the settings of the environment alone (GIT_CONFIG_COUNT and its
// GIT_CONFIG_KEY_n and GIT_CONFIG_VALUE_n, GIT_CONFIG_PARAMETERS).
//
// A file that is not a regular one (a named pipe a command left, which
// would hold git config until the timeout) is not read.
func gitConfig(git, file string, args ...string) ([]byte, error) {
	if file != "" {
		if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
			return nil, fs.ErrInvalid
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitConfigTimeout)
	defer cancel()
	opts := []string{"config", "--null", "--no-includes"}
	if file != "" {
		opts = append(opts, "--file", file)
	}
	cmd := exec.CommandContext(ctx, git, append(opts, args...)...)
	cmd.Dir = "/"
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GIT_") || (file == "" && strings.HasPrefix(e, "GIT_CONFIG_") &&
			!strings.HasPrefix(e, "GIT_CONFIG_GLOBAL=") && !strings.HasPrefix(e, "GIT_CONFIG_SYSTEM=") &&
			!strings.HasPrefix(e, "GIT_CONFIG_NOSYSTEM=")) {
			env = append(env, e)
		}
	}
	cmd.Env = append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES=/")
	return cmd.Output()
}

// bareGuard returns wd/HEAD when wd/.git is not a git directory (the
// project has no repository, or the empty .git the sandbox leaves as a
// mount point): git, finding no repository in .git, takes a directory
// holding HEAD, objects/ and refs/ for one itself, and runs what its
// config names. Without HEAD it is none. A missing HEAD is covered by an
// empty read-only file, which the first command leaves behind.
func bareGuard(wd string) []string {
	if exists(filepath.Join(wd, ".git", "HEAD")) {
		return nil
	}
	if fi, err := os.Lstat(filepath.Join(wd, ".git")); err == nil && !fi.IsDir() {
		return nil // a gitdir: file, or a link: the plan keeps the workdir read-only
	}
	return []string{filepath.Join(wd, "HEAD")}
}

// commandPaths returns the paths of worktree that command, a command git
// runs from the top of worktree through the shell, may run or read: each
// word that names an existing path there (not the worktree itself), and each relative path (a word
// holding a slash) that does not exist yet, which a command could create
// (a file right under worktree as a file, see [Options.ReadOnlyFiles];
// deeper, by its path, whose nearest existing directory then stays
// read-only). Words are split at blanks and the shell's operators, with
// quotes and a leading "!" dropped.
func commandPaths(command, worktree string) (dirs, files []string) {
	words := strings.FieldsFunc(command, func(r rune) bool {
		return strings.ContainsRune(" \t\n;|&()<>`'\"", r)
	})
	for _, w := range words {
		w = strings.TrimPrefix(w, "!")
		if w == "" || strings.HasPrefix(w, "-") || strings.ContainsAny(w, "$%*?[=") {
			continue
		}
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(worktree, w)
		}
		p = filepath.Clean(p)
		switch {
		case within(worktree, p):
			// the worktree itself (".") or a directory above it
		case exists(p):
			dirs = append(dirs, p)
		case !strings.Contains(w, "/"):
			// a program found in PATH, or an argument that is no file
		case filepath.Dir(p) == worktree:
			files = append(files, p)
		default:
			dirs = append(dirs, p)
		}
	}
	return dirs, files
}
