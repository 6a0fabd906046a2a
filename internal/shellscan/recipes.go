package shellscan

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A task runner runs the commands of a recipe the line does not show: make
// a Makefile's, just a justfile's, task a Taskfile.yml's, ninja and cmake
// --build a build.ninja's or the generated Makefiles', npm run and its
// kin package.json's scripts. When the recipe lies in the project (the
// line did not write it) and runs a program that reads settings files
// naming code or outside paths (tsc's tsconfig.json outDir, hugo's
// publishDir, Doxyfile's INPUT_FILTER, mkdocs.yml's hooks …), a line that
// writes such a file and then runs the runner runs code of its own, as
// printf … > tsconfig.json && tsc does: real make, just, task, ninja and
// cmake --build wrote a tsconfig.json's outDir in the home so (gate61).
// The gate reads each recipe (Options.ReadRecipe), with the files its
// words name (an included makefile, a script it runs), and counts each
// program a word names with the files that program counts when the line
// runs it by itself (see recipeTools). A recipe it cannot read fully
// makes any file the line writes before the runner count as code.

// RecipeReader reads the build recipe at the absolute path p: a regular
// file's text or, for a p that ends in "/", the text of every regular file
// below that directory. A recipe that does not exist is an error wrapping
// fs.ErrNotExist; any other error (a recipe too large to read fully, a
// device) makes each file the line writes before its runner count as code.
type RecipeReader func(p string) ([]byte, error)

// Bounds on what recipeTools reads: the files a recipe's words name that
// it reads and those it looks for, and the distinct words it judges as
// programs; a recipe with more is judged as one it cannot read fully.
const (
	maxRecipeFiles = 64
	maxRecipeLooks = 4096
	maxRecipeWords = 8192
)

// recipeText is a recipe's text and the directory its relative words are
// taken from.
type recipeText struct {
	dir  string
	text []byte
}

// recipeTools records, for the runner that runs the recipe of one of
// names in dir (relative to each candidate working directory, or
// absolute; with up, also in each directory above it, the nearest that
// holds one), the files each program the recipe names counts as code (see
// subCodeUses). It reads nothing without a reader.
func (an *analyzer) recipeTools(runner, dir string, names []string, up bool) {
	if an.readRecipe == nil {
		return
	}
	var texts []recipeText
	unreadable := ""
	for _, c := range an.a.cwds {
		d := an.resolve(c, path.Join(".", dir))
		if path.IsAbs(dir) {
			d = path.Clean(dir)
		}
		if !path.IsAbs(d) {
			unreadable = "it runs in a directory the gate cannot place"
			break
		}
		for {
			found := false
			for _, n := range names {
				p := n
				if !path.IsAbs(n) {
					p = path.Join(d, n)
					if strings.HasSuffix(n, "/") {
						p += "/"
					}
				}
				b, err := an.readRecipe(p)
				switch {
				case err == nil:
					found = true
					texts = append(texts, recipeText{dir: path.Dir(strings.TrimSuffix(p, "/")), text: b})
				case !errors.Is(err, fs.ErrNotExist):
					unreadable = clipName(p) + ": " + err.Error()
				}
			}
			if found || !up || d == "/" {
				break
			}
			d = path.Dir(d)
		}
	}
	// The files a recipe's words name that exist: an included makefile, a
	// script a recipe runs, a Taskfile it includes; and the files theirs
	// name, once more.
	seen := map[string]bool{}
	named := map[string]bool{} // the base names of the files looked for
	read := 0
	// A makefile's (or build.ninja's) include is read at any depth, and
	// one it cannot read or name (include $(X).mk, include /dev/stdin, a
	// FIFO, a file too large) makes the recipe one it cannot read fully:
	// what it includes is recipe text too (review52g).
	for depth, from := 0, 0; from < len(texts) && unreadable == ""; depth++ {
		to := len(texts)
		for _, t := range texts[from:to] {
			incs, why := recipeIncludes(t.text)
			if why != "" {
				unreadable = why
				break
			}
			words := incs
			if depth < 2 {
				words = append(words, recipePathWords(t.text)...)
			}
			for i, w := range words {
				p := w
				if !path.IsAbs(p) {
					p = path.Join(t.dir, w)
				}
				include := i < len(incs)
				if seen[p] {
					continue
				}
				seen[p] = true
				named[path.Base(p)] = true
				if len(seen) > maxRecipeLooks {
					unreadable = "its recipe names more files than the gate looks for"
					break
				}
				b, err := an.readRecipe(p)
				if err != nil {
					if include && !errors.Is(err, fs.ErrNotExist) {
						unreadable = clipName(p) + ": " + err.Error()
						break
					}
					continue
				}
				if read++; read > maxRecipeFiles {
					unreadable = "its recipe names more files than the gate reads"
					break
				}
				texts = append(texts, recipeText{dir: path.Dir(p), text: b})
			}
			if unreadable != "" {
				break
			}
		}
		from = to
	}
	// A file the recipe names is code it may run (sh build.sh), which the
	// line may write first: by its base name, wherever it lies.
	if len(named) > 0 {
		bases := make([]string, 0, len(named))
		for b := range named {
			bases = append(bases, b)
		}
		slices.Sort(bases)
		an.usesCode(runner+" (a file its recipe names)", "/", bases...)
	}
	if unreadable == "" {
		var ok bool
		if ok = an.recipeWordsCode(runner, texts); !ok {
			unreadable = "its recipe names more words than the gate reads"
		}
	}
	if unreadable != "" {
		an.usesCode(runner+" (a recipe the gate cannot read fully: "+unreadable+")", "/", "*")
	}
}

