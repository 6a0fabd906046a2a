package permission

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// maxLinkWalk bounds the directory entries linkedSecret looks at for one
// line; a tree larger than that asks.
const maxLinkWalk = 100_000

// ctagsNames are the names universal and exuberant ctags go by.
var ctagsNames = []string{"ctags", "etags", "ctags-universal", "universal-ctags", "uctags", "ctags-exuberant", "exuberant-ctags"}

// searchesWorkdir reports whether c, a command that follows links, reads
// its working directory when given no path: grep -R PATTERN, rg -L
// PATTERN, ctags -R.
func searchesWorkdir(c shellscan.Command) bool {
	name := filepath.Base(c.Name)
	operands := 0
	for _, w := range c.Args {
		if !strings.HasPrefix(w, "-") {
			operands++
		}
	}
	switch {
	case slices.Contains(ctagsNames, name):
		return operands == 0
	case name == "grep" || name == "egrep" || name == "fgrep" || name == "ugrep" || name == "ug" || name == "zgrep" ||
		name == "rg" || name == "ag" || name == "ack":
		return operands <= 1
	}
	return false
}

// commandFollowsLinks reports whether c follows the symbolic links it
// meets inside the directories it reads: grep -R, rg -L, fd -L, find -L,
// ag -f, ugrep -R/-S, tar -h, cp -L, rsync -L/-k, cpio -L, pax -L,
// rclone -L, and diff, zip, 7z, rar, scp -r, md5deep and hashdeep by
// default, and ack and ug, whose options files may say so. grep -R over a directory holding a link to ~/.ssh printed the
// key (round 84) while the gate saw only the directory, which holds no
// secret by its name.
//
// A command marked Wrapper follows links too: a command of a string that
// an unmodelled runner is given is marked so (hyperfine --show-output
// 'grep -R . sub' printed the key through sub/s, round 104), and a
// wrapper's own name (timeout, nice) is none of these.
func commandFollowsLinks(c shellscan.Command) bool {
	name := filepath.Base(c.Name)
	var short string
	switch name {
	case "zip", "7z", "7za", "7zz", "rar", "scp", "md5deep", "hashdeep":
		return !storesLinks(name, c.Args)
	case "diff", "colordiff":
		return !slices.Contains(c.Args, "--no-dereference") // diff -r reads what the links lead to
	case "grep", "egrep", "fgrep", "zgrep":
		short = "R"
	case "ugrep":
		// -S (--dereference-files; 3.x's --dereference) follows links
		// too: ugrep -rS PRIVATE sub printed ~/.ssh/id_ed25519 through
		// sub/s; and a configuration file (--config, ---FILE; .ugrep
		// by default) may hold dereference-recursive.
		short = "RS"
		if slices.ContainsFunc(c.Args, func(w string) bool { return strings.HasPrefix(w, "--config") || strings.HasPrefix(w, "---") }) {
			return true
		}
	case "ug":
		// ug is ugrep --config: it reads ./.ugrep or ~/.ugrep, which
		// may say dereference-recursive (printf 'dereference-recursive\n'
		// > .ugrep; ug PRIVATE sub printed the key through sub/s).
		return true
	case "rg", "fd", "fdfind", "find", "cp", "cpio", "pax", "rclone":
		short = "L"
	case "rsync":
		short = "Lk"
	case "tar", "bsdtar", "gtar":
		short = "h"
		if name == "bsdtar" {
			short = "hL"
		}
		if len(c.Args) > 0 && !strings.HasPrefix(c.Args[0], "-") && strings.Contains(c.Args[0], "h") {
			return true // tar chf x.tar dir
		}
	case "ag":
		short = "f"
	case "ack":
		// ack reads ~/.ackrc, the .ackrc of its directory or one above
		// it, $ACKRC and --ackrc's file before its words, and any of
		// them may say --follow (echo --follow > .ackrc; ack PRIVATE
		// sub printed the key through sub/s): only a last --nofollow
		// of its own words, or --noenv with no --ackrc, is sure.
		if ackNoFollow(c.Args) {
			return false
		}
		return true
	default:
		if slices.Contains(ctagsNames, name) {
			// ctags -R follows links unless --links=no: ctags -R -x
			// --language-force=Iniconf printed ~/.aws/credentials'
			// lines through a project link.
			return ctagsFollows(c.Args)
		}
		return false
	}
	for _, w := range c.Args {
		if w == "--" {
			break
		}
		switch {
		case w == "-follow" || longFollow(w):
			return true
		case name == "find" && strings.HasPrefix(w, "-") && len(w) > 2:
			// find's expressions (-name, -type …) are words, not
			// letters: only -L (before the paths) follows.
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && short != "" && strings.ContainsAny(w[1:], short):
			return true
		}
	}
	return false
}

