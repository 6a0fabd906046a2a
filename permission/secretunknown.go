package permission

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"github.com/lite-agent/lite-agent-go/internal/secretpaths"
	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// maxUnknownVariants bounds the words unknownSecretRead makes of one word
// by putting in the values of the variables the line binds.
const maxUnknownVariants = 64

// unknownSecretRead returns, as the line names it, a word of the line
// with a part the analysis cannot know (a variable of the environment or
// bound to data, a command substitution, arithmetic) that may name a
// secret location (see [RuleBashSecretRead]); "" when there is none.
//
// The unknown part may be any path, the home directory too (OLDPWD,
// XDG_CONFIG_HOME, $(cd; pwd) …). The rule:
//   - a variable the line binds to words it knows (for f in ~/.pgpass,
//     h=~) is each of them, and the word so made is checked as a path
//     (a lower-case variable of the environment that an assignment in a
//     branch that does not run leaves is not seen);
//   - a word whose known tail, the text after its last unknown part, may
//     be the tail of a secret location or of a path beneath one
//     ($OLDPWD/.pgpass, $(echo ~)/.config/gh/hosts.yml, $X/.pgpa*) asks,
//     whatever the program;
//   - a word a command reads as a path that is wholly unknown (no known
//     tail) asks when its unknown part is a variable of the environment
//     (cat "$KUBECONFIG": the host's environment names credential files)
//     or a command substitution whose text names the home directory,
//     another variable or a bare cd ($(printf '%s/.pgp%s' ~ ass)); one
//     that is data the line's own commands make from the workdir (cat
//     "$f" after read f, cat $(git ls-files), for f in $(git ls-files))
//     is allowed: asking for it would ask for every loop over a project's
//     files, and the sandbox hides the credential stores behind the gate.
func (g *Gate) unknownSecretRead(a *shellscan.Analysis) string {
	tree := readsTrees(a)
	var (
		walked, complete bool
		links            []projectLink
		secrets          linkWalk // the secret locations, once worked out (see leadsAboveSecret)
	)
	// linked reports whether tail, the known end of a path read whose
	// head is unknown, goes through a symbolic link the project holds to
	// a secret (see linkedTail); the project is walked once a line, and a
	// walk that runs out of budget counts as finding one.
	linked := func(tail string, atLink bool) bool {
		if !walked {
			walked = true
			links, complete = g.projectLinks(a)
		}
		return !complete || g.linkedTail(links, tail, tree, atLink, &secrets)
	}
	// linkedWhole reports whether the project holds a link to a secret
	// location or a path beneath one, or to a directory holding one (or
	// may: the walk ran out of budget). A name beneath a link to a
	// directory that holds one (~, ~/.config) is made by a command that
	// follows links (find -L, which secretThroughLinks judges) or by the
	// line's text: find . -type l | sed 's|$|/.ssh/id_ed25519|' | xargs
	// cat read the key through d, a link to ~ (round 106).
	linkedWhole := func() bool {
		linked("", false)
		return !complete || slices.ContainsFunc(links, func(l projectLink) bool {
			return g.namesSecret([]string{""}, l.to, false, false) || g.leadsAboveSecret(l, &secrets)
		})
	}
	check := func(w string, whole bool) bool {
		if !strings.ContainsAny(w, "$`") {
			return false
		}
		if g.splitMaySecret(a, w, tree) {
			return true
		}
		vs, all := bindVars(w, a.Vars)
		if !all {
			return true
		}
		positional, ok := positionalVariants(w, a)
		if !ok {
			return true // more words than are checked: any may be a secret
		}
		variants := append(vs, positional...)
		for _, v := range slices.Clone(variants) {
			subst, ok := substVariants(v, a)
			if !ok {
				return true
			}
			variants = append(variants, subst...)
		}
		for _, v := range slices.Clone(variants) {
			// A default or an alternative a variable is given is a
			// value the word may take (see [shellscan.DefaultValues]).
			if d := shellscan.DefaultValues(v); d != v && !slices.Contains(variants, d) {
				variants = append(variants, d)
			}
		}
		for _, v := range variants {
			if whole && slices.ContainsFunc(a.Rewritten, func(r string) bool { return strings.Contains(v, r) }) {
				// Names a filter or a format of the line made out of
				// the project's (cat $(find h | sed s,^h,../home,),
				// round 107): see [shellscan.Analysis.Rewritten].
				return true
			}
			if g.splitMaySecret(a, v, tree) {
				return true
			}
			if e := g.envLocated(v, a.Vars); e != "" &&
				(g.namesSecretWord(a.Dirs, e) || strings.ContainsAny(e, "*?[{") && g.namesSecret(a.Dirs, e, true, false)) {
				return true
			}
			if !strings.ContainsAny(v, "$`") {
				// A tree reader reads the directory a variable holds
				// whole (d=../home; grep -r PRIVATE $d).
				if g.namesSecretWord(a.Dirs, v) || strings.ContainsAny(v, "*?[{") && g.namesSecret(a.Dirs, v, true, tree) ||
					tree && slices.ContainsFunc(append([]string{v}, fileWords(v)...), func(p string) bool { return g.namesSecret(a.Dirs, p, false, true) }) {
					return true
				}
				// A name inside the value, as a reader of what is
				// printed takes it (x="README ../home/.ssh/id_ed25519";
				// echo "$x" | xargs cat, round 98).
				if slices.ContainsFunc(embeddedWords(v), func(p string) bool { return g.namesSecretWord(a.Dirs, p) }) {
					return true
				}
				continue
			}
			tail, ok := knownTail(v)
			if !ok {
				tail = ""
			}
			if strings.HasPrefix(tail, "/") {
				tail = path.Clean(tail)
			}
			tail = unknownAbove(tail)
			if tail != "" && g.tailMaySecret(tail) {
				return true
			}
			if strings.HasPrefix(tail, "/") && g.namesSecret(a.Dirs, "."+tail, strings.ContainsAny(tail, "*?[{"), tree) {
				// The unknown part may be the working directory, which
				// the line names in many ways ($(pwd), $PWD or $OLDPWD
				// after a cd, $(realpath .), $(dirs +1)): the tail is
				// then read from there (cat $(pwd)/sub/s/id_ed25519
				// read the key through the project's link, round 105).
				return true
			}
			if atLink := strings.HasPrefix(tail, "/") && !fromEnvironment(v, a.Vars); (atLink ||
				strings.Contains(strings.Trim(tail, "/"), "/")) && linked(tail, atLink) {
				// The unknown head may be any directory of the project,
				// and the tail's directories links there (cat $(ls -d
				// su*)/s/id_ed25519, cat $(find . -name sub)/s/…); one
				// the line makes may be such a link itself (cat $(find .
				// -name s)/id_ed25519): stop 56.
				return true
			}
			if whole && tail == "" && g.wholeUnknownMaySecret(v, a.Vars) {
				return true
			}
			if whole && tail == "" && !fromEnvironment(v, a.Vars) && linkedWhole() {
				// Names the line's commands make from the project may
				// be a link it holds to a secret file, or lead beneath
				// one to a secret location (cat $(ls), ls | xargs cat,
				// cat $(find -L . -name id_ed25519) printed the key
				// through k, a link to ~/.ssh/id_ed25519: stop 56).
				return true
			}
			if whole && rootedHead(v) {
				return true
			}
		}
		return false
	}
	// A lister shows names, never contents (ls "$OLDPWD", ls -la
	// "$(dirname "$(pwd)")"): its words are no read. Nor are the words
	// echo and printf print (echo $GNUPGHOME) on a line of nothing else:
	// beside another command their output may be the names it reads
	// (echo $GNUPGHOME/k | xargs cat).
	printsOnly := !slices.ContainsFunc(a.Commands, func(c shellscan.Command) bool { return !listsNames(splitCommand(a, c)) && !printsWords(c) })
	read := map[string]bool{}
	for _, c := range a.Commands {
		if listsNames(splitCommand(a, c)) || printsOnly && printsWords(c) {
			continue
		}
		walks := readsTree(splitCommand(a, c))
		for _, w := range c.Args {
			read[w] = true
			if check(w, false) || walks && slices.Contains(a.DynamicReads, w) && walksUnknown(w, a.Vars) {
				return w
			}
		}
	}
	for _, w := range inputWords(a) {
		if check(w, false) {
			return w
		}
	}
	for _, w := range a.DynamicReads {
		if read[w] && check(w, true) {
			return w
		}
	}
	if a.DirsUnknown {
		// After cd - (to OLDPWD, which may be the home) a relative path
		// read is the known tail of a path whose start may be anything.
		var reads []string
		for _, acc := range a.Accesses {
			if acc.Mode == shellscan.Read && !acc.Runs && !acc.Venv && !acc.UvConfig && !acc.PipConfig {
				reads = append(reads, acc.Path)
			}
		}
		walks := readsTrees(a)
		for _, p := range append(reads, a.ReadPatterns...) {
			if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
				continue
			}
			// A tree read there (cd -P link/..; grep -r PRIVATE .
			// printed ~/.ssh's keys, round 92) may hold any secret
			// beneath it, whatever its known tail.
			if walks || g.tailMaySecret(unknownAbove(path.Clean("/"+p))) {
				return p
			}
		}
	}
	return ""
}

