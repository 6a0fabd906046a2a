package permission

import (
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
	"github.com/lite-agent/lite-agent-go/storage"
)

// RuleBashSecretRead is the rule id of the ask a [Gate] gives a bash line
// that a policy allowed but that reads (or copies, archives, sends) a path
// holding secrets: the user's credential locations (~/.ssh, ~/.aws,
// ~/.netrc …) and where the bash line's environment moves them
// (GNUPGHOME, DOCKER_CONFIG, KUBECONFIG …, by name or by value), the
// system's secret files (/etc/shadow, /proc/<pid>/environ …), lite-agent's
// data homes, or a directory holding one of them (tar czf x ~). With no
// approval handler it is denied.
const RuleBashSecretRead = "bash-secret-read"

// RuleFileSecretRead is the rule id of the ask a [Gate] gives a read_file
// or grep call that a policy allowed but that reads a credential location
// of the home or a secret file of the system, as [RuleBashSecretRead] asks
// for a bash line: the file tools stay in the workspace, but a workspace
// may hold the home (an agent started in ~: read_file .ssh/id_ed25519
// returned the key while cat .ssh/id_ed25519 asked, round 98). An
// edit_file, write_file or delete_file of one asks too, as sed -i, echo >>
// and rm do in bash: edit_file's answer ("Edited" or "Text not found")
// tells whether old_text occurs, an oracle that gives a key away a
// character at a time, and every change records the file's previous
// content in its snapshot, which the session log keeps and read_file
// reads back (rt132files). A read_file or grep of a data home inside the
// workspace asks too, as cat does, but for the calling session's own log
// and archive directory. glob and list_dir show names only and are not
// asked about; nor are read_file's read roots outside the workspace,
// which the host gives (a session's own log).
const RuleFileSecretRead = "file-secret-read"

// fileSecretRead returns the path of a read_file, grep, edit_file,
// write_file or delete_file call (grep's workspace root when it names
// none) that names a credential location or a system secret inside the
// workspace, or for grep a directory holding one; "" otherwise.
func (g *Gate) fileSecretRead(call Call) string {
	tree := false
	switch call.Name {
	case "read_file", "edit_file", "write_file", "delete_file":
	case "grep":
		tree = true
	default:
		return ""
	}
	v, _ := lookup(parseInput(call.Input), []string{"path"})
	p, _ := v.(string)
	if p == "" {
		if !tree {
			return ""
		}
		p = "."
	}
	target := g.absTarget("", p)
	if target == "" || g.workdir == "" {
		return ""
	}
	// The credential locations, and the data homes but for the calling
	// session's own log and archive (read_file reads those through its
	// read roots); not the other protected paths.
	creds := append(secretpaths.UserCredentials(g.home), secretpaths.System(g.home)...)
	if e := g.withEnvSecrets(); e != g {
		creds = append(creds, e.secrets[len(g.secrets):]...)
	}
	resolved := g.lookups().Resolve(target)
	if call.Name == "grep" && call.seen != nil {
		// What the gate decided about: grep checks that it opened this
		// (see [Gate.openedCheck]), as read_file does with what the
		// workspace policy records.
		call.seen.set(resolved)
	}
	for _, t := range []string{filepath.Clean(target), resolved} {
		if !pathmatch.Within(t, g.workdir) {
			continue
		}
		if secretpaths.IsProcSecret(filepath.ToSlash(t), tree) || pathmatch.Hits(t, creds, tree) {
			return p
		}
		for _, h := range g.dataHomesIn(t, tree) {
			if pathmatch.Hits(t, []string{h}, tree) && !ownSessionData(h, t, call.SessionID) {
				return p
			}
		}
	}
	return ""
}

// dataHomesIn returns the data homes inside the workdir that t, a path in
// it, lies in (or, with tree, that lie in t): those bash lines are asked
// about reading (see [secretLocations]), which [secretpaths.DataHomes]
// finds in the user's home, and the protected paths that are one. It
// looks for them only where one may be, so that a read of a project's
// file costs no more than before.
func (g *Gate) dataHomesIn(t string, tree bool) []string {
	near := func(q string) bool { return pathmatch.Within(t, q) || tree && pathmatch.Within(q, t) }
	var out []string
	if g.home != "" && pathmatch.Within(g.home, g.workdir) {
		rel, ok := within(g.home, t)
		if ok && strings.HasPrefix(rel, ".") && rel != "." || tree && pathmatch.Within(g.home, t) {
			for _, h := range secretpaths.DataHomes(g.home) {
				if pathmatch.Within(h, g.workdir) && near(h) {
					out = append(out, h)
				}
			}
		}
	}
	for _, q := range g.protected {
		if pathmatch.Within(q, g.workdir) && near(q) && !slices.Contains(out, q) && secretpaths.IsDataHome(q) {
			out = append(out, q)
		}
	}
	return out
}

