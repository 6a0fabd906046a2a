package permission

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// Some programs read the names of the files they read from a file an
// option names: sort, wc and du's --files0-from=F (names ended by NUL),
// tar's -T F and --files-from=F (one a line). sort prints what those
// files hold, and tar copies them into its archive, so a list naming
// ../home/.ssh/id_ed25519 read the key (round redteam133, tools: a
// project's names0 with that name made sort --files0-from=names0 print
// it, and tar -cf o.tar -T MANIFEST put it in o.tar, which cat printed;
// rev <<< 91552de_di/hss./emoh/.. | tr '\n' '\0' > l; sort
// --files0-from=l did the same with a list the line made). The analysis
// takes F as read, not the files it names. nameListsUnsound reads a
// list the project holds and asks when one of its names lies outside
// the workdir (or through a link out of it), or is an option (a line of
// tar's list that starts with "-" is one: -C /); a list the line itself
// writes or one the gate cannot read whole asks. Its standard input (F
// "-") is left to the analysis, as xargs' is.

// maxNameListSize bounds the size of a list of names the gate reads.
const maxNameListSize = 1 << 20

// defaultNameList marks a list a program reads when it is there
// (cscope's cscope.files), and not otherwise.
const defaultNameList = "\x00default:"

// nameListsUnsound says why a command of a may read files that a list of
// names it reads names outside the workdir, or "".
func (g *Gate) nameListsUnsound(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		name := strings.ToLower(filepath.Base(c.Name))
		lists, nul, why := nameListFiles(name, c.Args)
		if why != "" {
			return why
		}
		for _, l := range lists {
			if l == "-" {
				// Its standard input: the names the line pipes in
				// are judged as xargs' are (find doc -print0 | sort
				// --files0-from=- -z stays allowed).
				continue
			}
			if strings.ContainsAny(l, "$`*?[") {
				return name + " reads the names of the files it reads from " + clip(l) + ", a path only known when it runs"
			}
			l, optional := strings.CutPrefix(l, defaultNameList)
			for _, dir := range a.Dirs {
				p := g.absTarget(dir, l)
				if p == "" {
					return name + " reads a list of names in an unknown directory"
				}
				if _, err := os.Lstat(p); err != nil && optional {
					continue
				}
				if why := g.nameListUnsound(a, name, filepath.Clean(p), g.cwdOf(dir), nul); why != "" {
					return why
				}
			}
		}
	}
	return ""
}

