package permission

import (
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// The rule ids of the gate's own verdicts about bash lines, which no
// policy can override.
const (
	// RuleBashProtected is the rule id of the deny a [Gate] gives a bash
	// line that writes or deletes a protected path (see
	// [GateOptions.Protected]), before any policy is asked.
	RuleBashProtected = "bash-protected"
	// RuleBashAnalysis is the rule id of the ask a [Gate] gives a bash line
	// that a policy allowed but the analysis does not fully understand;
	// with no approval handler it is denied.
	RuleBashAnalysis = "bash-analysis"
	// RuleGitDir is the rule id of the ask a [Gate] gives a write_file,
	// edit_file or delete_file call that a policy allowed but that changes
	// a file inside a .git directory (a nested repository's or a
	// submodule's config and hooks run when git works there), or a file
	// in the hooks directory core.hooksPath names or that the git
	// configuration includes.
	RuleGitDir = "git-dir"
)

// A bashScreen is the gate's own look at a bash line.
type bashScreen struct {
	// protected, when set, is the protected path the line writes or
	// deletes (as the line names it).
	protected string
	// opaque, when set, says why the line is not fully understood.
	opaque string
	// secret, when set, is a path holding secrets the line reads (see
	// [RuleBashSecretRead]), as the line names it.
	secret string
}

// screenBash analyzes a bash call's command line: whether it writes or
// deletes a protected path, and whether it is opaque, either to the
// analysis or because it writes outside the workdir's ordinary files.
func (g *Gate) screenBash(call Call) bashScreen {
	g = g.withCurrentHooks().withEnvSecrets().withSecretSet()
	input := parseInput(call.Input)
	if m, ok := input.(map[string]any); ok {
		for k := range m {
			if k != "command" && strings.EqualFold(k, "command") {
				// encoding/json matches field names without case: a tool
				// could run this field while rules read "command".
				return bashScreen{opaque: "the input has a field " + clip(k) + " besides command"}
			}
		}
	}
	v, _ := lookup(input, []string{"command"})
	line, ok := v.(string)
	if !ok {
		return bashScreen{}
	}
	// The environment tells bash's cd where to go (CDPATH, BASHOPTS,
	// SHELLOPTS): GateOptions.BashEnv's, or the gate process's own, which
	// the bash tool passes on when that is not set.
	env := g.bashEnv()
	if g.opts.BashEnv == nil {
		env = os.Environ()
	}
	a := shellscan.Analyze(line, shellscan.Options{Home: g.home, Workdir: g.workdir, ReadRecipe: readRecipe, SecretVars: g.secretVars(), Env: env})
	s := bashScreen{secret: g.secretRead(a)}
	if a.Opaque {
		s.opaque = a.Reason()
	} else if why := g.gitOutsideRepo(a); why != "" {
		s.opaque = why
	} else if why := g.optionFiles(a); why != "" {
		s.opaque = why
	} else if why := g.localPrograms(a); why != "" {
		s.opaque = why
	} else if why := g.adminPrograms(a); why != "" {
		s.opaque = why
	} else if why := g.linkedPrograms(a); why != "" {
		s.opaque = why
	} else if why := g.jsConfigUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.gpgHomeConfUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.projectPathsUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.ctagsConfUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.a2psConfUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.nameListsUnsound(a); why != "" {
		s.opaque = why
	} else if why := g.contentNamesUnsound(a); why != "" {
		s.opaque = why
	}
	for _, acc := range a.Accesses {
		if acc.Unknown {
			if s.opaque == "" {
				s.opaque = g.unknownWrite(writeDirs(a), acc)
			}
			continue
		}
		if acc.Runs {
			if s.opaque == "" {
				s.opaque = g.runsOutside(writeDirs(a), acc)
			}
			continue
		}
		if acc.Venv {
			if s.opaque == "" {
				s.opaque = g.venvUnsound(a, acc)
			}
			continue
		}
		if acc.UvConfig {
			if s.opaque == "" {
				s.opaque = g.uvConfigUnsound(a)
			}
			continue
		}
		if acc.PipConfig {
			if s.opaque == "" {
				s.opaque = g.pipConfigUnsound()
			}
			continue
		}
		if acc.Mode == shellscan.Read {
			continue
		}
		if s.opaque == "" && gitDirComponent(acc.Path) {
			s.opaque = "the command writes inside a .git directory, whose configuration and hooks git runs: " + clip(acc.Path)
		}
		ancestors := acc.Mode == shellscan.Delete || acc.Tree
		for _, dir := range writeDirs(a) {
			target := g.absTarget(dir, acc.Path)
			if target == "" {
				if s.opaque == "" {
					s.opaque = "a path is written relative to an unknown directory"
				}
				continue
			}
			if acc.Pattern {
				if g.patternHits(target, ancestors) {
					return bashScreen{protected: acc.Path}
				}
				matches := pathmatch.Glob(target)
				for _, m := range matches {
					if g.hitsProtected(m, ancestors) {
						return bashScreen{protected: acc.Path}
					}
					if s.opaque == "" && gitDirComponent(g.lookups().Resolve(m)) {
						s.opaque = "the command writes inside a .git directory, whose configuration and hooks git runs: " + clip(acc.Path)
					}
				}
				if s.opaque == "" && pathmatch.SegmentMayBe(acc.Path, ".git") {
					s.opaque = "the command writes paths named by a pattern that may lie in a .git directory: " + clip(acc.Path)
				}
				if s.opaque == "" && pathmatch.SegmentMayBe(acc.Path, "..") {
					s.opaque = "the command writes paths named by a pattern that may match .., as bash before 5.2 expands it: " + clip(acc.Path)
				}
				if s.opaque == "" && pathmatch.BraceMayBeAbsolute(acc.Path) {
					s.opaque = "the command writes paths named by a brace expansion that may make an absolute path: " + clip(acc.Path)
				}
				if s.opaque != "" {
					continue
				}
				// A redirection to a pattern is opaque; a command's
				// pattern operands (sed -i … *.go) are fine when the
				// pattern stays in the workdir and matches only its
				// ordinary files.
				if acc.Redirect {
					s.opaque = "a redirection target is a pattern"
					continue
				}
				if why := g.outsideOrdinary(pathmatch.LiteralDir(target), shellscan.Write); why != "" {
					s.opaque = "the command " + acc.Mode.String() + " paths named by a pattern outside the workdir"
					continue
				}
				for _, m := range matches {
					if why := g.outsideOrdinary(m, acc.Mode); why != "" {
						s.opaque = why
						break
					}
				}
				continue
			}
			if g.hitsProtected(target, ancestors) {
				return bashScreen{protected: acc.Path}
			}
			if s.opaque == "" && gitDirComponent(g.lookups().Resolve(target)) {
				s.opaque = "the command writes inside a .git directory, whose configuration and hooks git runs: " + clip(acc.Path)
			}
			if s.opaque == "" {
				if why := g.outsideOrdinary(target, acc.Mode); why != "" {
					s.opaque = why
				}
			}
		}
	}
	if s.opaque == "" && inBackground(input) {
		s.opaque = writesLater(line, a)
	}
	return s
}

// inBackground reports whether a bash call's input asks the tool to run
// the command in the background (run_in_background, whose name
// encoding/json matches without case).
func inBackground(input any) bool {
	m, ok := input.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range m {
		if strings.EqualFold(k, "run_in_background") && v != false && v != nil {
			return true
		}
	}
	return false
}

// writesLater says why a line run in the background is opaque: it writes
// or deletes a path the analysis lists at some time after its call
// returned, when later calls may have made that path, or a directory on
// the way, a symbolic link to .git, the home or anywhere else (sleep 2;
// echo x > sub/l/config, then cp -P dotgit sub/l). The gate decides
// each call on the files as they are then, and the tool kills a
// foreground line's processes when it ends; a background one lives on.
// Only the redirections and tee's files of a line that opens them at once
// (npm run dev > dev.log 2>&1, go run . | tee run.log, see
// shellscan.FilesOpenedAtStart), not those of a command string it runs,
// and writes to devices are left. It returns "" otherwise.
func writesLater(line string, a *shellscan.Analysis) string {
	// Each redirection and tee file of the line's own commands excuses
	// one access to its path: one inside a command string the line runs
	// (sh -c 'sleep 2; echo x > sub/l/config', the same path redirected
	// there too) opens it when it gets there.
	atStart, _ := shellscan.FilesOpenedAtStart(line)
	for _, acc := range a.Accesses {
		if acc.Mode == shellscan.Read || acc.Runs || strings.HasPrefix(acc.Path, "/dev/") {
			continue
		}
		if (acc.Redirect || acc.Mode == shellscan.Write) && atStart[acc.Path] > 0 {
			atStart[acc.Path]--
			continue
		}
		return "the command runs in the background and " + acc.Mode.String() + " " + clip(acc.Path) +
			" after the call returns, when later calls may have changed where that path leads"
	}
	return ""
}

// optionFiles says why a glob given to a command makes the line opaque:
// from some candidate directory it matches an existing file whose name
// begins with '-', which bash hands to the command as an option (a
// cloned repository's --checkpoint-action=exec=sh y, reached by tar cf x
// *), or the directory is unknown. It returns "" otherwise.
func (g *Gate) optionFiles(a *shellscan.Analysis) string {
	return g.fromEachDir(a, a.Patterns, "a pattern is expanded in an unknown directory: ", func(p, target string) string {
		// absTarget joins without cleaning: what precedes p is the
		// directory the word's first component lies in. Matches come
		// cleaned; one that cannot be placed under it is judged by every
		// component.
		base := filepath.Clean(target[:len(target)-len(p)]) + string(filepath.Separator)
		for _, m := range pathmatch.Glob(target) {
			rel, placed := strings.CutPrefix(m, base)
			if strings.HasPrefix(rel, "-") || !placed && strings.Contains(m, string(filepath.Separator)+"-") {
				return "the pattern " + clip(p) + " matches " + clip(m) + ", which the command would take as an option"
			}
		}
		return ""
	})
}

// localPrograms says why a program the line runs only if the project has
// it makes the line opaque (see shellscan.Analysis.LocalPrograms): from
// some candidate directory it is missing, or not a regular file, so that
// npx would fetch a package from the registry, or the directory is
// unknown. It returns "" otherwise.
func (g *Gate) localPrograms(a *shellscan.Analysis) string {
	return g.fromEachDir(a, a.LocalPrograms, "a program of node_modules is run from an unknown directory: ", func(p, target string) string {
		if fi, err := os.Stat(target); err != nil || !fi.Mode().IsRegular() {
			return "the project has no " + clip(p) + ", so npx would fetch a package from the registry and run it"
		}
		if pkg := ownBin(filepath.Dir(filepath.Dir(filepath.Dir(target))), filepath.Base(target)); pkg != "" {
			return clip(pkg) + " may name " + clip(filepath.Base(target)) + " a program of its own, which npx runs instead of " + clip(p)
		}
		return ""
	})
}

// fromEachDir resolves each of paths from each candidate directory of a
// and returns the first reason check gives for one, or unknown and the
// path when a directory is unknown, or "".
func (g *Gate) fromEachDir(a *shellscan.Analysis, paths []string, unknown string, check func(p, target string) string) string {
	for _, p := range paths {
		for _, dir := range a.Dirs {
			target := g.absTarget(dir, p)
			if target == "" {
				return unknown + clip(p)
			}
			if why := check(p, target); why != "" {
				return why
			}
		}
	}
	return ""
}

// ownBin returns the package.json in dir or a directory above it that may
// name name a program of its own package, or "". npx runs such a program
// (from a file of the project, which the line may write) before any of
// node_modules/.bin: npm exec looks in the package and its workspace root
// first. A bin object names its keys (as npm cleans them), a bin string
// the package's name, and directories.bin any file; a package.json npm
// might read but Go does not parse names anything.
func ownBin(dir, name string) string {
	for {
		p := filepath.Join(dir, "package.json")
		if b, err := readNoWait(p, maxRecipeBytes); err == nil && binNames(b, name) {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// binNames reports whether the package.json b may name name a program of
// its package.
func binNames(b []byte, name string) bool {
	var pkg map[string]json.RawMessage
	if json.Unmarshal(b, &pkg) != nil {
		return true
	}
	var dirs map[string]json.RawMessage
	if d, ok := pkg["directories"]; ok && json.Unmarshal(d, &dirs) == nil && dirs["bin"] != nil {
		return true
	}
	bin, ok := pkg["bin"]
	if !ok {
		return false
	}
	var one string
	if json.Unmarshal(bin, &one) == nil {
		var pkgName string
		json.Unmarshal(pkg["name"], &pkgName)
		return pkgName == "" || path.Base(pkgName) == name
	}
	var many map[string]json.RawMessage
	if json.Unmarshal(bin, &many) != nil {
		return false // null, or what npm drops
	}
	clean := strings.NewReplacer("\\", "/", ":", "/")
	for k := range many {
		if k == name || path.Base(clean.Replace(k)) == name {
			return true
		}
	}
	return false
}

// runsOutside says why a directory whose code the command builds or runs
// (the packages go test tests) makes the line opaque: from some candidate
// directory it lies outside the workdir or inside its .git directory, or
// it is a pattern. It returns "" otherwise.
func (g *Gate) runsOutside(dirs []string, acc shellscan.Access) string {
	why := "the command builds or runs the code in " + clip(acc.Path) + ", "
	if acc.Pattern {
		return why + "a pattern whose directories are only known when it runs"
	}
	wd := g.workdir
	if wd == "" {
		return why + "and the workdir is unknown"
	}
	for _, dir := range dirs {
		target := g.absTarget(dir, acc.Path)
		if target == "" {
			return why + "relative to an unknown directory"
		}
		real, root := g.lookups().Resolve(target), g.lookups().Resolve(wd)
		if !pathmatch.Within(real, root) {
			return why + "outside the workdir"
		}
		if gitDirComponent(acc.Path) || pathmatch.Within(real, filepath.Join(root, ".git")) {
			return why + "inside a .git directory"
		}
	}
	return ""
}

// unknownWrite says why a word given to a command the analysis does not
// model makes the line opaque: as a path, from any candidate directory, it
// is or holds a protected path, lies outside the workdir or inside a .git
// directory, or is not an ordinary file there. It returns "" otherwise.
func (g *Gate) unknownWrite(dirs []string, acc shellscan.Access) string {
	why := "the command " + clip(acc.Path) + " is given may be a file it writes, "
	for _, dir := range dirs {
		target := g.absTarget(dir, acc.Path)
		if target == "" {
			return why + "relative to an unknown directory"
		}
		if acc.Pattern {
			if g.patternHits(target, true) {
				return why + "and it may name a protected path"
			}
			if pathmatch.SegmentMayBe(acc.Path, ".git") {
				return why + "and it may lie inside a .git directory"
			}
			if pathmatch.SegmentMayBe(acc.Path, "..") {
				return why + "and it may match .., as bash before 5.2 expands it"
			}
			if pathmatch.BraceMayBeAbsolute(acc.Path) {
				return why + "and a brace expansion may make it an absolute path"
			}
			target = pathmatch.LiteralDir(target)
		}
		if g.hitsProtected(target, true) {
			return why + "and it names a protected path"
		}
		if gitDirComponent(acc.Path) || gitDirComponent(g.lookups().Resolve(target)) {
			return why + "and it lies inside a .git directory"
		}
		if o := g.outsideOrdinary(target, shellscan.Write); o != "" {
			return why + "and " + o
		}
	}
	return ""
}

// gitDirComponent reports whether p has a component named .git (in any
// case, folded as pathmatch.FoldName folds it): a repository's own files, whose config and hooks run programs
// when git works there (a nested repository, a submodule's, a git file).
func gitDirComponent(p string) bool {
	for _, c := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.EqualFold(c, ".git") || pathmatch.FoldName(c) == ".git" {
			return true
		}
	}
	return false
}

// gitOutsideRepo says why a git command of the line makes it opaque: git
// only runs under the protection of .git/config and .git/hooks when the
// workdir holds a real .git directory; elsewhere it may find a repository
// (a parent's, or a bare one the agent laid out) whose configuration, and
// the programs it names, nobody protects. It returns "" otherwise.
func (g *Gate) gitOutsideRepo(a *shellscan.Analysis) string {
	changer, several := gitIndexChanges(a)
	repoCode := map[bool]string{} // gitRepoCode's answer, by whether sub reaches a remote
	localFetch := false           // a git command of the line fetches from a repository on this machine
	for _, c := range a.Commands {
		if pathmatch.FoldName(path.Base(c.Name)) == "git" {
			for _, arg := range c.Args {
				if !strings.HasPrefix(arg, "-") {
					localFetch = localFetch || (arg == "fetch" || arg == "pull") && g.pushTarget(c.Args) != ""
					break
				}
			}
		}
	}
	for _, c := range a.Commands {
		// GIT runs git on a case-insensitive file system (macOS's
		// default), as the analysis judges it.
		if pathmatch.FoldName(path.Base(c.Name)) != "git" || c.Wrapper {
			continue
		}
		sub := ""
		for _, arg := range c.Args {
			if !strings.HasPrefix(arg, "-") {
				sub = arg
				break
			}
		}
		switch sub {
		case "", "init", "clone", "version", "help":
			continue
		}
		if g.workdir == "" {
			return "git runs in an unknown workdir"
		}
		fi, err := os.Lstat(filepath.Join(g.workdir, ".git"))
		if err != nil || !fi.IsDir() {
			return "git runs where the workdir holds no .git directory, so the repository's configuration is not protected"
		}
		network := gitNetwork(sub)
		why, done := repoCode[network]
		if !done {
			why = g.gitRepoCode(network, changer, several)
			repoCode[network] = why
		}
		if why != "" {
			return why
		}
		if sub == "push" {
			if why := g.pushTarget(c.Args); why != "" {
				return why
			}
		}
		if gitWorktreeWriters[sub] {
			if p := g.protectedInWorktree(); p != "" {
				return "git " + sub + " may rewrite or remove the protected " + clip(p)
			}
			if gitMayBringFiles(sub, c.Args) {
				if p := g.protectedGitMayBring(append(gitOperands(c.Args), gitLineRevisions(a, c)...), localFetch); p != "" {
					return "git " + sub + " may create the protected " + clip(p) + " from a commit, the index or a fetch"
				}
			}
		} else if sub == "fetch" && g.pushTarget(c.Args) != "" {
			// a fetch from a repository on this machine may point refs
			// at its commits (git fetch ../x main:y), in the background
			// after a later git checkout y was judged
			if p := g.protectedGitMayBring(nil, true); p != "" {
				return "git fetch from a repository on this machine may bring what creates the protected " + clip(p)
			}
		} else if gitRefWriter(sub, c.Args) {
			if ops := gitRevisionWords(c.Args); len(ops) > 0 {
				if p := g.protectedGitMayBring(ops, false); p != "" {
					return "git " + sub + " may point a ref at what may create the protected " + clip(p)
				}
			}
		}
	}
	return ""
}

// gitOperands returns the words of git args (the subcommand first) that
// may name a revision: every operand, the value of every --opt=value and
// every cluster of short options (-qsB: git restore's source is B).
func gitOperands(args []string) []string {
	var out []string
	for i, a := range args {
		if i == 0 && !strings.HasPrefix(a, "-") {
			continue // the subcommand
		}
		if a == "--" {
			break // paths follow
		}
		if v, ok := strings.CutPrefix(a, "--"); ok {
			if _, val, ok := strings.Cut(v, "="); ok && val != "" {
				out = append(out, val)
			}
			continue
		}
		if !strings.HasPrefix(a, "-") || len(a) > 2 {
			out = append(out, a) // an operand, or short options that may end in a value (-sB)
		}
	}
	return out
}

// gitMayBringFiles reports whether git args (the subcommand sub first)
// may create files of the worktree from commits, the index or a stash:
// not git rm, mv or clean, which only remove or move what is there, nor a
// new branch at HEAD (git checkout -b x, git switch -c x), nor git apply
// and am, whose patches the analysis judges on its own.
func gitMayBringFiles(sub string, args []string) bool {
	switch sub {
	case "rm", "mv", "clean", "apply", "am":
		return false
	case "checkout", "switch":
		ops, newBranch := 0, false
		for _, a := range args[1:] {
			switch {
			case a == "--":
				return true
			case a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--create" || a == "--force-create" || a == "--orphan":
				newBranch = true
			case !strings.HasPrefix(a, "-"):
				ops++
			}
		}
		return !newBranch || ops != 1
	}
	return true
}

// pushTarget says why the repository of a git push command makes the line
// opaque: pushing to a repository on this machine runs git receive-pack
// there, with that repository's configuration and hooks, which nobody
// protects. A network URL, ".", and a remote of the workdir's .git/config
// with network URLs only (or, with no repository given, every remote
// there) are fine. It returns "" then.
func (g *Gate) pushTarget(args []string) string {
	repo, seenSub := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !seenSub {
			seenSub = !strings.HasPrefix(a, "-")
			continue
		}
		if a == "--" {
			if i+1 < len(args) && repo == "" {
				repo = args[i+1]
			}
			break
		}
		if v, ok := strings.CutPrefix(a, "--repo="); ok {
			repo = v
			break
		}
		if a == "--repo" {
			if i+1 < len(args) {
				repo = args[i+1]
			}
			break
		}
		if !strings.HasPrefix(a, "-") && repo == "" {
			repo = a
		}
	}
	if repo == "." || networkURL(repo) || g.configuredRemote(repo) {
		return ""
	}
	return "git push to " + clip(repo) + " may run the hooks of a repository on this machine, which are not protected"
}

// networkURL reports whether repo is a git URL of a network transport
// (http, https, ssh, git, or the scp-like [user@]host:path).
func networkURL(repo string) bool {
	if strings.Contains(repo, "::") {
		return false // a remote helper (ext::, fd:: …)
	}
	if scheme, _, ok := strings.Cut(repo, "://"); ok {
		switch strings.ToLower(scheme) {
		case "http", "https", "ssh", "git", "git+ssh", "ssh+git":
			return true
		}
		return false
	}
	colon := strings.IndexByte(repo, ':')
	return colon > 0 && !strings.Contains(repo[:colon], "/")
}

// configuredRemote reports whether name is a remote of the workdir's
// .git/config ([remote "name"], which git prefers to a path of that name)
// whose url and pushurl values are all network URLs: a remote that points
// at a repository on this machine runs its hooks as a path does. For name
// "" (git push to its default) it reports whether every remote there has
// only network URLs, or there is none.
func (g *Gate) configuredRemote(name string) bool {
	if g.workdir == "" || strings.ContainsAny(name, "\"\n") {
		return false
	}
	b, err := readNoWait(filepath.Join(g.workdir, ".git", "config"), maxGitConfigSize)
	if err != nil {
		return false
	}
	want := `"` + name + `"`
	in, found := false, name == ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		if sect, ok := strings.CutPrefix(line, "["); ok {
			in = len(sect) >= 7 && strings.EqualFold(sect[:6], "remote") &&
				(name == "" || strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(sect[6:]), "]")) == want)
			continue
		}
		if !in {
			continue
		}
		key, val, ok := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if key != "url" && key != "pushurl" {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"`)
		if !ok || !networkURL(val) {
			return false
		}
		found = true
	}
	return found
}