// sessionLogSuffix ends the name of a session's log, as session.LogSuffix
// does; the gate does not import the session store for it.
const sessionLogSuffix = ".jsonl"

// ownSessionData reports whether t, a path at or below the data home
// home, is the log of session id (<home>/projects/<hash>/sessions/<id>.jsonl)
// or lies in its archive directory: the read roots tool/builtin's
// SessionDataRoots gives the session.
func ownSessionData(home, t, id string) bool {
	if id == "" || storage.ValidateID(id) != nil {
		return false
	}
	rel, ok := within(home, t)
	if !ok {
		return false
	}
	parts := strings.Split(rel, "/")
	if len(parts) < 4 || parts[0] != storage.ProjectsDirName || !storage.IsProjectHash(parts[1]) || parts[2] != storage.SessionsDirName {
		return false
	}
	sessions := filepath.Join(home, parts[0], parts[1], parts[2])
	if len(parts) == 4 && parts[3] == id+sessionLogSuffix {
		return true
	}
	_, in := within(storage.SessionContextDir(sessions, id), t)
	return in
}

// secretLocations returns the paths a bash line asks to read (see
// [RuleBashSecretRead]): the credential locations of home and its
// settings files that may carry one ([secretpaths.PrintedSettings]), the system's
// secret files, the data homes [secretpaths.DataHomes] finds, and the
// protected paths outside the workdir (the data home of the project, a
// managed policy file) or, inside it, that are a data home (--home
// ./.data: cat .data/projects/*/sessions/* printed the sessions' records
// while a data home in the user's home asked, round 98).
func secretLocations(home, workdir string, protected []string) []string {
	out := secretpaths.UserCredentials(home)
	out = append(out, secretpaths.PrintedSettings(home)...)
	out = append(out, secretpaths.System(home)...)
	out = append(out, secretpaths.DataHomes(home)...)
	for _, p := range protected {
		if workdir == "" || !pathmatch.Within(p, workdir) || secretpaths.IsDataHome(p) {
			out = append(out, p)
		}
	}
	return out
}

// isLister reports whether the program name shows the names and metadata
// of files, never their contents.
func isLister(name string) bool {
	switch name {
	case "ls", "dir", "vdir", "stat", "du", "tree", "readlink", "realpath":
		return true
	}
	return false
}

// namesOnly reports whether every command of the line is a lister
// without an option that reads names from a file: such a line may name a
// credential directory (ls ~/.ssh, du -sh ~) without asking, since it
// shows no file's contents.
func namesOnly(a *shellscan.Analysis) bool {
	n := 0
	for _, c := range a.Commands {
		if c.Wrapper {
			continue
		}
		if !isLister(filepath.Base(c.Name)) || len(c.Guessed) > 0 {
			return false
		}
		for _, w := range splitCommand(a, c).Args {
			if strings.HasPrefix(w, "--") && strings.Contains(w, "from") || readsNamesOption(filepath.Base(c.Name), w) {
				return false // du --files0-from=F, tree --fromfile F print what F holds
			}
		}
		n++
	}
	return n > 0
}