// envLocated returns w with each reference to a variable of the
// environment that moves a credential location of the home (GNUPGHOME,
// DOCKER_CONFIG, GH_CONFIG_DIR …, see [secretpaths.EnvLocations]) and that
// the line does not bind replaced by the location it stands for, so that
// $GNUPGHOME/private-keys-v1.d/k.key is checked as
// ~/.gnupg/private-keys-v1.d/k.key (gatecred67: bash printed the key);
// "" when w names none of them, when the home is unknown, or when an
// unknown part is left.
func (g *Gate) envLocated(w string, vars map[string][]string) string {
	if g.home == "" || !strings.Contains(w, "$") {
		return ""
	}
	locs := secretpaths.EnvLocations()
	w = envSubstituted(w, locs)
	replaced := false
	out := varRef().ReplaceAllStringFunc(w, func(ref string) string {
		name := strings.Trim(ref, "${}")
		rel, ok := locs[name]
		if _, bound := vars[name]; !ok || bound {
			return ref
		}
		replaced = true
		return path.Join(filepath.ToSlash(g.home), rel)
	})
	if !replaced || strings.ContainsAny(out, "$`") {
		return ""
	}
	return out
}

// splitMaySecret reports whether a text of w around its unknown parts
// (see [knownParts]), taken as a word of its own, names a secret
// location or a path beneath one (with tree, also a directory holding
// one): bash splits the value of an unquoted expansion at its blanks,
// and a value may be or start or end with one (IFS, PS4 is "+ "), so
// cat x${IFS}sub/s/id_ed25519 and cat x${PS4}sub/s/id_ed25519 read
// sub/s/id_ed25519, a link into ~/.ssh (round 103). The analysis keeps no
// quotes in w: a quoted expansion ("$d"sub/s/id_ed25519), which bash
// does not split, is taken as split too.
func (g *Gate) splitMaySecret(a *shellscan.Analysis, w string, tree bool) bool {
	parts, ok := knownParts(w)
	if !ok || len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p = strings.Trim(p, `"'`); p == "" {
			continue
		}
		if g.namesSecretWord(a.Dirs, p) || g.namesSecret(a.Dirs, p, strings.ContainsAny(p, "*?[{"), tree) {
			return true
		}
	}
	return false
}