// nameListUnsound says why the list of names p, read by name running in
// cwd, may name a file outside the workdir, or "".
func (g *Gate) nameListUnsound(a *shellscan.Analysis, name, p, cwd string, nul bool) string {
	for _, acc := range a.Accesses {
		if acc.Mode != shellscan.Write && acc.Mode != shellscan.Delete || acc.Unknown {
			continue // an unknown write is judged on its own (see unknownWrite)
		}
		for _, dir := range a.Dirs {
			if w := g.absTarget(dir, acc.Path); w != "" && (filepath.Clean(w) == p || acc.Tree && pathmatch.Within(p, filepath.Clean(w))) {
				return name + " reads the names of the files it reads from " + clip(p) + ", which the line writes"
			}
		}
	}
	fi, err := os.Stat(p)
	if err != nil {
		return name + " reads the names of the files it reads from " + clip(p) + ", which the gate cannot read"
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxNameListSize {
		return name + " reads the names of the files it reads from " + clip(p) + ", which is not an ordinary file the gate reads"
	}
	f, err := os.Open(p)
	if err != nil {
		return name + " reads the names of the files it reads from " + clip(p) + ", which the gate cannot read"
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxNameListSize+1))
	if err != nil || len(text) > maxNameListSize {
		return name + " reads the names of the files it reads from " + clip(p) + ", which the gate cannot read whole"
	}
	sep := func(r rune) bool { return r == 0 || !nul && r == '\n' }
	wd := g.lookups().Resolve(g.workdir)
	for _, n := range bytes.FieldsFunc(text, sep) {
		s := string(n)
		if !nul {
			s = strings.TrimSuffix(s, "\r")
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		if !nul && strings.HasPrefix(s, "-") {
			return name + " reads " + clip(p) + ", whose line " + clip(s) + " is an option"
		}
		t := s
		if !filepath.IsAbs(t) {
			t = filepath.Join(cwd, t)
		}
		if g.workdir == "" || !pathmatch.Within(g.lookups().Resolve(t), wd) {
			return name + " reads the files " + clip(p) + " names, one of which is outside the workdir: " + clip(s)
		}
		if g.hitsProtected(t, false) {
			return name + " reads the files " + clip(p) + " names, one of which is a protected path: " + clip(s)
		}
	}
	return ""
}

// nameListFiles returns the lists of names that command name's words args
// make it read, whether their names end with NUL, or why the gate does
// not know which they are.
func nameListFiles(name string, args []string) (lists []string, nul bool, why string) {
	switch name {
	case "sort", "wc", "du", "gsort", "gwc", "gdu":
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				break
			}
			opt, v, eq := strings.Cut(a, "=")
			if len(opt) < len("--fil") || !strings.HasPrefix("--files0-from", opt) {
				continue
			}
			if eq {
				lists = append(lists, v)
			} else if i+1 < len(args) {
				lists = append(lists, args[i+1])
				i++
			}
		}
		return lists, true, ""
	case "find", "gfind":
		// -files0-from F: the starting points, ended by NUL (GNU find
		// 4.9), whose names find prints for xargs cat (round
		// redteam133, tools: find -files0-from names0 -print0 | xargs
		// -0 cat printed ~/.ssh/id_ed25519).
		for i := 0; i+1 < len(args); i++ {
			if args[i] == "-files0-from" {
				lists = append(lists, args[i+1])
				i++
			}
		}
		return lists, true, ""
	case "ctags", "etags", "ctags-universal", "universal-ctags", "uctags", "ctags-exuberant", "exuberant-ctags":
		// -L F: the files to tag, one a line; a tags file holds the
		// lines of what it tags.
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "--":
				return lists, false, ""
			case a == "-L":
				if i+1 < len(args) {
					lists = append(lists, args[i+1])
					i++
				}
			case strings.HasPrefix(a, "-L"):
				lists = append(lists, a[2:])
			}
		}
		return lists, false, ""
	case "cscope":
		// -i F (and, without it, cscope.files when there is one):
		// the files whose lines cscope.out holds (round redteam133,
		// tools: cscope -b with a cscope.files naming
		// ../home/.aws/credentials put the key in cscope.out).
		named := false
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "-i":
				named = true
				if i+1 < len(args) {
					lists = append(lists, args[i+1])
					i++
				}
			case strings.HasPrefix(a, "-i"):
				named = true
				lists = append(lists, a[2:])
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i"):
				return nil, false, name + " reads a list of names (" + clip(a) + ") the gate does not pick out"
			}
		}
		if !named {
			lists = append(lists, defaultNameList+"cscope.files")
		}
		return lists, false, ""
	case "tar", "gtar", "bsdtar":
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				break
			}
			opt, v, eq := strings.Cut(a, "=")
			switch {
			case a == "-T":
				if i+1 < len(args) {
					lists = append(lists, args[i+1])
					i++
				}
			case strings.HasPrefix(opt, "--"):
				if len(opt) >= len("--files") && strings.HasPrefix("--files-from", opt) {
					if eq {
						lists = append(lists, v)
					} else if i+1 < len(args) {
						lists = append(lists, args[i+1])
						i++
					}
				}
			case strings.HasPrefix(a, "-T"):
				lists = append(lists, a[2:])
			case strings.HasPrefix(a, "-") && strings.Contains(a, "T"),
				i == 0 && !strings.HasPrefix(a, "-") && strings.Contains(a, "T"):
				// A cluster (-cfT o.tar l, old-style cT): which word
				// is the list depends on the letters before it.
				return nil, false, name + " reads a list of names (" + clip(a) + ") the gate does not pick out"
			}
		}
		return lists, false, ""
	}
	return nil, false, ""
}