// secretRead returns, as the line names it, a path holding secrets (see
// [RuleBashSecretRead]) that the line reads, or a directory holding one;
// "" when there is none, or when the line only lists names.
func (g *Gate) secretRead(a *shellscan.Analysis) string {
	if namesOnly(a) {
		return ""
	}
	tree := readsTrees(a)
	for _, acc := range a.Accesses {
		if acc.Runs || acc.Venv || acc.UvConfig || acc.PipConfig {
			continue
		}
		words := []string{acc.Path}
		if acc.Unknown {
			words = append(words, fileWords(acc.Path)...)
		}
		for _, w := range words {
			if g.namesSecret(a.Dirs, w, acc.Pattern, tree && !acc.Unknown) {
				return acc.Path
			}
		}
	}
	if p := g.secretThroughLinks(a); p != "" {
		return p
	}
	if p := g.descriptorTree(a); p != "" {
		return p
	}
	// git diff --no-index compares two trees, printing every file one
	// holds and the other lacks; the analysis lists no access for them.
	// diff -r takes a tree as an option's value too (diff -rN
	// --from-file=../home e printed the home's files).
	for _, c := range a.Commands {
		name := pathmatch.FoldName(filepath.Base(c.Name))
		isDiff := (name == "diff" || name == "colordiff") && tree
		if !isDiff && (name != "git" || !slices.Contains(c.Args, "--no-index")) {
			continue
		}
		for i, w := range c.Args {
			words := []string{w}
			if isDiff && strings.HasPrefix(w, "--") {
				words = fileWords(w)
				if !strings.Contains(w, "=") && i+1 < len(c.Args) {
					words = []string{c.Args[i+1]} // --from-file DIR
				}
			}
			for _, v := range words {
				if !strings.HasPrefix(v, "-") && g.namesSecret(a.Dirs, v, false, true) {
					return w
				}
			}
		}
	}
	for _, p := range a.ReadPatterns {
		if g.namesSecret(a.Dirs, p, true, tree) {
			return p
		}
		// A tilde prefix the analysis leaves to bash (~root/.netrc,
		// ~+/../x, as a word of a brace expansion too).
		for _, t := range tildeWords(p, a.Dirs) {
			if g.namesSecretWord(a.Dirs, t) || g.namesSecret(a.Dirs, t, true, tree) {
				return p
			}
		}
	}
	// A word of the line that names a secret or a path beneath one asks
	// too, whatever the program: the analysis may not know that it reads
	// it (git diff --no-index ~/.netrc x, du --files0-from=~/.netrc, echo
	// ~/.ssh/id_rsa | xargs cat). A tilde the analysis leaves to bash
	// (~root/.ssh, ~+/.netrc) keeps its source text and is looked up here.
	// The words of a here-string or here-document, which a program that
	// reads names from its input takes as paths (xargs cat <<<
	// ~/.ssh/id_ed25519 printed the key).
	for _, w := range inputWords(a) {
		for _, p := range append([]string{w}, tildeWords(w, a.Dirs)...) {
			if g.namesSecretWord(a.Dirs, p) {
				return w
			}
		}
	}
	for _, c := range a.Commands {
		// What printf prints of its format and operands (see
		// printfWords).
		for _, p := range printfWords(c) {
			if g.namesSecretWord(a.Dirs, p) {
				return c.Text
			}
		}
		for _, w := range c.Args {
			words := append([]string{w}, fileWords(w)...)
			words = append(words, embeddedWords(w)...)
			words = append(words, xargsWords(w)...)
			for _, r := range substituteReplacements(w) {
				words = append(append(words, r), embeddedWords(r)...)
			}
			for _, p := range append(words, tildeWords(w, a.Dirs)...) {
				if g.namesSecretWord(a.Dirs, p) {
					return w
				}
			}
		}
	}
	// The literal text of a format or a prefixed value a command prints
	// (see formatSecret).
	if p := g.formatSecret(a); p != "" {
		return p
	}
	return g.unknownSecretRead(a)
}

// namesSecretWord reports whether the word p, from any of dirs, names a
// secret location or a path beneath one (not a directory holding one: echo
// ~ is no read).
func (g *Gate) namesSecretWord(dirs []string, p string) bool {
	kdirs := g.kernelDirs(dirs)
	if g.line == nil {
		return g.namesSecretFrom(kdirs, p)
	}
	key := dirsKey(kdirs) + strconv.Quote(p)
	g.line.mu.Lock()
	v, ok := g.line.secretWord[key]
	g.line.mu.Unlock()
	if !ok {
		v = g.namesSecretFrom(kdirs, p)
		g.line.mu.Lock()
		g.line.secretWord[key] = v
		g.line.mu.Unlock()
	}
	return v
}

// namesSecretFrom is namesSecretWord from the directories kdirs, as
// kernelDirs returns them.
func (g *Gate) namesSecretFrom(kdirs []string, p string) bool {
	for _, dir := range kdirs {
		target := g.absTarget(dir, p)
		if target == "" {
			continue
		}
		resolved := g.lookups().Resolve(target)
		if g.hitsSecretLocation(target, false) || g.lookups().ThroughDescriptor(target, g.cwdOf(dir), false) || g.throughOtherCwd(target, false) ||
			secretpaths.IsProcSecret(filepath.ToSlash(filepath.Clean(target)), false) || secretpaths.IsProcSecret(filepath.ToSlash(resolved), false) {
			return true
		}
	}
	return false
}