// splitCommand returns c with the options bash may make of its words
// that hold an unknown part added to its Args, for the checks of what an
// option makes c do (see [readsTree], [commandFollowsLinks]): a text
// around an unknown part, bash splitting the value at its blanks (grep .
// sub x${IFS}-R and grep . $IFS--dereference-recursive read the links
// under sub, round 104), a word of a value the line binds (x="a -R";
// grep . sub $x), and, for a word with a command substitution, a word the
// line's echo or printf print or a here-string or here-document holds
// (grep . sub $(echo -R), xargs grep . sub <<< -R), and for one with a
// positional parameter, a word of a wrapper of the line, which may be
// sh -c given the parameters (sh -c 'grep . sub $1' _ -R). Only the words
// starting with '-' are added, each with the word after it, which may be
// its value (x${IFS}-d${IFS}recurse), so c's operands stay its own.
func splitCommand(a *shellscan.Analysis, c shellscan.Command) shellscan.Command {
	var more []string
	add := func(words []string) {
		for i, w := range words {
			if !strings.HasPrefix(w, "-") || slices.Contains(c.Args, w) {
				continue
			}
			more = append(more, w)
			if i+1 < len(words) {
				more = append(more, words[i+1])
			}
		}
	}
	for _, w := range c.Args {
		if !strings.ContainsAny(w, "$`") {
			continue
		}
		// Past maxUnknownVariants the words left are those check
		// (unknownSecretRead) asks for.
		vs, _ := bindVars(w, a.Vars)
		for _, v := range vs {
			if parts, ok := knownParts(v); ok {
				add(strings.Fields(strings.Join(parts, " ")))
			}
		}
		subst, positional := strings.Contains(w, "$(") || strings.Contains(w, "`"), positionalRef().MatchString(w)
		for _, p := range a.Commands {
			if subst && (printsWords(p) || path.Base(p.Name) == "printf") || positional && p.Wrapper {
				add(strings.Fields(strings.Join(p.Args, " ")))
			}
		}
		if subst {
			add(inputWords(a))
		}
	}
	if len(more) == 0 {
		return c
	}
	c.Args = append(slices.Clip(c.Args), more...)
	return c
}