// recipeWordsCode records, for each word of texts that names a program,
// the files that program counts as code (see subCodeUses), under runner's
// name. It returns false when the texts hold more distinct words than
// maxRecipeWords.
func (an *analyzer) recipeWordsCode(runner string, texts []recipeText) bool {
	words := map[string]bool{}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(string(t.text), func(r rune) bool { return !recipeWordRune(r) }) {
			if len(w) > 64 || w[0] == '-' || w[0] == '.' || w[0] == '+' || w[0] >= '0' && w[0] <= '9' || fileWord(w) {
				continue
			}
			if !words[w] {
				words[w] = true
				if len(words) > maxRecipeWords {
					return false
				}
			}
		}
	}
	sorted := make([]string, 0, len(words))
	for w := range words {
		sorted = append(sorted, w)
	}
	slices.Sort(sorted)
	type group struct {
		path  string
		below bool
		names []string
	}
	var groups []*group
	var progs []string
	for _, w := range sorted {
		uses := an.subCodeUses(w)
		if len(uses) == 0 {
			continue
		}
		progs = append(progs, w)
		for _, u := range uses {
			if u.given {
				continue
			}
			i := slices.IndexFunc(groups, func(g *group) bool {
				return g.path == u.path && g.below == u.below && (len(g.names) == 0) == (len(u.names) == 0)
			})
			if i < 0 {
				groups = append(groups, &group{path: u.path, below: u.below})
				i = len(groups) - 1
			}
			for _, n := range u.names {
				if !slices.Contains(groups[i].names, n) {
					groups[i].names = append(groups[i].names, n)
				}
			}
		}
	}
	if len(progs) > 3 {
		progs = append(progs[:3], "…")
	}
	label := runner + " (its recipe runs " + strings.Join(progs, ", ") + ")"
	for _, g := range groups {
		if g.below {
			an.usesDir(label, g.path)
		} else {
			an.usesCode(label, g.path, g.names...)
		}
	}
	return true
}

// subCodeUses returns the files the program named w counts as code when a
// line runs it by itself with no arguments (hugo: its hugo.toml …; tsc:
// tsconfig.json and any .json it may extend), read by a separate
// analysis that reads no recipe.
func (an *analyzer) subCodeUses(w string) []codeUse {
	sub := &analyzer{home: an.home, workdir: an.workdir, a: &bashAnalysis{cwds: []string{""}}, linkFrom: -1, cur: -1, secretVars: an.secretVars}
	sub.script(w, syntax.LangBash, 0)
	return sub.codeUses
}

// recipeWordRune reports whether r may be part of a program's name as a
// recipe writes it.
func recipeWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' ||
		r == '.' || r == '+'
}

// recipeIncludes returns the files the include lines of a recipe's text
// name (make's include, -include and sinclude, ninja's include and
// subninja), or why the gate cannot read what one includes: a name made
// of a variable or a pattern, or a device, which the line may feed.
func recipeIncludes(text []byte) ([]string, string) {
	var out []string
	for _, line := range strings.Split(string(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "include", "-include", "sinclude", "subninja":
		default:
			continue
		}
		for _, w := range f[1:] {
			if strings.HasPrefix(w, "#") {
				break
			}
			if strings.ContainsAny(w, "$*?[`\\") || w == "-" {
				return nil, "it includes " + clipName(w) + ", a name the gate cannot resolve"
			}
			out = append(out, w)
		}
	}
	return out, ""
}

// recipePathWords returns the words of a recipe's text that may name a
// file it reads or runs: those with a slash or the extension of a
// makefile, script or task file, without a variable or a glob.
func recipePathWords(text []byte) []string {
	var out []string
	for _, w := range strings.FieldsFunc(string(text), func(r rune) bool {
		return r <= ' ' || strings.ContainsRune("\"'`()[]{},;=:<>|&", r)
	}) {
		if strings.ContainsAny(w, "$*?%@\\") || strings.HasPrefix(w, "-") || strings.HasPrefix(w, "/dev/") ||
			strings.HasPrefix(w, "/proc/") || strings.HasPrefix(w, "/sys/") {
			continue
		}
		switch ext := path.Ext(w); ext {
		case ".mk", ".make", ".sh", ".bash", ".yml", ".yaml", ".just", ".ninja", ".py", ".js", ".mjs", ".cjs", ".cmake", ".pl", ".rb":
			out = append(out, w)
		case "":
			// A script by its path (./scripts/build, tools/gen).
			if strings.Contains(w, "/") && !strings.HasSuffix(w, "/") {
				out = append(out, w)
			}
		}
	}
	return out
}