// kernelDirs returns dirs, an analysis's Dirs, with the directory each
// is as the kernel resolves it when the line's cd runs from the workdir
// added where that differs: a link to /proc/self/cwd on the way leads to
// the shell's own directory then, not to the gate's, so cd l/sub; cat
// s/id_ed25519 (l a link to /proc/self/cwd, sub/s one to ~/.ssh) reads
// sub/s/id_ed25519 of the workdir.
func (g *Gate) kernelDirs(dirs []string) []string {
	out := dirs
	for _, d := range dirs {
		cwd := g.cwdOf(d)
		if cwd == "" || g.workdir == "" {
			continue
		}
		if r := g.lookups().ResolveFrom(cwd, g.workdir); r != cwd && r != "" && !slices.Contains(out, r) {
			if len(out) == len(dirs) {
				out = slices.Clone(dirs)
			}
			out = append(out, r)
		}
	}
	return out
}

// dirsKey returns a key of the line's lookups for dirs: each quoted, so
// that no two lists and words make one key (a word may hold any byte).
func dirsKey(dirs []string) string {
	var b strings.Builder
	for _, d := range dirs {
		b.WriteString(strconv.Quote(d))
		b.WriteByte(',')
	}
	return b.String()
}

// tildeWords returns the paths bash may make of the word w that begins
// with a tilde prefix other than ~ and ~/ (also after an '=' or '@'):
// ~name/… in the home of the user name, ~+/… and ~-/… (the working
// directory, the previous one) and the directory stack's ~N, ~+N and ~-N
// (pushd's, whose entries are among the line's directories: cat
// ~0/sub/s/id_ed25519 printed the key, round 105) from each of dirs.
func tildeWords(w string, dirs []string) []string {
	var out []string
	for _, v := range append([]string{w}, fileWords(w)...) {
		if !strings.HasPrefix(v, "~") || v == "~" || strings.HasPrefix(v, "~/") {
			continue
		}
		name, rest, _ := strings.Cut(v[1:], "/")
		if dirStackTilde(name) {
			name = "+"
		}
		switch name {
		case "+", "-":
			for _, d := range dirs {
				out = append(out, filepath.Join(d, rest))
			}
			if len(dirs) == 0 {
				out = append(out, rest)
			}
		default:
			if u, err := user.Lookup(name); err == nil && filepath.IsAbs(u.HomeDir) {
				out = append(out, filepath.Join(u.HomeDir, rest))
			}
		}
	}
	return out
}

// dirStackTilde reports whether name, the text of a tilde prefix after
// the '~', is an entry of the directory stack: N, +N or -N.
func dirStackTilde(name string) bool {
	n := strings.TrimLeft(name, "+-")
	return n != "" && len(name)-len(n) <= 1 && strings.Trim(n, "0123456789") == ""
}

// fileWords returns the files a word given to a program the analysis does
// not model may name after an '@' or '=' (http x @f, tool --key=f, -F
// x=@f): each rest of the word after one of them.
func fileWords(w string) []string {
	var out []string
	for i := 0; i < len(w) && len(out) < 8; i++ {
		if (w[i] == '@' || w[i] == '=') && i+1 < len(w) {
			out = append(out, w[i+1:])
		}
	}
	return out
}

// namesSecret reports whether p, from any of dirs (a pattern with
// pattern set), names a secret location or lies beneath one (with tree,
// also whether it is a directory holding one), lexically or through
// symbolic links and "..".
func (g *Gate) namesSecret(dirs []string, p string, pattern, tree bool) bool {
	for _, dir := range g.kernelDirs(dirs) {
		target := g.absTarget(dir, p)
		if target == "" {
			continue
		}
		if !pattern {
			if g.hitsSecret(target, g.cwdOf(dir), tree) {
				return true
			}
			continue
		}
		if g.lookups().PatternHits(target, g.secrets, tree) || pathmatch.PatternHits(target, []string{"/proc"}, false) {
			return true
		}
		for _, m := range pathmatch.Glob(target) {
			if g.hitsSecret(m, g.cwdOf(dir), tree) {
				return true
			}
		}
	}
	return false
}