// positionalVariants returns the words w may be when each positional
// parameter it names ($1, ${2}, $@, $0 …) is a word of a wrapper of the
// line, which may be sh -c given the parameters: sh -c 'cat $1/s/id_ed25519'
// _ sub read the key through sub/s (round 105), as round 104's options
// came that way (see [splitCommand]). Each reference takes each such word
// (a parameter may be shifted); words that hold an expansion or start
// with '-' are left out. Nil when w names no positional parameter; false
// when there would be more than maxUnknownVariants words, which are not
// made: one left out may be the secret.
func positionalVariants(w string, a *shellscan.Analysis) ([]string, bool) {
	refs := positionalSpan().FindAllStringIndex(w, -1)
	if len(refs) == 0 {
		return nil, true
	}
	var values []string
	for _, c := range a.Commands {
		if !c.Wrapper {
			continue
		}
		for _, v := range c.Args {
			if v != "" && !strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "$`") && !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
	}
	if len(values) == 0 {
		return nil, true
	}
	out := []string{""}
	end := 0
	for _, r := range refs {
		if len(out)*len(values) > maxUnknownVariants {
			return nil, false
		}
		var next []string
		for _, o := range out {
			for _, v := range values {
				next = append(next, o+w[end:r[0]]+v)
			}
		}
		out, end = next, r[1]
	}
	for i := range out {
		out[i] += w[end:]
	}
	return out, true
}

// substVariants returns the words w may be when each command
// substitution in it ($(…), `…`) prints a word the line spells out: a
// word echo or printf is given or printf prints (see printfWords), a word
// of a here-string or here-document, or the operand of a command that
// prints a path of it (realpath, readlink, dirname, basename) and its
// directory and base name. cat $(echo sub)/s/id_ed25519 and cat $(realpath
// sub)/s/id_ed25519 read the key through sub/s; the gate took the word for
// one with an unknown head and the harmless tail /s/id_ed25519 (round
// 105). Each substitution takes each such word, as round 104 took them
// for options (see [splitCommand]). Nil when w holds no substitution;
// false when there would be more than maxUnknownVariants words (see
// positionalVariants).
func substVariants(w string, a *shellscan.Analysis) ([]string, bool) {
	if !strings.Contains(w, "$(") && !strings.Contains(w, "`") {
		return nil, true
	}
	var values []string
	add := func(v string) {
		if v != "" && v != "." && v != "/" && !strings.HasPrefix(v, "-") && !strings.ContainsAny(v, "$`") && !slices.Contains(values, v) {
			values = append(values, v)
		}
	}
	for _, c := range a.Commands {
		switch path.Base(c.Name) {
		case "echo", "printf", "realpath", "readlink", "dirname", "basename", "grealpath", "greadlink":
		default:
			continue
		}
		for _, v := range append(slices.Clone(c.Args), printfWords(c)...) {
			add(v)
			add(path.Dir(v))
			add(path.Base(v))
		}
	}
	for _, v := range inputWords(a) {
		add(v)
	}
	if len(values) == 0 {
		return nil, true
	}
	out := []string{""}
	end := 0
	for i := 0; i < len(w); i++ {
		j := -1
		switch {
		case w[i] == '`':
			if k := strings.IndexByte(w[i+1:], '`'); k >= 0 {
				j = i + 1 + k
			}
		case strings.HasPrefix(w[i:], "$(") && !strings.HasPrefix(w[i:], "$(("):
			j = closing(w, i+1)
		}
		if j < 0 {
			continue
		}
		if len(out)*len(values) > maxUnknownVariants {
			return nil, false
		}
		var next []string
		for _, o := range out {
			for _, v := range values {
				next = append(next, o+w[end:i]+v)
			}
		}
		out, end, i = next, j+1, j
	}
	if end == 0 {
		return nil, true
	}
	for k := range out {
		out[k] += w[end:]
	}
	return out, true
}