// gitWorktreeWriters are the git subcommands that write or remove files of
// the worktree, tracked or not, whatever their paths.
var gitWorktreeWriters = map[string]bool{
	"checkout": true, "switch": true, "restore": true, "reset": true, "stash": true, "merge": true,
	"pull": true, "am": true, "apply": true, "cherry-pick": true, "rebase": true, "revert": true,
	"mv": true, "rm": true, "clean": true,
}

// protectedInWorktree returns a protected path that exists in the
// worktree (the workdir outside .git), or "".
func (g *Gate) protectedInWorktree() string {
	gitDir := filepath.Join(g.workdir, ".git")
	for _, p := range g.protected {
		if !pathmatch.Within(p, g.workdir) || pathmatch.Within(p, gitDir) {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			return p
		}
	}
	return ""
}

// absTarget returns the absolute, unresolved path a line's access names
// from the candidate directory dir; "" when no workdir is known for a
// relative path.
//
// The path is joined, not cleaned: "link/.." must step back from where the
// link leads, as the kernel does, which resolvePath takes care of.
func (g *Gate) absTarget(dir, p string) string {
	sep := string(filepath.Separator)
	if !filepath.IsAbs(p) && dir != "" {
		p = dir + sep + p
	}
	if !filepath.IsAbs(p) {
		if g.workdir == "" {
			return ""
		}
		p = g.workdir + sep + p
	}
	return procSelfView(p, g.cwdOf(dir))
}