// hitsSecret reports whether the absolute path target, opened by a
// command in the directory cwd, names a secret location or lies beneath
// one (with tree, also whether it is a directory holding one).
func (g *Gate) hitsSecret(target, cwd string, tree bool) bool {
	if g.hitsSecretLocation(target, tree) {
		return true
	}
	// Beneath a file descriptor, which may be any directory the line
	// opened (cat /dev/fd/3/home/.ssh/id_ed25519 3<..).
	if g.lookups().ThroughDescriptor(target, cwd, false) || g.throughOtherCwd(target, tree) {
		return true
	}
	// Through a link to /proc/self/cwd, as the command, in cwd, opens it.
	from := g.lookups().ResolveFrom(target, cwd)
	if g.hitsSecretLocation(from, tree) {
		return true
	}
	for _, c := range []string{filepath.Clean(target), g.lookups().Resolve(target), from} {
		if c = filepath.ToSlash(c); secretpaths.IsProcSecret(c, tree) {
			return true
		}
	}
	return false
}

// throughOtherCwd reports whether the absolute path target goes through
// the working directory of another process (/proc/<pid>/cwd, see
// [pathmatch.OtherProcessCwd]), which may be any directory, the home too,
// and what follows it may be a secret location's tail (cat
// /proc/PID/cwd/.ssh/id_ed25519 read the key of the home an editor ran
// in); with tree, a directory read whole there may hold one.
func (g *Gate) throughOtherCwd(target string, tree bool) bool {
	tail, ok := pathmatch.OtherProcessCwd(target)
	if !ok {
		// Through a link to it (a project's link to /proc/1/cwd).
		tail, ok = pathmatch.OtherProcessCwd(g.lookups().Resolve(target))
	}
	return ok && (tree || g.tailMaySecret(unknownAbove(tail)))
}

// secretReadReason is the reason of the ask of [RuleBashSecretRead].
func secretReadReason(p string) string {
	if p = strings.TrimSpace(p); p == "/proc/self/environ" {
		// shellscan's record of a line printing its environment or a
		// credential variable (env, printenv, echo $GITHUB_TOKEN).
		return "the command prints the environment or a credential it holds (as reading /proc/self/environ does): an agent's environment holds keys, its model provider's among them"
	}
	return "the command reads a path that holds credentials or lite-agent's data (or a directory holding one): " +
		clip(strings.TrimSpace(p))
}

// readsTrees reports whether a command of the line reads whole directory
// trees, so that a directory operand holding a secret reads it (tar czf x
// ~, grep -r x .., cp -r ~ h, find ~, diff -rN ~ e): an archiver, a syncer or backup
// tool, find, a recursive searcher, git diff --no-index, or cp, grep, diff, gzip, zstd, md5deep or
// hashdeep given a recursive option. Other readers of a directory (cc -I.., make -C ..)
// read only the files they name, which are checked on their own.
func readsTrees(a *shellscan.Analysis) bool {
	return slices.ContainsFunc(a.Commands, func(c shellscan.Command) bool { return readsTree(splitCommand(a, c)) })
}

// readsTree reports whether c reads whole trees (see [readsTrees]).
func readsTree(c shellscan.Command) bool {
	name := filepath.Base(c.Name)
	switch name {
	case "tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zz", "rar", "cpio", "pax", "rsync", "scp", "rclone",
		"restic", "borg", "duplicity", "find", "fd", "fdfind", "rg", "ag", "ack", "ugrep", "ug", "git-crypt":
		return true
	}
	for i, w := range c.Args {
		switch {
		case recursiveLongOption(name, w):
			return true // grep --recur x ../home printed the home's keys
		case strings.HasSuffix(name, "grep") && grepRecurseAction(c.Args, i):
			return true // grep -d recurse PRIVATE ../home printed the home's keys
		case name == "git" && w == "--no-index":
			return true // git diff --no-index ~ e prints every file of ~
		case (name == "diff" || name == "colordiff") && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w[1:], "r"):
			return true // diff -rN ~ e prints every file of ~
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.ContainsAny(w[1:], "rRa") &&
			(name == "cp" || strings.HasSuffix(name, "grep") || name == "zstd" ||
				name == "gzip" || name == "md5deep" || name == "hashdeep"):
			return true
		}
	}
	return false
}