// ackNoFollow reports whether ack given args surely does not follow
// links: its last --follow or --nofollow is --nofollow, or, with neither,
// --noenv keeps it from every options file and no --ackrc names one.
func ackNoFollow(args []string) bool {
	noenv, rc := false, false
	for i := len(args) - 1; i >= 0; i-- {
		switch w := args[i]; {
		case w == "--nofollow" || w == "--no-follow":
			return true
		case ackFollow(w):
			return false
		case w == "--noenv":
			noenv = true
		case strings.HasPrefix(w, "--ackrc"):
			rc = true
		}
	}
	return noenv && !rc
}

// ackFollow reports whether w may be ack's --follow: the name or, as
// Perl's Getopt::Long takes it, a prefix of it (ack --nofollow --fol
// followed the link to ~/.aws; --fo is ambiguous with --fortran and
// fails, which makes counting it an unneeded ask only).
func ackFollow(w string) bool {
	return len(w) > len("--") && strings.HasPrefix("--follow", w)
}

// followOptions are the long options that make a reader follow the links
// it meets (grep, cp, tar, rsync, rg, fd, ag, ack).
var followOptions = []string{"--dereference-recursive", "--follow", "--dereference", "--copy-links",
	"--copy-unsafe-links", "--copy-dirlinks", "--keep-dirlinks", "--dereference-files"}

// longFollow reports whether w is one of followOptions or, as GNU
// getopt_long and Perl's Getopt::Long take it, an abbreviation of one at
// least two letters long: grep --deref PRIVATE sub and cp -r --deref sub t
// followed the link to ~/.ssh like their full spellings.
func longFollow(w string) bool {
	if len(w) < len("--xy") || !strings.HasPrefix(w, "--") || strings.Contains(w, "=") {
		return false
	}
	return slices.ContainsFunc(followOptions, func(o string) bool { return strings.HasPrefix(o, w) })
}

// ctagsFollows reports whether ctags given args recurses into
// directories following links: -R (also among other letters, -Rx) or
// --recurse with a true value (yes, on, true, 1) that a later one does
// not take back, and --links not last set false.
func ctagsFollows(args []string) bool {
	recurse, links := false, true
	for _, w := range args {
		switch {
		case w == "--":
			return recurse && links
		case w == "--recurse" || strings.HasPrefix(w, "--recurse="):
			recurse = ctagsTrue(w)
		case w == "--links" || strings.HasPrefix(w, "--links="):
			links = ctagsTrue(w)
		case strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "R"):
			recurse = true
		}
	}
	return recurse && links
}

// followsFrom is commandFollowsLinks for c run from dirs (a line's
// Dirs): ctags also recurses, following links, when an options file it
// reads by itself says so (--recurse=yes in ./.ctags.d/*.ctags, which a
// cloned project may hold) and its own words do not take that back.
func (g *Gate) followsFrom(c shellscan.Command, dirs []string) bool {
	if commandFollowsLinks(c) {
		return true
	}
	if !slices.Contains(ctagsNames, filepath.Base(c.Name)) || !g.ctagsOptionFiles(dirs) {
		return false
	}
	recurse, links := true, true
	for _, w := range c.Args {
		switch {
		case w == "--recurse" || strings.HasPrefix(w, "--recurse="):
			recurse = ctagsTrue(w)
		case w == "--links" || strings.HasPrefix(w, "--links="):
			links = ctagsTrue(w)
		}
	}
	return recurse && links
}

// ctagsOptionFiles reports whether an options file or directory ctags
// reads without being told exists in the home or in one of dirs:
// .ctags.d and ctags.d (universal ctags), .ctags (exuberant), and
// ~/.config/ctags.
func (g *Gate) ctagsOptionFiles(dirs []string) bool {
	var places []string
	for _, d := range dirs {
		if cwd := g.cwdOf(d); cwd != "" {
			places = append(places, filepath.Join(cwd, ".ctags.d"), filepath.Join(cwd, "ctags.d"), filepath.Join(cwd, ".ctags"))
		}
	}
	if g.home != "" {
		places = append(places, filepath.Join(g.home, ".ctags.d"), filepath.Join(g.home, ".ctags"), filepath.Join(g.home, ".config", "ctags"))
	}
	return slices.ContainsFunc(places, func(p string) bool {
		_, err := os.Stat(p)
		return err == nil
	})
}