// maxContentNamesSize bounds the size of a project file whose words the
// gate reads as names (see contentNamesUnsound); maxContentNames bounds
// how many distinct words with a "/" it checks: a file with more asks.
const (
	maxContentNamesSize = 256 << 10
	maxContentNames     = 4096
)

// contentNamesUnsound says why a line that reads names from data (a
// command substitution, xargs' input, a list of names on standard input)
// may take them from a file of the project that names a secret location,
// or "". The analysis allows names the line makes from the project's
// data (cat $(cat files), xargs cat < files), which are the project's
// files, and the gate judges the links the project holds (see
// unknownSecretRead); but a file's text may name any path: a project's
// MANIFEST holding ../home/.ssh/id_ed25519 made cat $(cat MANIFEST),
// xargs cat < MANIFEST and sort --files0-from=- < names0 print the key
// (round redteam133, tools). Each ordinary file of the workdir the line
// reads, and does not write, is read here, and a word of it with a "/"
// that names a secret location asks.
func (g *Gate) contentNamesUnsound(a *shellscan.Analysis) string {
	names := len(a.DynamicReads) > 0
	for _, c := range a.Commands {
		name := strings.ToLower(filepath.Base(c.Name))
		switch name {
		case "xargs", "parallel", "gxargs":
			names = true
		}
		if lists, _, _ := nameListFiles(name, c.Args); slices.Contains(lists, "-") {
			names = true
		}
	}
	if !names || g.workdir == "" {
		return ""
	}
	wd := g.lookups().Resolve(g.workdir)
	written := map[string]bool{}
	for _, acc := range a.Accesses {
		if acc.Mode == shellscan.Write || acc.Mode == shellscan.Delete {
			for _, dir := range a.Dirs {
				if w := g.absTarget(dir, acc.Path); w != "" {
					written[filepath.Clean(w)] = true
				}
			}
		}
	}
	seen := map[string]bool{}
	checked := map[string]bool{}
	for _, acc := range a.Accesses {
		if acc.Mode != shellscan.Read || acc.Runs || acc.Venv || acc.UvConfig || acc.PipConfig || acc.Tree || acc.Pattern || acc.Unknown {
			continue
		}
		for _, dir := range a.Dirs {
			p := g.absTarget(dir, acc.Path)
			if p == "" || written[filepath.Clean(p)] || seen[p] {
				continue
			}
			seen[p] = true
			real := g.lookups().Resolve(p)
			if !pathmatch.Within(real, wd) {
				continue // a read outside is judged as such
			}
			fi, err := os.Stat(real)
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			if fi.Size() > maxContentNamesSize {
				return "the line reads names from data, and " + clip(acc.Path) + " is too large for the gate to read for the names it holds"
			}
			text, err := os.ReadFile(real)
			if err != nil {
				return "the line reads names from data, and the gate cannot read " + clip(acc.Path)
			}
			for _, f := range strings.FieldsFunc(string(text), func(r rune) bool {
				return r == 0 || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '"' || r == '\'' || r == ',' || r == ';'
			}) {
				if !strings.Contains(f, "/") || strings.HasPrefix(f, "~") || strings.Contains(f, "$") || checked[f] {
					// Neither xargs nor a substitution's words
					// expand ~ or a variable: ~/.ssh/id_ed25519
					// in a README names ./~/.ssh/id_ed25519.
					continue
				}
				checked[f] = true
				if len(checked) > maxContentNames {
					return "the line reads names from data, and " + clip(acc.Path) + " holds more paths than the gate checks"
				}
				if g.namesSecretWord(a.Dirs, f) {
					return "the line reads names from data, and " + clip(acc.Path) + " names a secret location: " + clip(f)
				}
			}
		}
	}
	return ""
}