// grepRecurseAction reports whether args[i] is grep's -d (also after
// other letters, -id, or --directories and the abbreviations of it getopt
// takes) given the action recurse, which is -r: -d recurse, -drecurse,
// -id recurse, --directories=recurse, --dir recurse.
func grepRecurseAction(args []string, i int) bool {
	w := args[i]
	val, joined := "", false
	switch {
	case strings.HasPrefix(w, "--"):
		var opt string
		opt, val, joined = strings.Cut(w, "=")
		if len(opt) < len("--di") || !strings.HasPrefix("--directories", opt) {
			return false
		}
	case strings.HasPrefix(w, "-"):
		// The letters before d take no value (-e, -f, -m, -A, -B, -C
		// and -D would take the rest as theirs).
		j := strings.IndexByte(w[1:], 'd')
		if j < 0 || strings.ContainsAny(w[1:1+j], "efmABCD") {
			return false
		}
		val, joined = w[2+j:], len(w) > 2+j
	default:
		return false
	}
	if !joined {
		if i+1 >= len(args) {
			return false
		}
		val = args[i+1]
	}
	return val == "recurse"
}

// inputWords returns the words of the line's here-strings and
// here-documents (see [shellscan.Analysis.Inputs]), split at blanks and
// newlines as xargs splits them, each also without the quotes around it.
func inputWords(a *shellscan.Analysis) []string {
	var out []string
	for _, in := range a.Inputs {
		for _, f := range strings.Fields(in) {
			out = append(out, f)
			if t := strings.Trim(f, `"'`); t != f && t != "" {
				out = append(out, t)
			}
		}
		out = append(out, embeddedWords(in)...)
		out = append(out, xargsWords(in)...)
	}
	return out
}