// positionalSpan matches a whole reference to a positional parameter: $1,
// ${12}, $@, ${*}, $0.
var positionalSpan = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:\{[0-9@*]+\}|[0-9@*])`)
})

// positionalRef matches a reference to a positional parameter: $1, ${1},
// $@, $*, "${@}" and the like.
var positionalRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{?[0-9@*]`)
})

// rootedHead reports whether w, a word with an unknown part, begins at
// the home directory or the root (~/…, ~user…, /…) before that part: what
// the unknown part makes may be any path beneath it, a climb with ..
// included (cat ~/$(echo .pgpass), cat /tmp/$(echo ../root/.netrc)), so
// a read of it may read a secret whatever its known tail.
func rootedHead(w string) bool {
	i := strings.IndexAny(w, "$`")
	if i <= 0 {
		return false
	}
	head := strings.TrimLeft(w[:i], `"'`)
	return strings.HasPrefix(head, "~") || strings.HasPrefix(head, "/")
}

// unknownAbove returns the part of tail, the known end of a path whose
// start may be anything, after its last ".." component: what lies above
// an unknown directory may be anything too ($X/../.netrc).
func unknownAbove(tail string) string {
	if i := strings.LastIndex(tail, "/.."); i >= 0 && (i+3 == len(tail) || tail[i+3] == '/') {
		return tail[i+3:]
	}
	return tail
}

// printsWords reports whether c is echo or printf without -v: it prints
// its words (a variable that names a credential location among them),
// reading no file they name.
func printsWords(c shellscan.Command) bool {
	switch path.Base(c.Name) {
	case "echo":
		return true
	case "printf":
		return !slices.ContainsFunc(c.Args, func(w string) bool { return strings.HasPrefix(w, "-v") })
	}
	return false
}

// walksUnknown reports whether w, an operand of a command that reads
// whole trees (see [readsTree]), keeps a part only known when the line
// runs once the variables the line binds are put in (grep -r x $(echo
// ../home), d=$(cd; pwd); grep -r x "$d"): whatever data makes it, it
// may be the home or a link leading there, and the command reads every
// file beneath it, so no tail of the word tells what it reads.
func walksUnknown(w string, vars map[string][]string) bool {
	vs, all := bindVars(w, vars)
	return !all || slices.ContainsFunc(vs, func(v string) bool { return strings.ContainsAny(v, "$`") })
}

// listsNames reports whether c is a lister (see [isLister]) without an
// option that reads names from a file or a command it may run.
func listsNames(c shellscan.Command) bool {
	if !isLister(path.Base(c.Name)) || len(c.Guessed) > 0 {
		return false
	}
	for _, w := range c.Args {
		if strings.HasPrefix(w, "--") && strings.Contains(w, "from") {
			return false
		}
	}
	return true
}

// fromEnvironment reports whether no unknown part of w may be a link
// the project holds, found by the line: each is a reference to a
// variable the line does not bind, plain, with an operator (${X:-doc},
// whose default is a word of its own: see [shellscan.DefaultValues]) or
// printed (printenv X), whose value is the host's (cat $X/README, cat
// "$TMPDIR/out.txt"), which may be any directory as much as such a link;
// or a substitution whose output the line spells out, which the checks
// take as a word of its own: the working directory ($(pwd)), echo,
// realpath, dirname or basename of a word of plain characters ($(echo
// doc)/a: see substVariants), printf of words of no expansion (see
// printfWords), or the names xargs reads from a text the line spells out
// (echo doc/a | xargs grep x: see inputWords). Any other substitution, and a variable the
// line binds, may be the text of a link the line found (cat $(find .
// -name s)/id_ed25519, find . -name s | while read d; do cat $d/…; done).
func fromEnvironment(w string, vars map[string][]string) bool {
	unbound := func(name string) bool {
		_, bound := vars[name]
		return !bound
	}
	rest := envPart().ReplaceAllStringFunc(w, func(ref string) string {
		m := envPart().FindStringSubmatch(ref)
		switch {
		case m[1] != "" && unbound(m[1]), m[2] != "" && unbound(m[2]), m[3] != "" && unbound(m[3]), m[4] != "":
			return ""
		}
		return ref
	})
	return !strings.ContainsAny(rest, "$`")
}