// recipeRunner records the recipes of the task runners toolCode sees:
// just's justfile (-f/--justfile, -d/--working-directory), task's
// Taskfile (-t/--taskfile, -d/--dir), ninja's build.ninja (-C, -f),
// cmake --build's generated build files, meson compile's build.ninja,
// bmake's Makefile. make is make's own (see analyzer.make).
func (an *analyzer) recipeRunner(name string, args []word) {
	if onlyVersion(args) {
		return
	}
	value := func(short, long string) (string, bool) {
		v, ok := "", false
		for i, a := range args {
			t := a.text
			switch {
			case (t == short && short != "" || t == long) && i+1 < len(args):
				v, ok = args[i+1].text, true
				if args[i+1].dynamic {
					return "", false
				}
			case strings.HasPrefix(t, long+"="):
				v, ok = t[len(long)+1:], true
			case short != "" && len(short) == 2 && strings.HasPrefix(t, short) && len(t) > 2 && !strings.HasPrefix(t, "--"):
				v, ok = t[2:], true
			}
		}
		return v, ok
	}
	dynamic := slices.ContainsFunc(args, func(a word) bool { return a.dynamic })
	unknown := func() {
		an.usesCode(name+" (a recipe named by a word only known when the line runs)", "/", "*")
	}
	switch name {
	case "just":
		if dynamic {
			unknown()
			return
		}
		dir, _ := value("-d", "--working-directory")
		if f, ok := value("-f", "--justfile"); ok {
			an.recipeTools(name, dir, []string{f}, false)
			return
		}
		an.recipeTools(name, dir, []string{"justfile", "Justfile", ".justfile", "JUSTFILE"}, true)
	case "task", "go-task":
		if dynamic {
			unknown()
			return
		}
		dir, _ := value("-d", "--dir")
		if f, ok := value("-t", "--taskfile"); ok {
			an.recipeTools(name, dir, []string{f}, false)
			return
		}
		an.recipeTools(name, dir, []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml",
			"Taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yml", "taskfile.dist.yaml"}, true)
	case "ninja", "samu":
		if dynamic {
			unknown()
			return
		}
		dir, _ := value("-C", "")
		f, ok := value("-f", "")
		if !ok {
			f = "build.ninja"
		}
		an.recipeTools(name, dir, []string{f}, false)
	case "bmake", "pmake", "bsdmake":
		if dynamic {
			unknown()
			return
		}
		dir, _ := value("-C", "")
		an.recipeTools(name, dir, []string{"BSDmakefile", "makefile", "Makefile"}, false)
	case "cmake", "meson", "muon":
		build := ""
		for i, a := range args {
			if name == "cmake" && (a.text == "--build" || a.text == "--workflow") && i+1 < len(args) {
				if args[i+1].dynamic || strings.HasPrefix(args[i+1].text, "-") {
					// cmake --build --preset x: the preset names the
					// directory.
					unknown()
					return
				}
				build = args[i+1].text
			}
			if name != "cmake" && i == 0 && a.text == "compile" {
				build = "."
				if d, ok := value("-C", ""); ok {
					build = d
				}
				if dynamic {
					unknown()
					return
				}
			}
		}
		if build == "" {
			return
		}
		an.recipeTools(name, build, []string{"build.ninja", "Makefile", "CMakeCache.txt", "CMakeFiles/"}, false)
	}
}

// packageScripts records the programs the scripts of package.json name
// (npm run build whose script runs hugo), for npm, pnpm, yarn and bun,
// from the directory their -C, --dir, --prefix or --cwd option names (or
// the nearest above it that holds one).
func (an *analyzer) packageScripts(name string, args []word) {
	dir := ""
	// npm's args come with its command first (see npmArgs): its options
	// are looked for among all of them.
	for i, a := range args {
		switch a.text {
		case "-C", "--dir", "--prefix", "--cwd":
			if i+1 < len(args) {
				if args[i+1].dynamic {
					an.usesCode(name+" (a package.json only known when the line runs)", "/", "*")
					return
				}
				dir = args[i+1].text
			}
		}
		for _, o := range []string{"--dir=", "--prefix=", "--cwd="} {
			if v, ok := strings.CutPrefix(a.text, o); ok {
				dir = v
			}
		}
	}
	an.recipeTools(name+" (a script of package.json)", dir, []string{"package.json"}, true)
}

// fileWord reports whether the recipe word w names a file by its
// extension (main.o, a.c, hugo.toml), not a program: a letter after its
// last dot (python3.11 and g++-12 are programs).
func fileWord(w string) bool {
	i := strings.LastIndexByte(w, '.')
	if i < 0 || i == len(w)-1 {
		return false
	}
	r := w[i+1]
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
