package permission

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// maxGitConfigSize bounds a git configuration file hooksPathDirs reads;
// a larger one is not read.
const maxGitConfigSize = 1 << 20

// hooksPathDirs returns the directories git runs the hooks of the
// repository in workdir from when core.hooksPath names one (husky's
// .husky/_, a project's .githooks): the repository's .git/config, then
// the user's ($XDG_CONFIG_HOME/git/config or ~/.config/git/config, and
// ~/.gitconfig) and the system's (/etc/gitconfig). Writing there is
// writing the repository's hooks, as writing .git/hooks is. A relative
// path is relative to the worktree's top (the workdir), ~/ to home. Every
// value found is returned, not only the one git would use: a line may
// run git with another configuration than the gate sees. Included files
// (include.path, includeIf) are not followed.
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
	for _, f := range files {
		for _, v := range gitConfigValues(f, "core", "hookspath") {
			switch {
			case strings.HasPrefix(v, "~/") && home != "":
				v = filepath.Join(home, v[2:])
			case !filepath.IsAbs(v):
				v = filepath.Join(workdir, v)
			}
			dirs = append(dirs, filepath.Clean(v))
		}
	}
	return dirs
}

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

// gitConfigValues reads the values of key (lower case) in the sections
// named section (lower case, no subsection) of the git configuration file
// f, as git's parser reads the common forms: [section] headers (a key may
// follow on the same line), key = value lines, # and ; comments, double
// quotes around a value or part of it. A file that cannot be read gives
// none.
func gitConfigValues(f, section, key string) []string {
	info, err := os.Stat(f)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxGitConfigSize {
		return nil
	}
	b, err := os.ReadFile(f)
	if err != nil {
		return nil
	}
	var vals []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), maxGitConfigSize)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				in = false
				continue
			}
			name := strings.ToLower(strings.TrimSpace(line[1:end]))
			in = name == section
			line = strings.TrimSpace(line[end+1:])
		}
		if !in || line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.ToLower(strings.TrimSpace(k)) != key {
			continue
		}
		if v = gitConfigValue(v); v != "" {
			vals = append(vals, v)
		}
	}
	return vals
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
