package shellscan

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// cwdFlow finds, for the simple commands of a line's top level, the
// working directories each may run in, which bashAnalysis.cwds, the
// directories of every cd of the line, over-approximates: in cd sub &&
// gcc -I.. -c ../x.c, gcc runs in sub only, and its ".." is the project.
// It follows cd and pushd with a plain operand through lists, &&, || (a
// cd that fails leaves the directory as it was and skips what && joins),
// pipelines, subshells and groups (whose cd ends with them), and exit;
// any other construct or command that may change the directory (popd,
// source, eval, builtin, command, set, shopt, trap …) ends what it knows,
// and the commands after it keep the line's candidates.
type cwdFlow struct {
	at map[*syntax.CallExpr][]string
}

// cwdUnreachable is the directory set of a path no command takes (after
// exit).
var cwdUnreachable = []string{}

// newCwdFlow follows the statements of f from the starting directory "".
func newCwdFlow(f *syntax.File) *cwdFlow {
	fl := &cwdFlow{at: map[*syntax.CallExpr][]string{}}
	fl.list(f.Stmts, []string{""})
	return fl
}

// cwdsOf returns the directories the command c may run in, and whether
// the flow knows them.
func (fl *cwdFlow) cwdsOf(c *syntax.CallExpr) ([]string, bool) {
	if fl == nil {
		return nil, false
	}
	d, ok := fl.at[c]
	return d, ok
}

// cwdUnion is the directories of a and b; nil (unknown) if either is, or
// if they are more than maxCwds.
func cwdUnion(a, b []string) []string {
	if a == nil || b == nil || len(a)+len(b) > maxCwds {
		return nil
	}
	out := slices.Clone(a)
	for _, d := range b {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// list follows statements run one after another from the directories in;
// it returns the directories after the last one succeeds and after it
// fails.
func (fl *cwdFlow) list(stmts []*syntax.Stmt, in []string) (ok, failed []string) {
	ok, failed = in, in
	for i, s := range stmts {
		if i > 0 {
			in = cwdUnion(ok, failed)
		}
		ok, failed = fl.stmt(s, in)
	}
	return ok, failed
}

// stmt follows one statement from the directories in.
func (fl *cwdFlow) stmt(s *syntax.Stmt, in []string) (ok, failed []string) {
	if in == nil || s == nil {
		return nil, nil
	}
	if s.Background {
		fl.cmd(s.Cmd, in) // in a subshell of its own
		return in, in
	}
	ok, failed = fl.cmd(s.Cmd, in)
	if s.Negated {
		ok, failed = failed, ok
	}
	return ok, failed
}

// cmd follows one command from the directories in.
func (fl *cwdFlow) cmd(c syntax.Command, in []string) (ok, failed []string) {
	switch c := c.(type) {
	case *syntax.CallExpr:
		fl.at[c] = in
		return fl.call(c, in)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			xok, xfailed := fl.stmt(c.X, in)
			yok, yfailed := fl.stmt(c.Y, xok)
			return yok, cwdUnion(xfailed, yfailed)
		case syntax.OrStmt:
			xok, xfailed := fl.stmt(c.X, in)
			yok, yfailed := fl.stmt(c.Y, xfailed)
			return cwdUnion(xok, yok), yfailed
		case syntax.Pipe, syntax.PipeAll:
			// Each part runs in a subshell of its own.
			fl.stmt(c.X, in)
			fl.stmt(c.Y, in)
			return in, in
		}
	case *syntax.Subshell:
		fl.list(c.Stmts, in)
		return in, in
	case *syntax.Block:
		return fl.list(c.Stmts, in)
	}
	return nil, nil
}

// cwdChangers are the commands, other than cd and pushd, that may change
// the shell's directory or how its cd and later commands work.
var cwdChangers = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"popd", "source", ".", "eval", "builtin", "command", "exec", "trap", "set",
		"shopt", "enable", "alias", "unalias", "declare", "typeset", "export", "local", "readonly", "unset",
		"let", "read", "mapfile", "readarray", "coproc", "time", "caller", "fc", "history", "bind", "hash"} {
		m[n] = true
	}
	return m
}}

// call follows a simple command from the directories in.
func (fl *cwdFlow) call(c *syntax.CallExpr, in []string) (ok, failed []string) {
	if len(c.Args) == 0 {
		return in, in
	}
	name := c.Args[0].Lit()
	switch {
	case name == "" || strings.ContainsAny(name, `\'"$`) || cwdChangers.get()[name]:
		return nil, nil
	case name == "exit":
		return cwdUnreachable, cwdUnreachable
	case name != "cd" && name != "pushd":
		return in, in
	}
	if len(c.Args) != 2 || len(c.Assigns) > 0 {
		return nil, nil
	}
	dir := c.Args[1].Lit()
	if dir == "" || strings.ContainsAny(dir, "\\*?[~{}") || strings.HasPrefix(dir, "-") || strings.HasPrefix(dir, "+") ||
		throughProcess(dir) {
		return nil, nil
	}
	if len(in) > maxCwds {
		return nil, nil
	}
	var next []string
	for _, c := range in {
		d := dir
		if !path.IsAbs(d) && c != "" {
			d = c + "/" + d
		}
		if stepsBackAfterName(d) {
			// bash's cd takes a/.. as its text says only when that
			// names a directory; otherwise it asks the kernel, which
			// steps back from where a link a led (cd inc/../evil,
			// inc linked to ../evil, enters ../evil): unknown.
			return nil, nil
		}
		d = path.Clean(d)
		if !slices.Contains(next, d) {
			next = append(next, d)
		}
	}
	return next, in
}

