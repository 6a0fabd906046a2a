package permission

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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
// configuration as .git/config is (core.fsmonitor, core.hooksPath). It
// reads the repository's .git/config, the user's ($XDG_CONFIG_HOME/git/config
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
	files := []string{filepath.Join(workdir, ".git", "config"), "/etc/gitconfig"}
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
	var dirs []string
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
				v = filepath.Join(home, v[2:])
			}
			switch {
			case e.section == "core" && e.key == "hookspath":
				if !filepath.IsAbs(v) {
					v = filepath.Join(workdir, v)
				}
				dirs = append(dirs, filepath.Clean(v))
			case e.key == "path" && (e.section == "include" || strings.HasPrefix(e.section, "includeif ")):
				if !filepath.IsAbs(v) {
					v = filepath.Join(filepath.Dir(f), v)
				}
				v = filepath.Clean(v)
				dirs = append(dirs, v)
				read(v, depth+1)
			}
		}
	}
	for _, f := range files {
		read(f, 0)
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
// space as written (includeif "gitdir:~/w/"); key is lower case.
type gitConfigEntry struct {
	section, key, value string
}

// gitConfigEntries reads the key = value lines of the git configuration
// file f as git's parser reads the common forms: [section] and
// [section "subsection"] headers (a key may follow on the same line), #
// and ; comments, double quotes around a value or part of it, a value
// continued by a backslash at the end of its line, a leading byte order
// mark. A file that does not exist gives none; whole is false when f
// exists but cannot be read fully (not a regular file, unreadable, or
// larger than maxGitConfigSize).
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
	section := ""
	// git skips a UTF-8 byte order mark at the start.
	sc := bufio.NewScanner(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
	sc.Buffer(make([]byte, 0, 64*1024), maxGitConfigSize)
	for sc.Scan() {
		raw := sc.Text()
		// A backslash at the end of a line continues the value on the next.
		for oddTrailingBackslashes(raw) && sc.Scan() {
			raw = raw[:len(raw)-1] + sc.Text()
		}
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				section = ""
				continue
			}
			name, sub, hasSub := strings.Cut(strings.TrimSpace(line[1:end]), " ")
			section = strings.ToLower(name)
			if hasSub {
				section += " " + strings.TrimSpace(sub)
			}
			line = strings.TrimSpace(line[end+1:])
		}
		if section == "" || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		if v = gitConfigValue(v); v != "" {
			entries = append(entries, gitConfigEntry{section: section, key: strings.ToLower(strings.TrimSpace(k)), value: v})
		}
	}
	return entries, true
}

// oddTrailingBackslashes reports whether line ends with an odd number of
// backslashes: its last one escapes the end of the line.
func oddTrailingBackslashes(line string) bool {
	n := len(line) - len(strings.TrimRight(line, "\\"))
	return n%2 == 1
}

// gitConfigValue unquotes a git configuration value: text outside double
// quotes is trimmed and ends at # or ;, \" and \\ are escapes.
func gitConfigValue(v string) string {
	var out strings.Builder
	quoted := false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '\\' && i+1 < len(v):
			i++
			out.WriteByte(v[i])
		case c == '"':
			quoted = !quoted
		case !quoted && (c == '#' || c == ';'):
			return strings.TrimSpace(out.String())
		default:
			out.WriteByte(c)
		}
	}
	return strings.TrimSpace(out.String())
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