// envPart matches the unknown parts fromEnvironment lets through: $name,
// ${name}, ${name with an operator and a word of no expansion},
// $(printenv name) (submatches 1 to 3), and $(pwd), $(echo|realpath|
// dirname|basename word of plain characters), $(printf words of no
// expansion) and the names xargs reads from a spelled text (submatch 4).
var envPart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:[-:=+?#%/^,][^${}` + "`" + `]*)?\}|\(printenv ([A-Za-z_][A-Za-z0-9_]*)\)|(\((?:pwd(?: -[LP])?|(?:echo|realpath|dirname|basename) [A-Za-z0-9_.+@%:,=][A-Za-z0-9_./+@%:,=-]*|printf [^$` + "`" + `()]+|xargs spelled input)\)))`)
})

// varRef matches a reference to a plain shell variable: $name or ${name}.
var varRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))`)
})

// bindVars returns the words w may be when each variable it names that
// the line binds to known values (vars, see [shellscan.Analysis.Vars]) is
// each of them, up to three levels deep (f=$h/x, h=~); w itself when it
// names none. Variables bound to no value (read f) and those of the
// environment keep their reference. It returns false, and not every
// word, when w may be more than maxUnknownVariants words: for a in x0 …
// x8 sub; do for b in /y0 … /s/id_ed25519; do cat $a$b; done; done
// printed the key while the words checked stopped short of sub/s/….
func bindVars(w string, vars map[string][]string) ([]string, bool) {
	out := []string{w}
	for range 3 {
		var next []string
		changed := false
		for _, v := range out {
			start, end, name := boundRef(v, vars)
			if name == "" {
				next = append(next, v)
				continue
			}
			changed = true
			for _, val := range vars[name] {
				if len(next) >= maxUnknownVariants {
					return next, false
				}
				next = append(next, v[:start]+bracedEnd(val, v[end:])+v[end:])
			}
		}
		out = next
		if !changed {
			break
		}
	}
	return out, true
}

// bracedEnd returns val, a variable's value put in before rest, with a
// $name it ends with written ${name} when rest starts with a letter, digit
// or underscore: y=q${x}sub with x="$PS4" is q${PS4}sub, not q$PS4sub, a
// variable of another name (round 103).
func bracedEnd(val, rest string) string {
	i := strings.LastIndexByte(val, '$')
	if rest == "" || !isNameChar(rest[0]) || i < 0 || i+1 == len(val) || val[i+1] >= '0' && val[i+1] <= '9' ||
		strings.IndexFunc(val[i+1:], func(r rune) bool { return r > 0x7f || !isNameChar(byte(r)) }) >= 0 {
		return val
	}
	return val[:i] + "${" + val[i+1:] + "}"
}

// isNameChar reports whether c may be part of a shell variable's name.
func isNameChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// boundRef returns the first reference in v to a variable bound to known
// values (its start and end and the variable's name); "" when there is
// none.
func boundRef(v string, vars map[string][]string) (start, end int, name string) {
	for _, m := range varRef().FindAllStringSubmatchIndex(v, -1) {
		n := ""
		if m[2] >= 0 {
			n = v[m[2]:m[3]]
		} else {
			n = v[m[4]:m[5]]
		}
		if len(vars[n]) > 0 {
			return m[0], m[1], n
		}
	}
	return 0, 0, ""
}

// knownTail returns the text of w after its last unknown part (an
// expansion the analysis kept as source text: $x, ${…}, $(…), $((…)),
// `…`); false when an expansion does not end.
func knownTail(w string) (string, bool) {
	parts, ok := knownParts(w)
	if !ok {
		return "", false
	}
	return parts[len(parts)-1], true
}

// knownParts returns the texts of w around its unknown parts (see
// knownTail), in order, "" where two meet or one starts or ends w: w
// alone when it has none; false when an expansion does not end.
func knownParts(w string) ([]string, bool) {
	var parts []string
	end := 0
	cut := func(from, to int) { // an unknown part, w[from:to]
		parts = append(parts, w[end:from])
		end = to
	}
	for i := 0; i < len(w); i++ {
		switch {
		case w[i] == '`':
			j := strings.IndexByte(w[i+1:], '`')
			if j < 0 {
				return nil, false
			}
			cut(i, i+2+j)
			i += 1 + j
		case w[i] == '$' && i+1 < len(w) && (w[i+1] == '(' || w[i+1] == '{'):
			j := closing(w, i+1)
			if j < 0 {
				return nil, false
			}
			cut(i, j+1)
			i = j
		case w[i] == '$' && i+1 < len(w):
			j := i + 1
			if c := w[j]; c >= '0' && c <= '9' || strings.IndexByte("@*#?$!-", c) >= 0 {
				j++
			} else {
				for j < len(w) && (w[j] == '_' || w[j] >= 'a' && w[j] <= 'z' || w[j] >= 'A' && w[j] <= 'Z' || w[j] >= '0' && w[j] <= '9') {
					j++
				}
			}
			if j > i+1 {
				cut(i, j)
				i = j - 1
			}
		}
	}
	return append(parts, w[end:]), true
}