// cwdOf returns the absolute directory a command runs in for dir, one of
// an analysis's Dirs ("" for the workdir, or relative to it); "" when no
// workdir is known for a relative one.
func (g *Gate) cwdOf(dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	if g.workdir == "" {
		return ""
	}
	return filepath.Join(g.workdir, dir)
}

// procSelfView rewrites a path through a process's directory in /proc
// to where it leads for the command that opens it: /proc/self/root/x
// (also /proc/thread-self, /proc/<pid>, /proc/…/task/<tid>) is /x, and
// /proc/self/cwd/x is x in cwd, the command's directory (the gate's own
// view of /proc/self, which pathmatch.Resolve would follow, is the gate
// process's: cat /proc/self/cwd/../home/.ssh/id_ed25519 read the key while
// the gate saw a path beside its own working directory). Another
// process's cwd (/proc/<pid>/cwd) is not: the agent's or an editor's may
// be the home (echo x >> /proc/PID/cwd/.bashrc wrote the home's .bashrc),
// and such a path is returned as it is, as other paths are.
func procSelfView(p, cwd string) string {
	for range 8 {
		parts := strings.Split(filepath.ToSlash(p), "/")
		if len(parts) < 4 || parts[0] != "" || parts[1] != "proc" || !pathmatch.IsProcess(parts[2]) {
			return p
		}
		i := 3
		if parts[i] == "task" && len(parts) > 5 {
			i += 2
		}
		rest := filepath.FromSlash(strings.Join(parts[i+1:], "/"))
		switch parts[i] {
		case "root":
			p = string(filepath.Separator) + rest
		case "cwd":
			if cwd == "" || parts[2] != "self" && parts[2] != "thread-self" {
				return p
			}
			p = cwd + string(filepath.Separator) + rest
		default:
			return p
		}
	}
	return p
}