// ctagsTrue reports whether ctags takes the boolean option w (--opt or
// --opt=value) as set: its value is missing or not one of no, off, false
// and 0.
func ctagsTrue(w string) bool {
	_, v, ok := strings.Cut(w, "=")
	if !ok {
		return true
	}
	switch strings.ToLower(v) {
	case "no", "off", "false", "0":
		return false
	}
	return true
}

// storesLinks reports whether an archiver that follows links by default
// was told to store them as links (zip -y, 7z -snl).
func storesLinks(name string, args []string) bool {
	for _, w := range args {
		switch {
		case name == "zip" && (w == "--symlinks" || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "y")):
			return true
		case strings.HasPrefix(name, "7z") && w == "-snl":
			return true
		}
	}
	return false
}

// A linkWalk is what a walk of the line's trees (linkedSecret,
// projectLinks) has left to spend on one line, in directory entries, and
// the directories it has looked at already.
type linkWalk struct {
	budget int
	seen   map[string]bool
	// dirs reads the directories, once a line (see [Gate.lookups]).
	dirs *pathmatch.Lookups
	// secrets are the gate's secret locations, as named and resolved,
	// once worked out (see secretPaths), and secretSet the same prepared
	// for [pathmatch.Set.Hits].
	secrets   []string
	secretSet *pathmatch.Set
}

// secretPaths returns the gate's secret locations that exist, as named
// and resolved, working them out on the first call.
func (w *linkWalk) secretPaths(g *Gate) []string {
	if w.secrets == nil {
		w.secrets = []string{}
		for _, s := range g.secrets {
			for _, p := range []string{s, g.lookups().Resolve(s)} {
				if _, err := os.Lstat(p); err == nil {
					w.secrets = append(w.secrets, p)
				}
			}
		}
		w.secretSet = g.lookups().NewSet(w.secrets)
	}
	return w.secrets
}

// hitsSecretPath reports whether the resolved path to names one of the
// secret locations of secretPaths or lies beneath one: [pathmatch.Hits]
// on them, each resolved once a walk, not once a link.
func (w *linkWalk) hitsSecretPath(g *Gate, to string) bool {
	w.secretPaths(g)
	return w.secretSet.HitsResolved(to, g.lookups().Resolve(to), false)
}

// linkedSecret reports whether the directory at root (as the line names
// it, resolved from cwd, the command's directory) holds, at any depth, a symbolic link that leads to a
// secret location or to a directory holding one, following the links to
// directories as a command that follows links does. It spends w's
// budget, shared by the line's paths, and skips the directories w has
// seen; it reports true when the budget runs out: what it could not look
// at may hold such a link.
func (g *Gate) linkedSecret(root, cwd string, w *linkWalk) bool {
	real := g.lookups().ResolveFrom(root, cwd)
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return false
	}
	stopped, complete := w.walk([]string{real}, func(p string) (string, bool) {
		// to is resolved already: what hitsSecret resolves again for
		// each of thousands of links is looked up against the secrets
		// resolved once.
		to := g.lookups().ResolveFrom(p, cwd)
		if g.hitsSecretLocation(to, false) || w.hitsSecretPath(g, to) ||
			secretpaths.IsProcSecret(filepath.ToSlash(to), false) {
			return "", true
		}
		if raw, err := os.Readlink(p); err == nil && strings.ContainsAny(raw, "fdst") &&
			(strings.Contains(raw, "/fd") || strings.Contains(raw, "/std") || strings.Contains(raw, "proc")) &&
			g.lookups().ThroughDescriptor(p, cwd, true) {
			return "", true // a link to /dev/fd/3: any directory the line opened
		}
		if fi, err := os.Stat(to); err == nil && fi.IsDir() {
			// Only a directory holds a secret; the secrets' resolved
			// paths are worked out once a line (a link to /usr met
			// thousands of links and took 2 s resolving them all for
			// each).
			if g.holdsSecretOf(to, w.secretPaths(g)) {
				return "", true
			}
			return to, false
		}
		return "", false
	})
	return stopped || !complete
}