// closing returns the index of the bracket that closes the one at w[i]
// ('(' or '{'), skipping quoted text; -1 when there is none.
func closing(w string, i int) int {
	open, shut := w[i], byte(')')
	if open == '{' {
		shut = '}'
	}
	depth := 0
	for j := i; j < len(w); j++ {
		switch w[j] {
		case '\'':
			k := strings.IndexByte(w[j+1:], '\'')
			if k < 0 {
				return -1
			}
			j += 1 + k
		case '\\':
			j++
		case open:
			depth++
		case shut:
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// tailMaySecret reports whether tail, the known end of a path whose start
// may be anything, may end a secret location or a path beneath one: a
// suffix of an entry of the secret list (/.pgpass, /gh/hosts.yml, also
// through a glob: /.pgpa*), or such a suffix followed by a path beneath
// it (/.ssh/id_rsa), or the tail of a secret file of /proc; each word of
// a brace expansion ({.pgpass,x}), in any letter case, as a
// case-insensitive file system opens names.
func (g *Gate) tailMaySecret(tail string) bool {
	for _, t := range pathmatch.BraceWords(tail) {
		t = pathmatch.FoldName(t)
		for _, s := range g.secrets {
			for _, s := range []string{s, g.lookups().Resolve(s)} {
				s = pathmatch.FoldName(s)
				if suffixMatches(t, s) {
					return true
				}
				for j := 1; j < len(t); j++ {
					if t[j] == '/' && suffixMatches(t[:j], s) {
						return true
					}
				}
			}
		}
	}
	if strings.HasPrefix(tail, "/") {
		for _, p := range []string{"/proc/1" + tail, "/proc/self" + tail, "/proc" + tail} {
			if secretpaths.IsProcSecret(path.Clean(p), false) {
				return true
			}
		}
	}
	return false
}

// suffixMatches reports whether the pattern (or plain text) t matches a
// suffix of s.
func suffixMatches(t, s string) bool {
	if strings.HasSuffix(s, t) {
		return true
	}
	if !strings.ContainsAny(t, "*?[") {
		return false
	}
	for i := range len(s) {
		if ok, err := path.Match(t, s[i:]); err == nil && ok {
			return true
		}
	}
	return false
}

// bareCd matches a cd without an operand, which goes to the home
// directory.
var bareCd = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[;&|(\s])cd\s*($|[;&|)])`) })

// wholeUnknownMaySecret reports whether w, a path read that holds no
// known tail, may be a secret location (see [Gate.unknownSecretRead]): a
// variable of the environment (one the line does not bind; positional
// and special parameters are empty in bash -c) or a command substitution
// whose text names the home directory, a variable, a backquote or a bare
// cd.
func (g *Gate) wholeUnknownMaySecret(w string, vars map[string][]string) bool {
	for _, m := range varRef().FindAllStringSubmatch(w, -1) {
		name := m[1] + m[2]
		if _, bound := vars[name]; !bound {
			return true
		}
	}
	for i := 0; i < len(w); i++ {
		var inner string
		switch {
		case w[i] == '`':
			j := strings.IndexByte(w[i+1:], '`')
			if j < 0 {
				return true
			}
			inner = w[i+1 : i+1+j]
			i += 1 + j
		case strings.HasPrefix(w[i:], "$(("):
			j := closing(w, i+1)
			if j < 0 {
				return true
			}
			inner = w[i+3 : j]
			i = j
			if strings.ContainsAny(inner, "$`~") {
				return true
			}
			continue
		case strings.HasPrefix(w[i:], "$("):
			j := closing(w, i+1)
			if j < 0 {
				return true
			}
			inner = w[i+2 : j]
			i = j
		default:
			continue
		}
		if strings.ContainsAny(inner, "$`~") || bareCd().MatchString(inner) ||
			(g.home != "" && strings.Contains(inner, g.home)) {
			return true
		}
	}
	return false
}

