package permission

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/lite-agent/lite-agent-go/internal/gitconfig"
)

// maxGitConfigSize bounds a git configuration file hooksPathDirs reads;
// a larger one is not read.
const maxGitConfigSize = 1 << 20

// hooksPathDirs returns what in the workdir makes the repository there
// run code later, beside .git/hooks and .git/config, by its git
// configuration: the directories core.hooksPath names (husky's .husky/_,
// a project's .githooks), where git runs the hooks from, and the files
// include.path and includeIf.*.path name (git config include.path
// ../.gitconfig, which projects use to share their settings), which are
// configuration as .git/config is (core.fsmonitor, core.hooksPath), and
// the configuration of the common directory .git/commondir names. It
// reads the repository's .git/config, config.worktree, the common
// directory's config, the user's ($XDG_CONFIG_HOME/git/config
// or ~/.config/git/config, and ~/.gitconfig) and the system's
// (/etc/gitconfig), and the files they include, to a depth of
// maxGitIncludes. A relative hooksPath is relative to the worktree's top
// (the workdir), a relative include to the directory of the file that
// includes it, ~/ to home. Every value found is returned, not only the
// one git would use: a line may run git with another configuration than
// the gate sees.
func hooksPathDirs(workdir, home string, env []string) []string {
	if workdir == "" {
		return nil
	}
	files := []string{filepath.Join(workdir, ".git", "config"), filepath.Join(workdir, ".git", "config.worktree"), "/etc/gitconfig"}
	var dirs []string
	// The common directory's configuration, which git reads instead of
	// .git/config: a copied repository's .git/commondir may name one in
	// the project, whose config a line could write before its git
	// command.
	if common, _ := gitCommonDir(filepath.Join(workdir, ".git")); common != "" {
		files = append(files, filepath.Join(common, "config"))
		dirs = append(dirs, filepath.Join(common, "config"), filepath.Join(common, "config.worktree"))
	}
	xdg := envValue(env, "XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if filepath.IsAbs(xdg) {
		files = append(files, filepath.Join(xdg, "git", "config"))
	}
	if home != "" {
		files = append(files, filepath.Join(home, ".gitconfig"))
	}
	seen := map[string]bool{}
	var read func(f string, depth int)
	read = func(f string, depth int) {
		if seen[f] || depth > maxGitIncludes {
			return
		}
		seen[f] = true
		entries, whole := gitConfigEntries(f)
		if !whole {
			// git reads what the gate cannot: its hooksPath may name
			// any directory of the workdir.
			dirs = append(dirs, filepath.Clean(workdir))
		}
		for _, e := range entries {
			v := e.value
			if strings.HasPrefix(v, "~/") && home != "" {
				v = home + v[1:]
			}
			// git joins a relative path to its directory as strings
			// and the kernel takes a ".." after a link beside the
			// link's target: the path as cleaned and as the kernel
			// finds it both count.
			switch {
			case e.section == "core" && e.key == "hookspath":
				if !filepath.IsAbs(v) {
					v = workdir + "/" + v
				}
				dirs = appendPhysical(dirs, v)
			case e.key == "path" && (e.section == "include" || strings.HasPrefix(e.section, "includeif ")):
				if !filepath.IsAbs(v) {
					v = f[:strings.LastIndexByte(f, '/')+1] + v
				}
				if gitOddPath(v) {
					// Through /proc git finds what the gate cannot.
					dirs = append(dirs, filepath.Clean(workdir))
					continue
				}
				dirs = appendPhysical(dirs, v)
				read(v, depth+1)
			}
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	return dirs
}

// appendPhysical appends the path p to dirs cleaned and, when it is
// another, as its links lead (see physical).
func appendPhysical(dirs []string, p string) []string {
	dirs = append(dirs, filepath.Clean(p))
	if r, _ := physical(p); r != "" && r != filepath.Clean(p) {
		dirs = append(dirs, r)
	}
	return dirs
}

// maxGitIncludes is how deep hooksPathDirs follows included files, as
// git does.
const maxGitIncludes = 10

// envValue is the value of the variable name in env ("KEY=value"
// entries; the gate process's own when env is nil), or "".
func envValue(env []string, name string) string {
	if env == nil {
		return os.Getenv(name)
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == name {
			return v
		}
	}
	return ""
}

// A gitConfigEntry is a key = value line of a git configuration file:
// section is the lower-cased section name, with its subsection after a
// space (includeif gitdir:~/w/, diff x); key is lower case. A key with
// no "=" (git's true) has the value "true".
type gitConfigEntry struct {
	section, key, value string
}

// gitConfigEntries reads the key = value lines of the git configuration
// file f as git reads them (see internal/gitconfig). A file that does not
// exist gives none; whole is false when f exists but cannot be read fully
// (not a regular file, unreadable, or larger than maxGitConfigSize) or is
// not one the gate understands as git does (a syntax error, on which git
// stops, or a value git versions read differently).
func gitConfigEntries(f string) (entries []gitConfigEntry, whole bool) {
	info, err := os.Stat(f)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return nil, true // git passes over a missing file too
	}
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxGitConfigSize {
		return nil, false
	}
	b, err := readNoWait(f, maxGitConfigSize) // it may have become a FIFO since
	if err != nil {
		return nil, false
	}
	return parseGitConfig(b)
}

// parseGitConfig is gitConfigEntries for the contents b of a file: the
// entries before the first line the gate does not understand, with ok
// false when there is one. An entry whose name has no section or no key,
// and one with an empty value, are left out.
func parseGitConfig(b []byte) (entries []gitConfigEntry, ok bool) {
	all, err := gitconfig.Parse(b)
	for _, e := range all {
		value := e.Value
		if e.NoValue {
			value = "true"
		}
		section, key := e.Section(), e.Key()
		if section == "" || key == "" || value == "" {
			continue
		}
		if sub := e.Subsection(); sub != "" || strings.Count(e.Name, ".") > 1 {
			section += " " + sub
		}
		entries = append(entries, gitConfigEntry{section: section, key: key, value: value})
	}
	return entries, err == nil
}

// hooksPathProtected returns, when the gate protects the workdir's
// .git/hooks, the other hooks directories of the repository (see
// hooksPathDirs): they run code later as much as .git/hooks does.
func (g *Gate) hooksPathProtected() []string {
	if g.workdir == "" || !slices.Contains(g.protected, filepath.Join(g.workdir, ".git", "hooks")) {
		return nil
	}
	var env []string
	if g.opts.BashEnv != nil {
		env = g.opts.BashEnv()
	}
	return hooksPathDirs(g.workdir, g.home, env)
}