// commandCwds returns the candidate working directories of the command
// being analyzed: those the line's flow knows for it (see cwdFlow) when
// the analysis followed no other change of directory within it (env -C,
// a wrapper's), all of the line's otherwise.
func (an *analyzer) commandCwds() []string {
	if len(an.callCwds) == 0 || an.cwdUnknown || len(an.a.cwds) != an.callCwdsOf {
		return an.a.cwds
	}
	for _, d := range an.callCwds {
		if !slices.Contains(an.a.cwds, d) {
			return an.a.cwds
		}
	}
	return an.callCwds
}

// stepsBackAfterName reports whether p has a ".." component after a
// component that names something (a/.., ./a/../b), which bash's logical
// cd resolves through the file system when the text's own reading is no
// directory.
func stepsBackAfterName(p string) bool {
	named := false
	for _, e := range strings.Split(p, "/") {
		switch e {
		case "", ".":
		case "..":
			if named {
				return true
			}
		default:
			named = true
		}
	}
	return false
}

// cdEnv records what the environment env tells bash's cd and its search
// of PATH (see Options.Env): the CDPATH entries other than the working
// directory, cdable_vars in BASHOPTS, physical in SHELLOPTS, which makes
// every cd resolve links as cd -P does, and the directories of PATH that
// are not absolute.
func (an *analyzer) cdEnv(env []string) {
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		switch name {
		case "CDPATH":
			an.cdPath = nil // the last entry of a name is the one bash takes
			for _, e := range strings.Split(v, ":") {
				if e == "" {
					e = "."
				}
				an.cdPath = append(an.cdPath, path.Clean(e))
			}
			if !slices.ContainsFunc(an.cdPath, func(e string) bool { return e != "." }) {
				an.cdPath = nil // the working directory alone, as without CDPATH
			}
		case "BASHOPTS":
			an.cdableVars = slices.Contains(strings.Split(v, ":"), "cdable_vars")
		case "SHELLOPTS":
			an.physical = slices.Contains(strings.Split(v, ":"), "physical")
		case "PATH":
			an.relPath = nil
			for _, e := range strings.Split(v, ":") {
				if !path.IsAbs(e) {
					an.relPath = append(an.relPath, path.Join(".", e))
				}
			}
		}
	}
}

// pathSearched returns the files bash may run for the program name: name
// itself when it holds a slash, and otherwise name in each directory of
// the environment's PATH that is taken from the working directory (".",
// an empty entry, bin, ./node_modules/.bin), where the line may write it
// (redteam130: with PATH=.:/usr/bin, printf … > cat && chmod +x cat && cat
// README.md ran the cat it wrote). The directories of PATH that are
// absolute are the system's, which a line that writes there is opaque for.
func (an *analyzer) pathSearched(name string) []string {
	if strings.Contains(name, "/") {
		return []string{name}
	}
	if name == "" {
		return nil
	}
	names := make([]string, 0, len(an.relPath))
	for _, d := range an.relPath {
		names = append(names, d+"/"+name)
	}
	return names
}

// cdElsewhere reports whether bash's cd (or pushd) of the operand d may,
// by the environment the line starts with (see cdEnv), enter another
// directory than d names from the working directory: an entry of CDPATH
// holds d (bash takes the first entry that does, and ./d last unless an
// entry "." or "" comes before: with CDPATH=.:~, cd sub enters ./sub
// when that is a directory, and ~/sub otherwise), or
// cdable_vars is set and d is no directory there (cd HOME enters $HOME).
// A path that starts with / or is ., .. or starts with ./ or ../ is
// searched for in neither. What the line wrote before may have made
// either, and a relative CDPATH entry is taken from where cd runs, so
// both count as may.
func (an *analyzer) cdElsewhere(d string) bool {
	if len(an.cdPath) == 0 && !an.cdableVars || path.IsAbs(d) || d == "." || d == ".." ||
		strings.HasPrefix(d, "./") || strings.HasPrefix(d, "../") {
		return false
	}
	if an.wroteBeforeCd() {
		return true
	}
	for _, c := range an.a.cwds {
		for _, e := range an.cdPath {
			if e == "." {
				if an.isDirNow(path.Join(c, d)) {
					break // bash enters ./d before the entries after "."
				}
				continue
			}
			if !path.IsAbs(e) {
				return true
			}
			if _, err := os.Stat(path.Join(e, d)); !errors.Is(err, fs.ErrNotExist) {
				return true
			}
		}
	}
	if an.cdableVars {
		for _, c := range an.a.cwds {
			if !an.isDirNow(path.Join(c, d)) {
				return true
			}
		}
	}
	return false
}

// markLoop records the simple commands of the loop n (its condition and
// its body) as commands that may run more than once: a cd among them may
// start again from where it led (see cd).
func (an *analyzer) markLoop(n syntax.Node) {
	if an.inLoop == nil {
		an.inLoop = map[*syntax.CallExpr]bool{}
	}
	syntax.Walk(n, func(m syntax.Node) bool {
		if c, ok := m.(*syntax.CallExpr); ok {
			an.inLoop[c] = true
		}
		return true
	})
}