// envSubstituted returns w with each command substitution whose text
// names a variable of locs (printenv GNUPGHOME, env | sed -n
// s/^GNUPGHOME=//p) replaced by a reference to that variable: what it
// prints is the variable's value (review67g: cat $(printenv
// GNUPGHOME)/private-keys-v1.d/k.key printed the key in bash where cat
// $GNUPGHOME/… asked).
func envSubstituted(w string, locs map[string]string) string {
	var b strings.Builder
	for i := 0; i < len(w); i++ {
		end, inner := -1, ""
		switch {
		case w[i] == '`':
			if j := strings.IndexByte(w[i+1:], '`'); j >= 0 {
				end, inner = i+1+j, w[i+1:i+1+j]
			}
		case strings.HasPrefix(w[i:], "$(") && !strings.HasPrefix(w[i:], "$(("):
			if j := closing(w, i+1); j >= 0 {
				end, inner = j, w[i+2:j]
			}
		}
		if end < 0 {
			b.WriteByte(w[i])
			continue
		}
		name := ""
		for _, m := range envName().FindAllString(inner, -1) {
			if _, ok := locs[m]; ok {
				name = m
				break
			}
		}
		if name == "" {
			b.WriteString(w[i : end+1])
		} else {
			b.WriteString("${" + name + "}")
		}
		i = end
	}
	return b.String()
}

// envName matches the words of a text that may name a variable.
var envName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`) })

// A projectLink is a symbolic link the project holds: its name and where
// it leads.
type projectLink struct {
	name, to string
}

// projectLinks returns the symbolic links beneath the line's directories
// (the workdir and those its cd goes to), without following them, and
// whether the walk saw every entry within maxLinkWalk.
func (g *Gate) projectLinks(a *shellscan.Analysis) ([]projectLink, bool) {
	var links []projectLink
	var queue []string
	for _, d := range a.Dirs {
		if cwd := g.cwdOf(d); cwd != "" {
			queue = append(queue, g.lookups().ResolveFrom(cwd, g.workdir))
		}
	}
	w := &linkWalk{budget: maxLinkWalk, seen: map[string]bool{}, dirs: g.lookups()}
	_, complete := w.walk(queue, func(p string) (string, bool) {
		links = append(links, projectLink{name: filepath.Base(p), to: g.lookups().ResolveFrom(p, g.workdir)})
		return "", false
	})
	return links, complete
}

// linkedTail reports whether tail (/c1/…/cn), read beneath a directory
// the line does not name, may pass through one of links as one of its
// directories c1…cn-1, or with atLink begin where one leads, and name a
// secret location or a path beneath one (with tree, also a directory
// holding one) there: the head may be any directory of the project, the
// one holding the link too, and with atLink the link itself or, when the
// link leads to a directory holding a secret location, a path beneath it
// (see leadsAboveSecret, whose secret locations secrets keeps).
func (g *Gate) linkedTail(links []projectLink, tail string, tree, atLink bool, secrets *linkWalk) bool {
	if rest := strings.Trim(tail, "/"); atLink && rest != "" {
		// The head may be the link itself (cat $(find . -name
		// s)/id_ed25519, s a link to ~/.ssh).
		for _, l := range links {
			if g.namesSecret([]string{""}, filepath.Join(l.to, rest), strings.ContainsAny(rest, "*?[{"), tree) {
				return true
			}
			if g.leadsAboveSecret(l, secrets) {
				// The head may be a path beneath the link (cat $(ls -d
				// $(ls -d d)/.s*)/id_ed25519, d a link to ~: round 106).
				return true
			}
		}
	}
	comps := strings.Split(strings.Trim(tail, "/"), "/")
	for i, c := range comps[:len(comps)-1] {
		rest := strings.Join(comps[i+1:], "/")
		for _, l := range links {
			if !slices.ContainsFunc(pathmatch.BraceWords(c), func(alt string) bool {
				ok, err := path.Match(pathmatch.FoldName(alt), pathmatch.FoldName(l.name))
				return ok || err != nil
			}) {
				continue
			}
			if g.namesSecret([]string{""}, filepath.Join(l.to, rest), strings.ContainsAny(rest, "*?[{"), tree) {
				return true
			}
		}
	}
	return false
}

// leadsAboveSecret reports whether l leads to a directory that holds a
// secret location that exists (~ holding ~/.ssh): a path beneath the
// link may be that location or a path beneath it, whatever its tail. w
// keeps the secret locations worked out for the line (see
// linkWalk.secretPaths).
func (g *Gate) leadsAboveSecret(l projectLink, w *linkWalk) bool {
	if fi, err := os.Stat(l.to); err != nil || !fi.IsDir() {
		return false
	}
	return g.holdsSecretOf(l.to, w.secretPaths(g))
}
