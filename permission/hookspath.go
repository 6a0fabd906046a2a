package permission

import (
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
// file f as git's parser (config.c) reads them, byte by byte: [section],
// [section "subsection"] (a backslash escapes the next byte, a "]" inside
// the quotes is the subsection's) and [section.subsection] headers, a key
// on the header's line, # and ; comments to the end of the line (a
// backslash there continues nothing), double quotes, the escapes \t, \n,
// \b, \\ and \", a backslash continuing the value on the next line, CR LF
// line ends and a leading byte order mark. As git does, the name a NUL
// byte cuts short is the name up to it ([core "fsmonitor\0"] x = … sets
// core.fsmonitor), and so is a value. A file that does not exist gives
// none; whole is false when f exists but cannot be read fully (not a
// regular file, unreadable, or larger than maxGitConfigSize) or is not
// one git reads (a syntax error, on which git stops).
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

// parseGitConfig is gitConfigEntries for the contents b of a file.
func parseGitConfig(b []byte) (entries []gitConfigEntry, ok bool) {
	const bom = "\xef\xbb\xbf"
	if len(b) > 0 && b[0] == bom[0] {
		if !bytes.HasPrefix(b, []byte(bom)) {
			return entries, false // git takes no part of one
		}
		b = b[len(bom):]
	}
	r := &gitConfigReader{b: b}
	base := ""
	comment := false
	for {
		c := r.next()
		switch {
		case c == '\n':
			if r.eof {
				return entries, true
			}
			comment = false
			continue
		case comment || gitSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			name, ok := r.header()
			if !ok || name == "" {
				return entries, false
			}
			base = name
			continue
		case !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
			return entries, false
		}
		key, value, ok := r.entry(c)
		if !ok {
			return entries, false
		}
		if e, ok := gitEntry(base+"."+key, value); ok {
			entries = append(entries, e)
		}
	}
}

// gitEntry makes the entry of the variable name (section, subsection
// and key joined by dots, as git's callbacks see it) with value, cut at a
// NUL byte as git's C strings are; ok is false for a name with no
// section or key, and for an empty value.
func gitEntry(name, value string) (e gitConfigEntry, ok bool) {
	name, _, _ = strings.Cut(name, "\x00")
	value, _, _ = strings.Cut(value, "\x00")
	first, last := strings.IndexByte(name, '.'), strings.LastIndexByte(name, '.')
	if first <= 0 || last == len(name)-1 || value == "" {
		return e, false
	}
	e = gitConfigEntry{section: strings.ToLower(name[:first]), key: strings.ToLower(name[last+1:]), value: value}
	if last > first {
		e.section += " " + name[first+1:last]
	}
	return e, true
}

// gitConfigReader hands out the bytes of a git configuration file as
// git's get_next_char does: CR LF is LF, and the end of the file is an LF
// with eof set.
type gitConfigReader struct {
	b   []byte
	i   int
	eof bool
}

// next returns the next byte.
func (r *gitConfigReader) next() byte {
	if r.i >= len(r.b) {
		r.eof = true
		return '\n'
	}
	c := r.b[r.i]
	r.i++
	if c == '\r' && r.i < len(r.b) && r.b[r.i] == '\n' {
		r.i++
		return '\n'
	}
	return c
}

// header reads a section header after its "[", as git's get_base_var
// and get_extended_base_var do: the lower-cased name, then a dot and the
// subsection as written when there is one.
func (r *gitConfigReader) header() (string, bool) {
	var name []byte
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", false
		case c == ']':
			return string(name), true
		case gitSpace(c):
			for gitSpace(c) {
				if c == '\n' {
					return "", false
				}
				c = r.next()
			}
			if c != '"' {
				return "", false
			}
			name = append(name, '.')
			for {
				c := r.next()
				if c == '\n' {
					return "", false
				}
				if c == '"' {
					break
				}
				if c == '\\' {
					if c = r.next(); c == '\n' {
						return "", false
					}
				}
				name = append(name, c)
			}
			return string(name), r.next() == ']'
		case !gitKeyChar(c) && c != '.':
			return "", false
		}
		name = append(name, gitLower(c))
	}
}

// entry reads a key, whose first byte is first, and its value, as git's
// get_value and parse_value do: a key with no "=" is true.
func (r *gitConfigReader) entry(first byte) (key, value string, ok bool) {
	name := []byte{gitLower(first)}
	c := r.next()
	for !r.eof && gitKeyChar(c) {
		name = append(name, gitLower(c))
		c = r.next()
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	if c == '\n' {
		return string(name), "true", true
	}
	if c != '=' {
		return "", "", false
	}
	var v []byte
	quote, comment, space := false, false, 0
	for {
		c := r.next()
		switch {
		case c == '\n':
			return string(name), string(v), !quote
		case comment:
			continue
		case gitSpace(c) && !quote:
			if len(v) > 0 {
				space++
			}
			continue
		case !quote && (c == '#' || c == ';'):
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		switch c {
		case '\\':
			switch c = r.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", "", false
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// gitSpace reports whether c is white space to git (its isspace).
func gitSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// gitKeyChar reports whether c may be part of a git key or section name.
func gitKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
}

// gitLower is c in lower case, for an ASCII letter.
func gitLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