// xargsWords returns w as xargs takes it (see xargsUnquote) and as read
// without -r takes it (its backslashes removed), with the paths each
// then holds (see embeddedWords and fileWords); nil when w holds no quote
// or backslash. A name the line makes in the project that reads as a
// secret path once unquoted (mkdir -p '.\.'/home/.ssh; touch
// '.\.'/home/.ssh/id_ed25519; find . -name 'id_*' | xargs cat read the key
// as ../home/.ssh/id_ed25519, and so did ."". for .., round 108) is no
// name of the project's once a command reads it as names.
func xargsWords(w string) []string {
	if !strings.ContainsAny(w, `\"'`) {
		return nil
	}
	var out []string
	for _, u := range []string{xargsUnquote(w), strings.NewReplacer(`\\`, `\`, `\`, "").Replace(w)} {
		if u != w && !slices.Contains(out, u) {
			out = append(append(append(out, u), fileWords(u)...), embeddedWords(u)...)
		}
	}
	return out
}

// xargsUnquote returns w as xargs without -0 or -d reads it: quotes
// removed, the text between them kept as it is, and a backslash outside
// them taking the next byte as it is.
func xargsUnquote(w string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(w); i++ {
		switch c := w[i]; {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			b.WriteByte(c)
		case c == '"' || c == '\'':
			quote = c
		case c == '\\' && i+1 < len(w):
			i++
			b.WriteByte(w[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// embeddedWords returns the paths a word w may hold after its start, as
// a program that reads names or requests from what a command prints
// takes them (echo "README ../home/.ssh/id_ed25519" | xargs cat, printf
// '.so ../home/.ssh/id_ed25519\n' | groff, whose .so, .mso and .cf work
// in its safe mode): w with the escapes of printf and echo -e decoded
// (\n, \t, \012, \x0a …), split at blanks, control characters, quotes,
// angle brackets, parentheses and the shell's separators. A part that
// begins with a tilde is left out (neither xargs nor roff expands it, and
// a message that mentions ~/.ssh is no read); so is w itself. Nil when w
// holds no separator.
func embeddedWords(w string) []string {
	if !strings.ContainsFunc(w, embeddedSep) && !strings.Contains(w, `\`) {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(decodeEscapes(w), embeddedSep) {
		// Every part: the line is bounded (64 KiB), and a cap let a
		// name after 64 others through (echo "README ×70
		// ../home/.ssh/id_ed25519" | xargs grep PRIVATE, round 100).
		if f == w || strings.HasPrefix(f, "~") || seen[f] {
			continue
		}
		seen[f] = true
		out = append(out, f)
		out = append(out, fileWords(f)...)
	}
	return out
}

// substituteReplacements returns the replacement texts of the s commands
// (sed's, perl's) a word may hold, s/PATTERN/REPLACEMENT/ with any
// delimiter: each with its escaped delimiter (\/) made plain and the
// escapes sed decodes (\x2f, \n …) decoded. The replacement is text the
// command prints, a name of the author's choosing: ls README | sed
// 's/.*/..\/home\/.ssh\/id_ed25519/' printed ../home/.ssh/id_ed25519 for
// cat $(…) to read (round 106), where embeddedWords saw no name.
func substituteReplacements(w string) []string {
	var out []string
	for i := 0; i+1 < len(w); i++ {
		if w[i] != 's' || i > 0 && !strings.ContainsRune("; \n\t{}", rune(w[i-1])) {
			continue
		}
		d := w[i+1]
		if d == '\\' || d == '\n' || d == ' ' || d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' {
			continue
		}
		parts, j := []string{}, i+2
		var b strings.Builder
		for ; j < len(w) && len(parts) < 2; j++ {
			switch {
			case w[j] == '\\' && j+1 < len(w) && w[j+1] == d:
				b.WriteByte(d)
				j++
			case w[j] == '\\' && j+1 < len(w):
				b.WriteString(w[j : j+2])
				j++
			case w[j] == d:
				parts = append(parts, b.String())
				b.Reset()
			default:
				b.WriteByte(w[j])
			}
		}
		if len(parts) == 2 && parts[1] != "" {
			out = append(out, decodeEscapes(parts[1]))
		}
	}
	return out
}

// embeddedSep reports whether r separates the names embeddedWords finds.
func embeddedSep(r rune) bool {
	return r <= ' ' || r == 0x7f || strings.ContainsRune("\"'`<>(),;|&", r) || unicode.IsSpace(r)
}

// decodeEscapes returns w with the backslash escapes printf and echo -e
// decode made into the bytes they stand for: \a \b \e \f \n \r \t \v,
// octal (\NNN, \0NNN), hexadecimal (\xHH) and bash's \uHHHH and
// \UHHHHHHHH (cat $(printf '..\u002fhome…') printed the key, round 107);
// any other backslash is kept.
func decodeEscapes(w string) string {
	if !strings.Contains(w, `\`) {
		return w
	}
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		if w[i] != '\\' || i+1 >= len(w) {
			b.WriteByte(w[i])
			continue
		}
		c := w[i+1]
		if c == '\\' {
			b.WriteByte(c)
			i++
			continue
		}
		if k := strings.IndexByte("abefnrtv", c); k >= 0 {
			b.WriteByte("\a\b\x1b\f\n\r\t\v"[k])
			i++
			continue
		}
		base, digits, j := 0, 0, i+1
		switch {
		case c == 'x':
			base, digits, j = 16, 2, i+2
		case c == 'u' || c == 'U':
			if r, n := unicodeEscape(w[i+2:], c); n > 0 {
				b.WriteRune(r)
				i += 1 + n
				continue
			}
		case c == '0':
			base, digits, j = 8, 3, i+2
		case c >= '1' && c <= '7':
			base, digits = 8, 3
		}
		n, v := 0, 0
		for ; base > 0 && n < digits && j+n < len(w); n++ {
			d := strings.IndexByte("0123456789abcdef"[:base], lower(w[j+n]))
			if d < 0 {
				break
			}
			v = v*base + d
		}
		if base == 0 || n == 0 && c == 'x' {
			b.WriteByte(w[i])
			continue
		}
		b.WriteByte(byte(v))
		i = j + n - 1
	}
	return b.String()
}

// unicodeEscape returns the character of bash's \uHHHH (kind 'u') or
// \UHHHHHHHH (kind 'U') escape whose hexadecimal digits, one or more,
// begin s, and the number of digits; 0 digits when s starts with none.
func unicodeEscape(s string, kind byte) (rune, int) {
	digits := 4
	if kind == 'U' {
		digits = 8
	}
	v, n := 0, 0
	for ; n < digits && n < len(s); n++ {
		d := strings.IndexByte("0123456789abcdef", lower(s[n]))
		if d < 0 {
			break
		}
		v = v*16 + d
	}
	if v > unicode.MaxRune {
		return unicode.ReplacementChar, n
	}
	return rune(v), n
}

// lower returns the ASCII letter c in lower case, any other byte as is.
func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