// specialFiles are the files outside the workdir a line may write.
var specialFiles = map[string]bool{"/dev/null": true, "/dev/stdout": true, "/dev/stderr": true}

// outsideOrdinary says why writing (or deleting, with mode Delete) target
// makes a line opaque: it lies outside the workdir, or inside .git, or is
// not an ordinary file there (a device, a FIFO, a socket, a file with other
// hard links). It returns "" for an ordinary file of the workdir.
func (g *Gate) outsideOrdinary(target string, mode shellscan.Mode) string {
	if specialFiles[filepath.Clean(target)] {
		return ""
	}
	real := g.lookups().Resolve(target)
	wd := g.workdir
	if wd == "" {
		return "the command writes a file and the workdir is unknown"
	}
	if !pathmatch.Within(real, g.lookups().Resolve(wd)) {
		return "the command " + mode.String() + " outside the workdir: " + clip(target)
	}
	if mode == shellscan.Delete {
		return ""
	}
	if pathmatch.Within(real, filepath.Join(g.lookups().Resolve(wd), ".git")) {
		return "the command writes inside .git, whose files are not ordinary files of the workdir: " + clip(target)
	}
	if fi, err := os.Stat(real); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return "the command writes to a file that is not an ordinary file: " + clip(target)
	}
	if fi, err := os.Stat(real); err == nil && fi.Mode().IsRegular() && safefs.LinkCount(fi) > 1 {
		return "the command writes to a file with other hard links: " + clip(target)
	}
	return ""
}

// hitsProtected reports whether target, lexically or resolved through
// symbolic links and "..", names a protected path or lies beneath one;
// with ancestors, also whether it names a directory holding one. In a
// bash line's checks the protected paths are resolved once a line, not
// once a path the line writes.
func (g *Gate) hitsProtected(target string, ancestors bool) bool {
	if g.line != nil {
		return g.line.protected.HitsResolved(target, g.lookups().Resolve(target), ancestors)
	}
	return pathmatch.Hits(target, g.protected, ancestors)
}

// patternHits reports whether the glob pattern target could name a
// protected path or a path beneath one (with ancestors, also a directory
// holding one); see [pathmatch.PatternHits].
func (g *Gate) patternHits(target string, ancestors bool) bool {
	return g.lookups().PatternHits(target, g.protected, ancestors)
}

// writeDirs are the directories the paths a's line writes are taken from
// (see [shellscan.Analysis.WriteDirs]); Dirs when the analysis has none.
func writeDirs(a *shellscan.Analysis) []string {
	if a.WriteDirs == nil {
		return a.Dirs
	}
	return a.WriteDirs
}