// walk visits, breadth first and without following links, the entries
// of the directories in queue and of the directories beneath them, each
// directory once (w.seen), spending one of w.budget per entry. It calls
// atLink with the path of each symbolic link met: atLink returns a
// directory to walk as well ("" for none) and whether to stop there.
// walk reports whether atLink stopped it, and whether it saw every entry
// within the budget.
func (w *linkWalk) walk(queue []string, atLink func(p string) (next string, stop bool)) (stopped, complete bool) {
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if w.seen[d] {
			continue
		}
		w.seen[d] = true
		entries, err := w.dirs.ReadDir(d)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if w.budget--; w.budget < 0 {
				return false, false
			}
			p := filepath.Join(d, e.Name())
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				next, stop := atLink(p)
				if stop {
					return true, true
				}
				if next != "" {
					queue = append(queue, next)
				}
			case e.IsDir():
				queue = append(queue, p)
			}
		}
	}
	return false, true
}

// holdsSecretOf reports whether the directory dir holds a secret location
// that exists (~ holding ~/.ssh, ~/.config holding ~/.config/gh), or a
// process's directory in /proc: a link that leads there, followed, reads
// the secret. A directory that would only hold one by name (~/.config
// with no gh in it) does not count: the walk looks at what is there.
// secrets are the secret locations that exist, as named and resolved
// (see linkWalk.secretPaths).
func (g *Gate) holdsSecretOf(dir string, secrets []string) bool {
	if secretpaths.IsProcSecret(filepath.ToSlash(filepath.Clean(dir)), true) {
		return true
	}
	return slices.ContainsFunc(secrets, func(p string) bool { return pathmatch.Within(p, dir) })
}

// copiesLinks reports whether c copies or moves the symbolic links it
// meets as links: cp -r (-R, -a, -d, -P, -H, --recursive, --archive,
// --no-dereference, --preserve=links), mv, and rsync -a or -l. A link
// so copied leads, from the copy, where it led (a relative link at the
// same depth): cp -r sub t && cat t/s/id_ed25519 read ~/.ssh through a
// copy of sub/s, a path that does not exist when the line is judged.
func copiesLinks(c shellscan.Command) bool {
	name := filepath.Base(c.Name)
	for _, w := range c.Args {
		if w == "--" {
			break
		}
		long := strings.HasPrefix(w, "--")
		switch {
		case name == "mv":
			return true
		case name == "cp" && long && (strings.HasPrefix(w, "--rec") || strings.HasPrefix(w, "--ar") ||
			strings.HasPrefix(w, "--no-d") || strings.HasPrefix(w, "--pre")):
			return true
		case name == "cp" && !long && strings.HasPrefix(w, "-") && strings.ContainsAny(w[1:], "PdaRrH"):
			return true
		case name == "rsync" && long && (strings.HasPrefix(w, "--ar") || strings.HasPrefix(w, "--li")):
			return true
		case name == "rsync" && !long && strings.HasPrefix(w, "-") && strings.ContainsAny(w[1:], "al"):
			return true
		}
	}
	return name == "mv"
}

// onlyWraps reports whether cmds[i] only runs the command after it, whose
// text ends its own: a wrapper (timeout 5 cp -r sub t: timeout) or a
// runner given it as a string (hyperfine 'cp -r sub t': hyperfine). It
// is no command of its own; a command of a string given to a runner,
// marked Wrapper (the cp of hyperfine 'cp -r sub t; cat
// t/s/id_ed25519'), is one. One of the two must be marked Wrapper, as
// the analysis marks a wrapper (timeout) and what a runner's string runs:
// a command whose words merely end with the next one's text (cat
// t/s/id_ed25519 cp -r sub t; cp -r sub t) is a command of its own.
func onlyWraps(cmds []shellscan.Command, i int) bool {
	return i+1 < len(cmds) && (cmds[i].Wrapper || cmds[i+1].Wrapper) && strings.HasSuffix(cmds[i].Text, " "+cmds[i+1].Text)
}

// secretThroughLinks returns, as the line names it, a directory the line
// reads, with a command that follows symbolic links, that holds a link to
// a secret (see linkedSecret); "" when there is none.
func (g *Gate) secretThroughLinks(a *shellscan.Analysis) string {
	walk := &linkWalk{budget: maxLinkWalk, seen: map[string]bool{}, dirs: g.lookups()}
	// A tree copied with its links, when it holds a link to a secret:
	// the copy, which another command of the line may read, holds one
	// too. A copy alone reads no secret (cp -r sub t, round 84's
	// ordinary line); a later line sees the copy's link where it is.
	commands := 0
	for i := range a.Commands {
		if !onlyWraps(a.Commands, i) {
			commands++
		}
	}
	for _, c := range a.Commands {
		if commands < 2 || !copiesLinks(c) {
			continue
		}
		for _, dir := range a.Dirs {
			for _, w := range c.Args {
				if !strings.HasPrefix(w, "-") && g.operandLinksSecret(a, dir, w, walk) {
					return w
				}
			}
		}
	}
	cmds := withGuessed(a.Commands)
	if !slices.ContainsFunc(cmds, func(c shellscan.Command) bool { return g.followsFrom(splitCommand(a, c), a.Dirs) }) {
		return ""
	}
	for _, acc := range a.Accesses {
		if acc.Mode != shellscan.Read || acc.Runs || acc.Venv || acc.UvConfig || acc.PipConfig {
			continue
		}
		for _, dir := range a.Dirs {
			target := g.absTarget(dir, acc.Path)
			if target == "" {
				continue
			}
			cands := []string{target}
			if acc.Pattern {
				cands = pathmatch.Glob(target)
			}
			for _, c := range cands {
				if g.linkedSecret(c, g.cwdOf(dir), walk) {
					return acc.Path
				}
			}
		}
	}
	// The operands of a command the analysis lists no reads for (ctags
	// -R sub), and the working directory a searcher given no path reads.
	for _, c := range cmds {
		if !g.followsFrom(splitCommand(a, c), a.Dirs) {
			continue
		}
		for _, dir := range a.Dirs {
			cwd := g.cwdOf(dir)
			for _, w := range c.Args {
				if !strings.HasPrefix(w, "-") && g.operandLinksSecret(a, dir, w, walk) {
					return w
				}
			}
			if searchesWorkdir(c) && cwd != "" && g.linkedSecret(cwd, cwd, walk) {
				return "."
			}
		}
	}
	return ""
}

// withGuessed returns cmds with, after each, the commands of its Guessed
// texts (see [shellscan.Command.Guessed]) split at blanks, marked Wrapper:
// a program the analysis does not model may run them (hyperfine
// --show-output 'ctags -R -x --language-force=Iniconf sub' printed the
// key through sub/s, round 104), and they follow links as the line's
// own would.
func withGuessed(cmds []shellscan.Command) []shellscan.Command {
	var out []shellscan.Command
	for _, c := range cmds {
		out = append(out, c)
		for _, t := range c.Guessed {
			if f := strings.Fields(t); len(f) > 0 {
				out = append(out, shellscan.Command{Name: f[0], Args: f[1:], Text: t, Wrapper: true})
			}
		}
	}
	return out
}

// operandLinksSecret reports whether the word w, an operand of a command
// that follows links, run from dir (one of a's Dirs), names a directory
// holding a link to a secret (see linkedSecret): each value a variable
// the line binds may give it (d=sub; grep -R x $d), each file a glob
// matches (grep -R x su*), and, for a part only known when the line runs
// ($(echo sub), what xargs reads), the working directory, where such a
// word most likely points. A word of more values than bindVars makes
// may name one.
func (g *Gate) operandLinksSecret(a *shellscan.Analysis, dir, w string, walk *linkWalk) bool {
	cwd := g.cwdOf(dir)
	vs, all := bindVars(w, a.Vars)
	if !all {
		return true
	}
	for _, v := range vs {
		if strings.ContainsAny(v, "$`") {
			if cwd != "" && g.linkedSecret(cwd, cwd, walk) {
				return true
			}
			continue
		}
		target := g.absTarget(dir, v)
		if target == "" {
			continue
		}
		cands := []string{target}
		if strings.ContainsAny(v, "*?[") {
			cands = pathmatch.Glob(target)
		}
		for _, c := range cands {
			if g.linkedSecret(c, cwd, walk) {
				return true
			}
		}
	}
	return false
}

// descriptorTree returns, as the line names it, an operand of a command
// of a line that reads trees or follows links that is a file descriptor
// (grep -r x /dev/fd/0 < .., tar chf - /dev/fd/3 3<..): the descriptor
// may be any directory the line opened; "" when there is none.
func (g *Gate) descriptorTree(a *shellscan.Analysis) string {
	walks := slices.ContainsFunc(a.Commands, func(c shellscan.Command) bool {
		name := filepath.Base(c.Name)
		return commandFollowsLinks(splitCommand(a, c)) && name != "diff" && name != "colordiff" // diff <(sort a) <(sort b) reads two pipes
	})
	if !walks && !readsTrees(a) {
		return ""
	}
	for _, c := range a.Commands {
		for _, w := range c.Args {
			for _, dir := range a.Dirs {
				if target := g.absTarget(dir, w); target != "" && g.lookups().ThroughDescriptor(target, g.cwdOf(dir), true) {
					return w
				}
			}
		}
	}
	return ""
}
