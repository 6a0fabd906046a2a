package shellscan

import (
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/internal/pathmatch"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// Limits of the bash analysis. A line beyond them is not fully analyzable.
const (
	maxCommandLen  = 64 << 10 // bytes of one command line
	maxUnits       = 1024     // simple commands of one line, nested scripts included
	maxNesting     = 8        // sh -c and eval scripts inside each other
	maxWrapChain   = 16       // wrappers (env, nice, sudo …) around one command
	maxCwds        = 16       // candidate working directories
	maxAccessPaths = 1024     // file paths one line reads, writes or deletes
)

// accessMode is what a command does with a path; its values are those of
// [Mode].
type accessMode uint8

const (
	modeRead   = accessMode(Read)
	modeWrite  = accessMode(Write)
	modeDelete = accessMode(Delete)
)

// maxReasons bounds the reasons one analysis keeps.
const maxReasons = 8

// A unit is one simple command of a line.
type unit struct {
	// text is the command's words after quote removal and the expansions
	// the analysis knows (~, $HOME, $PWD), joined by single spaces.
	// Expansions it does not know keep their source text.
	text string
	// name is the command name (the first word), args the others.
	name string
	args []string
	// others are other spellings that may only restrict: the text with
	// the command name reduced to its base name (/bin/rm → rm).
	others []string
	// guessed are, for a command the analysis does not model, the
	// commands it may run as guessed from its words (see innerSpellings).
	guessed []string
	// read are the commands of the scripts it may read: its standard
	// input, a file the line wrote (see innerSpellings).
	read []string
	// wrapper marks a command that only runs another one (env, nice,
	// timeout …); the wrapped command is a unit of its own.
	wrapper bool
}

// An access is a file a line reads, writes or deletes.
type access struct {
	mode accessMode
	// path is as written, after quote removal and known expansions;
	// relative paths are taken from each candidate working directory.
	path string
	// tree marks a write of a whole directory tree (cp -r, mv), which can
	// create files anywhere below path.
	tree bool
	// redirect marks a redirection target, pattern a path holding an
	// unquoted glob or brace pattern.
	redirect, pattern bool
	// unknown marks an argument of a command the analysis does not
	// model, which may write it.
	unknown bool
	// runs marks a directory whose code the command builds or runs (the
	// packages go test tests), which must lie in the workdir.
	runs bool
	// output marks an unknown path given as the value of an output
	// option (openssl … -out x.py, tool -o x.py): a file the command
	// most likely writes.
	output bool
	// executable marks a file chmod may make executable.
	executable bool
	// credential marks the read of the file a credential printer prints
	// (see credentialPrinter): a guessed command keeps it.
	credential bool
	// built marks an unknown path a compiler driver or make was given,
	// or the program go build writes of the workdir's own packages (see
	// goBuiltHere): what it writes there is built from the sources it
	// reads, which the analysis checks as code (see compiler and make).
	built bool
	// names marks the read of a command that shows only names and
	// metadata (ls, stat, du; see listsNamesOnly): a link a checkout made
	// there leads it to no file's contents.
	names bool
	// own marks an unknown path that is the very file its command runs
	// or builds as code (python3 x.py, make -f mk): the command reads
	// it, and that use is checked on its own.
	own bool
	// dir marks a directory mkdir makes.
	dir bool
	// venv marks a pip or python named in a virtual environment's bin
	// directory (see Access.Venv).
	venv bool
	// uvConfig marks the directory uv reads its settings from (see
	// Access.UvConfig).
	uvConfig bool
	// pipConfig marks a pip command whose settings files and environment
	// the caller checks (see Access.PipConfig).
	pipConfig bool
	// lookup marks, with venv, a program named without a path, which
	// PATH finds (see Access.Lookup).
	lookup bool
	// settings marks a settings file git may bring in (see
	// gitBringsSettings): code only to a use that names it, not as a
	// file of a bare name (see bareName).
	settings bool
}

// A bashAnalysis is what the analysis found in one command line.
type bashAnalysis struct {
	// scripts counts the command strings guessScript read, so that
	// guessCommand knows whether the command it guessed held one.
	scripts  int
	parsed   bool
	units    []unit
	accesses []access
	// cwds are the candidate working directories of relative paths: ""
	// for the starting directory, then the targets of cd (relative to
	// the starting directory, or absolute).
	cwds []string
	// scriptDirs are the directories a command string's cd went to, which
	// the line's own cwds no longer hold once the string ends (see
	// scopeCwds).
	scriptDirs []string
	// reasons, when not empty, say why the line is opaque.
	reasons []string
	// pathsUnknown, when set, says why the line may touch files the
	// analysis did not list (cat $F, cat *.txt …).
	pathsUnknown string
	// patterns are the glob words given to commands that may expand to
	// a name starting with '-' (see Analysis.Patterns).
	patterns []string
	// readPatterns are the glob words commands read (see
	// Analysis.ReadPatterns).
	readPatterns []string
	// localPrograms are the programs of node_modules/.bin that npx runs
	// only if they exist (see Analysis.LocalPrograms).
	localPrograms []string
	// unmodelled are the programs of commands the analysis does not
	// model (see Analysis.Unmodelled).
	unmodelled []string
	// vars are the shell variables the line binds (see Analysis.Vars).
	vars map[string][]string
	// dynamicReads are the read words only known when the line runs
	// (see Analysis.DynamicReads).
	dynamicReads []string
	// cwdUnknown reports that the line changes to a working directory
	// the analysis cannot follow (see Analysis.DirsUnknown).
	cwdUnknown bool
	// rewritten are the command substitutions whose output is names a
	// filter or a format of the line rewrote (see Analysis.Rewritten).
	rewritten []string
	// inputs are the texts of the here-strings and here-documents (see
	// Analysis.Inputs).
	inputs []string
}

// An analyzer walks one command line. The home directory and the starting
// working directory may be unknown (""), which makes ~, $HOME and $PWD
// unknown expansions.
type analyzer struct {
	// guessOf is the unmodelled program whose words guessInner reads, ""
	// where it is not known (see envSubcommand).
	guessOf string
	// uvPipWords marks the guessing among the words of uv pip, which
	// uvPip judged as uv's own pip (see uvPipGuessed).
	uvPipWords bool
	// direct marks the command being analyzed as one the line runs
	// itself, not through a wrapper (sudo resets PATH), a shell string or
	// a guess: PATH finds its program as it finds it for the line.
	direct bool
	// plainRead marks the command being analyzed as the read builtin with
	// plain names (see plainRead); readIFS holds the IFS prefixes such
	// commands were given.
	plainRead bool
	readIFS   map[*syntax.Assign]bool
	// shellVars holds the assignments that set a shell variable no
	// program reads (see shellVar).
	shellVars map[*syntax.Assign]bool
	// overflowed holds the variables the line binds to more values than
	// an analysis records (see bind): they stay out of vars.
	overflowed map[string]bool

	home, workdir string
	a             *bashAnalysis
	cwdChanged    bool
	// flow holds the working directories of the line's top-level
	// commands (see cwdFlow); callCwds are those of the command being
	// analyzed, when it knows them, and callCwdsOf the number of the
	// line's candidates then (see commandCwds).
	flow       *cwdFlow
	callCwds   []string
	callCwdsOf int
	cwdUnknown bool
	// physical marks the commands of a shell started with -P or -o
	// physical (bash -P -c '…'): each of its cd commands resolves the
	// symbolic links of its operand, as cd -P does (see physicalCd).
	physical bool
	// cdPath are the entries of the environment's CDPATH, the working
	// directory ("" too) as ".", none when it holds no other; cdableVars marks
	// cdable_vars set by its BASHOPTS (see Options.Env and cdElsewhere).
	cdPath     []string
	cdableVars bool
	// relPath are the directories of the environment's PATH that are
	// taken from the working directory ("" as "."; see pathSearched).
	relPath []string
	// linkFrom, once a command that may create or move a symbolic link
	// ran (cp, mv, rsync, some git commands), is the number of accesses
	// recorded before it ended: no path the line writes after that can
	// be resolved before the line runs. It is -1 before such a command.
	linkFrom int
	// linkAt are the paths the commands that may have made a link there
	// (cp, mv, rsync, scp) wrote, linkAnywhere is set once a command that
	// may make one at a path it does not name ran (git checkout, a
	// guessed command), and links counts the commands that may make one.
	linkAt       []access
	linkAnywhere bool
	links        int
	// checkoutAt, once a command that writes a working copy's files
	// from commits, a stash or a patch ran (git checkout of another
	// commit, pull, merge, clone …; hg update, svn up, gh pr checkout,
	// composer's path repositories: a linkAnywhere of linkMaker), is one
	// more than the number of accesses recorded before it ended: each of
	// those files may be a symbolic link the commit holds, which no look
	// at the file system before the line runs finds (see checkoutReads).
	// It is 0 before such a command.
	checkoutAt int
	// dynamicReadsAt are the numbers of accesses recorded when a command string
	// of the line read a word only known when it runs or a pattern (see
	// checkoutReads).
	dynamicReadsAt []int
	// linkZones are where the commands of linkMaker that make links in
	// known places may have made them, zoneOwn the ranges of accesses
	// of the programs of a virtual environment among them (see
	// linkMakerCall).
	linkZones []linkZone
	zoneOwn   [][2]int
	// looped is set once the line holds a loop, unordered once it holds
	// a loop, a pipeline or a background command: commands may then run
	// after commands that follow them in the text.
	looped, unordered bool
	// sawGit is set once the line runs git.
	sawGit bool
	// guess is set while a command an unmodelled command may run is
	// analyzed (see guessCommand); guessed counts those commands.
	guess   bool
	guessed int
	// stdinFed is set once the line gives a command a standard input of
	// its own: a pipe, an input redirection, a here-document or string.
	stdinFed bool
	// cur is the index in a.units of the command being analyzed, or -1.
	cur int
	// callPos is the position of the simple command being analyzed;
	// inputs are the scripts the statements around it may get on their
	// standard input (see stmtInput, pipeInput), written the text of the files
	// the line writes whose contents it spells out (echo x > f).
	callPos uint
	inputs  []input
	// callFrom is the number of accesses recorded before the simple
	// command being analyzed.
	callFrom int
	written  map[string]string
	// spelling holds the keys in written of the files spellWritten is
	// spelling, so that a file naming itself is spelled once.
	spelling map[string]bool
	// unknownText holds the keys (as in written) of the files the line
	// writes with a text only known when it runs (echo "$(…)" > f),
	// which spellWritten cannot spell.
	unknownText map[string]bool
	// filtered holds the keys (as in written) of the files the line
	// writes with a text it spells out changed by a filter the analysis
	// does not follow (printf X | tr A-Z a-z > g, sed s/a/b/ f > g after
	// echo … > f): names of the author's choosing that no word of the
	// line shows. spelledFed are the statements (offsets, no text) whose
	// standard input is such a text or one spelled out.
	filtered   map[string]bool
	spelledFed []input
	// handedTexts are the texts of the files the line wrote that the
	// command being analyzed is handed, for guessHanded.
	handedTexts []string
	// codeUses are the files whose code the line's commands run or
	// build, guessWrites the writes of guessed commands (see
	// guessCommand), which runsWrittenCode checks them against.
	codeUses    []codeUse
	guessWrites []guessWrite
	// guessedPaths are the operands with a slash of commands the
	// analysis does not model that name no program it models (dotenv
	// run ./gradlew): such a command may run the file, which
	// runsWritten checks against the files the line wrote.
	guessedPaths []string
	// handed are the paths the words of commands the analysis does not
	// model may name, and the words of files the line wrote that such a
	// command may read (see handedPrograms); handedAll is set once there
	// were more than maxHanded.
	handed    []codeUse
	handedAll bool
	// walkedSubst are the command substitutions substitutionsFirst
	// walked, which the walk passes over when it reaches them.
	walkedSubst map[*syntax.CmdSubst]bool
	// unnamed are the directories the line writes files into under names
	// it does not list, optionWords the words that start with '-' given
	// to commands the analysis does not model; patternsAt is the number of accesses recorded
	// before the last command given a pattern started, patternUnit that
	// command's unit (see patternsMeetUnnamed).
	unnamed                 []unnamedWrite
	optionWords             []optionWord
	patternsAt, patternUnit int
	// readRecipe reads the build recipes the line's runners run (see
	// Options.ReadRecipe); nil reads none.
	readRecipe RecipeReader
	// secretVars are the variables Options.SecretVars names.
	secretVars []string
	// callNode is the call being analyzed (see call), quietEnv the env
	// calls whose output provably carries no value (see markQuietEnv).
	callNode *syntax.CallExpr
	quietEnv map[*syntax.CallExpr]bool
	// inLoop holds the simple commands of the line's loops, which may
	// run more than once (see markLoop).
	inLoop map[*syntax.CallExpr]bool
}

// analyzeBash analyzes a bash command line. It never fails: what it cannot
// see through is recorded in the result's reasons and pathsUnknown.
func analyzeBash(line, home, workdir string) *bashAnalysis {
	return analyzeBashEnv(line, home, workdir, nil, nil)
}

// analyzeBashEnv is analyzeBash with the reader of build recipes (see
// Options.ReadRecipe), the environment the line starts with (see
// Options.Env) and the variables that hold secrets (see
// Options.SecretVars).
func analyzeBashEnv(line, home, workdir string, read RecipeReader, env []string, secretVars ...string) *bashAnalysis {
	an := &analyzer{home: home, workdir: workdir, a: &bashAnalysis{cwds: []string{""}}, linkFrom: -1, cur: -1, readRecipe: read, secretVars: secretVars}
	an.cdEnv(env)
	an.a.parsed = an.script(line, syntax.LangBash, 0)
	if an.linkFrom >= 0 {
		from := an.linkFrom
		if an.unordered {
			// A write earlier in the text may run after the link is made:
			// in a later turn of a loop, or in a background job or another
			// part of a pipeline that waits.
			from = 0
		}
		for _, acc := range an.a.accesses[from:] {
			// A settings file git may bring (see gitBringsSettings) is
			// git's own write, which replaces a link rather than
			// following it; a reader of it later on the line is refused
			// by runsWrittenCode.
			if acc.mode != modeRead && acc.path != "/dev/null" && !acc.settings {
				an.opaque("the command writes a path in a line that may create or move symbolic links first")
				break
			}
		}
	}
	an.unknownAfterLink()
	an.checkoutReads()
	an.readsThroughNodeModules()
	an.writesThroughZones()
	an.runsWritten()
	an.markRewrittenExecutables()
	an.handedPrograms()
	an.handedWrittenLater()
	an.runsWrittenCode()
	an.optionNamedWrites()
	an.patternsMeetUnnamed()
	if an.sawGit && an.cwdChanged && an.looped {
		an.opaque("git runs in a loop that changes the working directory, where it may use a configuration that is not protected")
	}
	an.a.cwdUnknown = an.cwdUnknown
	if an.cwdUnknown {
		for _, acc := range an.a.accesses {
			if !path.IsAbs(acc.path) {
				an.pathsUnknown("the working directory changes to a place the analysis cannot follow")
				if acc.mode != modeRead || acc.unknown {
					an.opaque("a relative path is written after the working directory changed to a place the analysis cannot follow")
				} else if strings.Contains(strings.TrimPrefix(path.Clean(acc.path), "./"), "/") {
					// Its directories may be links there (cd l/sub; cat
					// s/id_ed25519, l a link to /proc/self/cwd and s to
					// ~/.ssh): only its last name is judged by its text.
					an.opaque("a relative path through a directory is read after the working directory changed to a place the analysis cannot follow")
				}
			}
		}
	}
	return an.a
}

// runsWritten makes the line opaque when it runs a program by a path it
// also writes (cp /bin/rm x && ./x -f c, printf … > x.sh && ./x.sh): the
// program is code the line made, under a name no rule knows. A word given
// to a program the analysis does not model counts as a path it writes
// (objcopy -I binary -O binary b m && ./m copies the line's data there),
// but for a compiler's (cc -o m m.c && ./m builds m from sources whose
// code use is checked) and for the file the program itself runs as code,
// when a command that is no wrapper runs it.
func (an *analyzer) runsWritten() {
	if an.runsWrittenGuessed() {
		return
	}
	for _, u := range an.a.units {
		for _, name := range an.pathSearched(u.name) {
			if an.runsWrittenAs(u, name, !strings.Contains(u.name, "/")) {
				return
			}
		}
	}
}

// runsWrittenAs is runsWritten for the unit u, whose program is the file
// name (relative to each candidate working directory unless absolute):
// it makes the line opaque and reports true when the line writes it.
// For a name PATH found (searched), the words given to commands the
// analysis does not model are left out, since a command guessed among
// them (python3 -m spacy info guesses spacy) names the very word, and so
// are deletes (bun run rm -f c guesses c).
func (an *analyzer) runsWrittenAs(u unit, name string, searched bool) bool {
	for _, acc := range an.a.accesses {
		if searched && (acc.unknown || acc.mode == modeDelete) {
			continue
		}
		// A wrapper's unit, or one guessed among an unmodelled
		// command's words (kubectl set env deploy/x), is not run
		// after what the words name.
		if acc.unknown && (acc.built || acc.own || u.wrapper) || !acc.unknown && (acc.mode == modeRead || acc.built) {
			continue
		}
		for _, c := range an.a.cwds {
			// The program, and the file it is once the links of the
			// workdir on its way are followed (npx tool, with
			// node_modules/.bin/tool -> ../../tools/tool.sh, runs
			// tools/tool.sh; round 129).
			runs := []string{an.resolve(c, name)}
			if l := an.codeThroughLinks(codeUse{path: an.resolve(c, name)}); len(l) > 0 {
				runs = append(runs, l[0].path)
			}
			for _, c2 := range an.a.cwds {
				// Both made absolute when the workdir is known:
				// "$PWD"/s runs the s the line wrote (review67g:
				// cp /bin/rm s && "$PWD"/s -f c was allowed).
				wrote := an.resolve(c2, acc.path)
				// A word given to a command the analysis does not
				// model may be a directory it writes into (cmake -E
				// copy kit/tsc node_modules/.bin && npx tsc), but for
				// the virtual environment a line makes, whose own
				// programs it then runs (python3 -m venv v && v/bin/pip),
				// and a working directory (pip install -e .), which the
				// gate judges as a directory that holds the project's
				// protected paths.
				into := acc.unknown
				for _, z := range an.linkZones {
					if !z.nodeModules && an.resolve(c2, z.dir) == wrote {
						into = false
					}
				}
				for _, c3 := range an.a.cwds {
					if an.resolve(c3, ".") == wrote {
						into = false
					}
				}
				if acc.unknown && !acc.pattern {
					// A word of a command the analysis does not model
					// is no write writeThroughLinks saw: followed here.
					if l := an.codeThroughLinks(codeUse{path: wrote}); len(l) > 0 {
						wrote = l[0].path
					}
				}
				for _, run := range runs {
					if run == wrote || (acc.tree || acc.pattern || into) && strings.HasPrefix(run, wrote+"/") || acc.pattern {
						if acc.pattern && !patternMayMatch(wrote, run) {
							continue
						}
						an.opaque("the line runs " + clipName(u.name) + ", a program it writes")
						return true
					}
				}
			}
		}
	}
	return false
}

// maxGuessedPathChecks bounds the comparisons of runsWrittenGuessed
// between guessed paths and the trees or patterns the line writes.
const maxGuessedPathChecks = 1 << 16

// runsWrittenGuessed is runsWritten for guessedPaths, the paths given to
// commands the analysis does not model (dotenv run ./gradlew), each
// checked against the files the line's modelled commands write: it makes
// the line opaque and reports true if one is among them. The written
// paths are put in a set first, since a long line has many of both.
func (an *analyzer) runsWrittenGuessed() bool {
	if len(an.guessedPaths) == 0 {
		return false
	}
	written := map[string]bool{}
	var wide []string // trees and patterns, matched by prefix or pattern
	var patterns []bool
	for _, acc := range an.a.accesses {
		if acc.unknown || acc.mode == modeRead {
			continue
		}
		for _, c := range an.a.cwds {
			w := path.Join(c, acc.path)
			if path.IsAbs(acc.path) {
				w = path.Clean(acc.path)
			}
			if acc.tree || acc.pattern {
				wide, patterns = append(wide, w), append(patterns, acc.pattern)
			} else {
				written[w] = true
			}
		}
	}
	if len(wide)*len(an.guessedPaths)*len(an.a.cwds) > maxGuessedPathChecks {
		an.opaque("the line gives more paths to commands the analysis does not model than it compares with the trees and patterns it writes")
		return true
	}
	seen := map[string]bool{}
	for _, p := range an.guessedPaths {
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, c := range an.a.cwds {
			run := path.Join(c, p)
			if path.IsAbs(p) {
				run = path.Clean(p)
			}
			hit := written[run]
			for i := 0; i < len(wide) && !hit; i++ {
				hit = patterns[i] && patternMayMatch(wide[i], run) || !patterns[i] && strings.HasPrefix(run, wide[i]+"/")
			}
			if hit && an.executableNow(run) {
				an.opaque("the line gives " + clipName(p) + ", a file it writes, to a command the analysis does not model, which may run it")
				return true
			}
		}
	}
	return false
}

// executableNow reports whether p (relative to the workdir unless
// absolute) is an executable file now: a write keeps the mode of a file
// that exists (printf … > gradlew), while a file the line creates is not
// executable unless made so, which runsWrittenCode follows (chmod +x).
func (an *analyzer) executableNow(p string) bool {
	if !path.IsAbs(p) {
		if an.workdir == "" {
			return false
		}
		p = path.Join(an.workdir, p)
	}
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}

// markOwnCode marks the unknown accesses from index from on that name a
// file the code uses from index uses on run by its exact path (see
// access.own).
func (an *analyzer) markOwnCode(from, uses int) {
	if uses >= len(an.codeUses) {
		return
	}
	for i := min(from, len(an.a.accesses)); i < len(an.a.accesses); i++ {
		acc := &an.a.accesses[i]
		if !acc.unknown {
			continue
		}
		for _, u := range an.codeUses[uses:] {
			if u.names == nil && !u.given && u.path == acc.path {
				acc.own = true
				break
			}
		}
	}
}

// patternMayMatch reports whether the glob pattern p may match name or a
// directory above it.
func patternMayMatch(p, name string) bool {
	for n := name; n != "." && n != "/" && n != ""; n = path.Dir(n) {
		if ok, err := path.Match(p, n); ok || err != nil {
			return true
		}
	}
	return false
}

// opaque records why the line is not fully understood.
func (an *analyzer) opaque(why string) {
	if len(an.a.reasons) >= maxReasons || contains(an.a.reasons, why) {
		return
	}
	an.a.reasons = append(an.a.reasons, why)
}

func (an *analyzer) pathsUnknown(why string) {
	if an.a.pathsUnknown == "" {
		an.a.pathsUnknown = why
	}
}

// script parses and walks src; it reports whether src parsed.
func (an *analyzer) script(src string, lang syntax.LangVariant, depth int) bool {
	if depth > maxNesting {
		an.opaque("scripts nest too deeply")
		return false
	}
	if len(src) > maxCommandLen {
		an.opaque("the command is too long to analyze")
		return false
	}
	if !utf8.ValidString(src) {
		an.opaque("the command is not valid UTF-8")
		return false
	}
	if strings.ContainsRune(src, 0) {
		an.opaque("the command contains a NUL byte")
		return false
	}
	if strings.ContainsRune(src, '\r') {
		// The parser takes "\\<CR><LF>" as a line continuation; bash takes
		// an escaped CR and ends the command at the LF.
		an.opaque("the command contains a carriage return, which the shell and the analysis read differently")
	}
	if dollarContinued(src) {
		an.opaque("a line continuation follows a $, which the shell joins to what comes next before it expands")
	}
	if strings.Contains(src, "/dev/tcp/") || strings.Contains(src, "/dev/udp/") {
		an.opaque("the command names a /dev/tcp or /dev/udp socket")
	}
	f, err := syntax.NewParser(syntax.Variant(lang), syntax.KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		an.opaque("the command cannot be parsed")
		return false
	}
	if depth == 0 && an.flow == nil && !an.cwdChanged && slices.Equal(an.a.cwds, []string{""}) {
		an.flow = newCwdFlow(f)
	}
	// Positions are offsets in src: of the inputs of an enclosing script,
	// those of the command that runs this one (bash -c 'tool' <<< x)
	// apply to all of it.
	inputs := an.inputs
	an.inputs = nil
	for _, in := range inputs {
		if in.from <= an.callPos && an.callPos < in.to {
			an.inputs = append(an.inputs, input{0, uint(len(src)) + 1, in.text, in.spelled})
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		return an.node(n, src, depth)
	})
	an.inputs = inputs
	return true
}

// node checks one node of the syntax tree against the whitelist and
// records what it holds; it reports whether the walk should look inside.
func (an *analyzer) node(n syntax.Node, src string, depth int) bool {
	switch n := n.(type) {
	case *syntax.Comment:
		// The shell ends a comment at the newline, even after a
		// backslash; the parser takes "\<newline>" as a continuation and
		// drops the next line ("echo hi # x \<newline>rm -f c").
		if strings.Contains(n.Text, "\n") || strings.HasSuffix(n.Text, "\\") {
			an.opaque("a comment ends with a backslash, which the shell and the analysis read differently")
		}
	case nil, *syntax.File, *syntax.Block, *syntax.Subshell,
		*syntax.IfClause, *syntax.CaseClause, *syntax.CaseItem,
		*syntax.TimeClause, *syntax.Word, *syntax.Lit, *syntax.SglQuoted, *syntax.DblQuoted,
		*syntax.BraceExp, *syntax.ExtGlob, *syntax.WordIter:
	case *syntax.Stmt:
		if n.Background {
			an.unordered = true
		}
		_, simple := n.Cmd.(*syntax.CallExpr)
		for _, r := range n.Redirs {
			switch r.Op {
			case syntax.RdrIn, syntax.RdrInOut, syntax.DplIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
				an.stdinFed = true
			}
			switch r.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll, syntax.AppAll,
				syntax.RdrAllClob, syntax.AppAllClob, syntax.RdrInOut, syntax.DplOut:
				if r.Word == nil || r.Op == syntax.DplOut && (r.Word.Lit() == "-" || isDigits(strings.TrimSuffix(r.Word.Lit(), "-"))) {
					break // a file descriptor: { …; } 2>&1
				}
				if !simple && n.Cmd != nil {
					// The file a group's output goes to is written while
					// its commands run, which the walk records before
					// the redirection ({ echo …; python3 x.py; } > x.py).
					an.unordered = true
				}
			}
		}
		an.markQuietEnv(n)
		an.substitutionsFirst(n, src, depth)
		if len(n.Redirs) > 0 {
			an.stmtInput(n, src)
		}
	case *syntax.WhileClause:
		an.looped, an.unordered = true, true
		an.markLoop(n)
	case *syntax.BinaryCmd:
		switch n.Op {
		case syntax.Pipe, syntax.PipeAll:
			an.unordered, an.stdinFed = true, true
			an.pipeInput(n, src)
			an.markQuietEnv(n)
		case syntax.AndStmt, syntax.OrStmt:
		default:
			an.opaque("the command uses an operator the analysis does not know")
		}
	case *syntax.CallExpr:
		an.call(n, src, depth)
	case *syntax.Redirect:
		an.redirect(n, src)
	case *syntax.Assign:
		if !inertAssign(n) && !an.readIFS[n] && !an.shellVars[n] {
			an.opaque("an assignment changes the environment of what runs")
		}
		return true
	case *syntax.DeclClause:
		if n.Variant == nil || n.Variant.Value != "export" || len(n.Args) == 0 || !inertAssigns(n.Args) {
			an.opaque(n.Variant.Value + " assigns variables or their attributes")
		}
		an.decl(n, src)
	case *syntax.ForClause:
		an.looped, an.unordered = true, true
		an.markLoop(n)
		if it, ok := n.Loop.(*syntax.WordIter); ok && it.Name != nil {
			an.loopValues(it, src)
		}
		if it, ok := n.Loop.(*syntax.WordIter); !ok {
			an.opaque("an arithmetic for loop evaluates its expressions")
		} else if !loopVar(it.Name.Value) {
			an.opaque("a for loop assigns " + clipName(it.Name.Value) + ", which may change what later commands do")
		}
		if n.Select {
			an.opaque("select runs its body for input it reads")
		}
	case *syntax.ParamExp:
		an.envSecretParam(n)
		if !plainParam(n) {
			an.opaque("a parameter expansion with an index, a modifier or an indirection evaluates data")
		} else if n.Param.Value == "BASH_REMATCH" {
			// What a [[ =~ ]] matched, a text of the line's making that
			// is no variable of the environment: [[ sub/s =~ .* ]]; cat
			// $BASH_REMATCH/id_ed25519 read the key (round 106).
			an.opaque("BASH_REMATCH holds the text a [[ =~ ]] matched")
		}
	case *syntax.CmdSubst:
		if an.walkedSubst[n] {
			return false // see substitutionsFirst
		}
		an.cmdSubst(n, src)
	case *syntax.ProcSubst:
		an.opaque("a process substitution runs a command whose output is a file")
	case *syntax.ArithmExp:
		if literalArithm(n.X) {
			return false // numbers and operators: nothing to look into
		}
		an.opaque("an arithmetic context evaluates variables' contents as code")
		return true
	case *syntax.ArithmCmd:
		if literalArithm(n.X) {
			return false
		}
		an.opaque("an arithmetic context evaluates variables' contents as code")
		return true
	case *syntax.LetClause:
		an.opaque("an arithmetic context evaluates variables' contents as code")
		return true
	case *syntax.TestClause:
		an.testExpr(n.X)
	case *syntax.UnaryTest, *syntax.BinaryTest, *syntax.ParenTest:
		// checked by testExpr
	case *syntax.FuncDecl:
		an.opaque("a function changes what later commands run")
	case *syntax.CoprocClause:
		an.opaque("coproc runs a command in the background with pipes to the shell")
	default:
		an.opaque("the command uses shell syntax the analysis does not know")
	}
	return true
}

// shellVar reports whether a, a statement of assignments only, sets a
// variable as a for loop may (see loopVar): name=value, with any value the
// walk checks word by word (out=$(go test ./... 2>&1)), not +=, an array,
// an element or a bare name. The value is then data the line does not
// know, which every use treats as such, as it does a loop variable's.
func shellVar(a *syntax.Assign) bool {
	return a != nil && a.Name != nil && !a.Append && !a.Naked && a.Index == nil && a.Array == nil && loopVar(a.Name.Value)
}

// dollarContinued reports whether a '$', or the "$(" or "${" it starts,
// is followed by a backslash-newline. bash removes the pair first, also
// inside double quotes, so that "$\<newline>(rm c)" runs rm and
// "$\<newline>HOME" is the home directory; the parser takes the '$' for a
// literal there, and "$(\<newline>(x))" for a command substitution where
// bash reads arithmetic.
func dollarContinued(src string) bool {
	for i := strings.IndexByte(src, '$'); i >= 0; {
		j := i + 1
		if j < len(src) && (src[j] == '(' || src[j] == '{') {
			j++
		}
		if strings.HasPrefix(src[j:], "\\\n") {
			return true
		}
		k := strings.IndexByte(src[i+1:], '$')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// loopVar reports whether a for loop may assign name: a short lower-case
// name with no underscore, which no program reads from its environment.
func loopVar(name string) bool {
	if name == "" || len(name) > 16 || name[0] < 'a' || name[0] > 'z' {
		return false
	}
	for i := range len(name) {
		c := name[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// literalArithm reports whether x is arithmetic on decimal numbers only
// ($((60*5)), ((1))): operators and parentheses without a name, an
// expansion or an assignment, so that it evaluates nothing but itself.
func literalArithm(x syntax.ArithmExpr) bool {
	switch x := x.(type) {
	case *syntax.Word:
		lit, ok := x.Parts[0].(*syntax.Lit)
		return ok && len(x.Parts) == 1 && lit.Value != "" && strings.Trim(lit.Value, "0123456789") == ""
	case *syntax.BinaryArithm:
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn, syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn, syntax.ShlAssgn, syntax.ShrAssgn:
			return false
		}
		return literalArithm(x.X) && literalArithm(x.Y)
	case *syntax.UnaryArithm:
		if x.Op == syntax.Inc || x.Op == syntax.Dec {
			return false
		}
		return literalArithm(x.X)
	case *syntax.ParenArithm:
		return literalArithm(x.X)
	}
	return false
}

// clipName shortens a name for a reason.
func clipName(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// plainParam reports whether p is $name or ${name} (or ${#name}) with no
// index, modifier, indirection or transformation.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Width && !p.IsSet && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 && p.NestedParam == nil &&
		len(p.Modifiers) == 0 && p.Flags == nil
}

// testExpr checks the operators of a [[ ]] expression: arithmetic
// comparisons and -v, -R evaluate data as code.
func (an *analyzer) testExpr(x syntax.TestExpr) {
	switch x := x.(type) {
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsMatchShort, syntax.TsMatch, syntax.TsNoMatch, syntax.TsReMatch,
			syntax.TsNewer, syntax.TsOlder, syntax.TsDevIno, syntax.TsBefore, syntax.TsAfter,
			syntax.AndTest, syntax.OrTest:
		default:
			an.opaque("an arithmetic comparison in [[ ]] evaluates its operands as code")
		}
		an.testExpr(x.X)
		an.testExpr(x.Y)
	case *syntax.UnaryTest:
		switch x.Op {
		case syntax.TsVarSet, syntax.TsRefVar, syntax.TsOptSet:
			an.opaque("[[ " + x.Op.String() + " ]] evaluates a subscript or reads shell state")
		}
		an.testExpr(x.X)
	case *syntax.ParenTest:
		an.testExpr(x.X)
	}
}

// optionNamedWrites makes the line opaque when it writes a path with a
// component that starts with '-' (touch ./-delete), or, in a pattern, a
// brace that may expand to one (touch ./{-delete,x}, ./{,-}delete): a
// glob of a later command (find . -name c *lete) may match it and hand
// the command an option its checks took for an operand. "-" alone is
// standard output.
func (an *analyzer) optionNamedWrites() {
	for _, acc := range an.a.accesses {
		if acc.mode == modeRead {
			continue
		}
		for _, c := range strings.Split(acc.path, "/") {
			if len(c) > 1 && c[0] == '-' || acc.pattern && braceMayLead(c, '-') {
				an.opaque("the line writes " + clipName(acc.path) + ", a name a glob may hand to a command as an option")
				return
			}
		}
	}
}

// braceMayLead reports whether the path component c, a pattern, is a
// brace whose expansion may start with b: c starts with '{' and an
// alternative of one of its braces starts with b ({-delete,x}, {,-}x).
func braceMayLead(c string, b byte) bool {
	if !strings.HasPrefix(c, "{") {
		return false
	}
	for i := 1; i < len(c); i++ {
		if c[i] == b && (c[i-1] == '{' || c[i-1] == ',') {
			return true
		}
	}
	return false
}

// call records a simple command.
func (an *analyzer) call(c *syntax.CallExpr, src string, depth int) {
	prevCwds, prevOf := an.callCwds, an.callCwdsOf
	an.callCwds, _ = an.flow.cwdsOf(c)
	an.callCwdsOf = len(an.a.cwds)
	defer func() { an.callCwds, an.callCwdsOf = prevCwds, prevOf }()
	if len(c.Args) == 0 {
		// Assignments only; the walk checks them.
		for _, a := range c.Assigns {
			an.assignValue(a, src)
			if shellVar(a) {
				if an.shellVars == nil {
					an.shellVars = map[*syntax.Assign]bool{}
				}
				an.shellVars[a] = true
			}
		}
		return
	}
	read := plainRead(c)
	if read {
		if an.readIFS == nil {
			an.readIFS = map[*syntax.Assign]bool{}
		}
		for _, a := range c.Assigns {
			an.readIFS[a] = true // IFS= read -r line
		}
		for _, w := range c.Args[1:] {
			if t := w.Lit(); loopVar(t) {
				an.bind(t) // bound to the data read
			}
		}
	} else if !inertAssigns(c.Assigns) {
		an.opaque("an assignment prefix changes the environment of the command")
	}
	ws := make([]word, len(c.Args))
	for i, w := range c.Args {
		ws[i] = an.word(w, src)
	}
	if strings.HasPrefix(ws[0].text, "-") {
		// bash's time takes "--" before its command ("time -- rm x"), which
		// the parser leaves as the command's name.
		an.opaque("a command name that starts with '-' (time -- …)")
	}
	an.callPos = c.Pos().Offset()
	prevCall := an.callNode
	an.callNode = c
	defer func() { an.callNode = prevCall }()
	an.callFrom = len(an.a.accesses)
	uses := len(an.codeUses)
	an.plainRead = read
	an.command(ws, depth, 0)
	an.plainRead = false
	an.markOwnCode(an.callFrom, uses)
	an.filterWrites(ws)
	an.formatWrites(ws)
	an.copyWritten(ws)
}

// decl records declare, export, local, readonly and typeset as a command,
// so that rules about them apply.
func (an *analyzer) decl(d *syntax.DeclClause, src string) {
	if d.Variant == nil {
		return
	}
	words := []string{d.Variant.Value}
	for _, a := range d.Args {
		words = append(words, sourceText(src, a))
	}
	an.addUnit(unit{text: strings.Join(words, " "), name: d.Variant.Value, args: words[1:]})
}

// redirect records the file a redirection reads or writes.
func (an *analyzer) redirect(r *syntax.Redirect, src string) {
	if r.Hdoc != nil && r.Word != nil {
		// A here-document expands its body unless its delimiter is quoted.
		quoted := false
		for _, p := range r.Word.Parts {
			if _, ok := p.(*syntax.Lit); !ok {
				quoted = true
			} else if strings.ContainsAny(p.(*syntax.Lit).Value, `\'"`) {
				quoted = true
			}
			if sq, ok := p.(*syntax.SglQuoted); ok && sq.Dollar {
				// bash decodes the escapes of a $'…' delimiter (<<$'E\x41'
				// ends at "EA"); the parser keeps them, and would read the
				// lines after bash's end of the body as data.
				an.opaque("a here-document delimiter is in $'…' quotes, which the shell and the analysis read differently")
			}
		}
		if !quoted && strings.Contains(hdocSource(src, r), "\\\n") {
			// bash joins the lines of a backslash-newline before it looks
			// for the delimiter ("\\<newline>EOF" ends the body); the parser
			// does not.
			an.opaque("a here-document continues a line with a backslash")
		}
		if !quoted {
			for _, p := range r.Hdoc.Parts {
				if lit, ok := p.(*syntax.Lit); !ok || strings.ContainsAny(lit.Value, "$`") {
					an.opaque("a here-document expands its body")
					break
				}
			}
		}
	}
	if r.Word == nil {
		return
	}
	var mode accessMode
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob,
		syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
		mode = modeWrite
	case syntax.RdrIn:
		mode = modeRead
	case syntax.RdrInOut:
		mode = modeWrite
	case syntax.DplOut, syntax.DplIn:
		w := an.word(r.Word, src)
		if !w.dynamic && !w.pattern && (w.text == "-" || isDigits(strings.TrimSuffix(w.text, "-"))) {
			return // a file descriptor
		}
		mode = modeWrite
	case syntax.WordHdoc:
		an.a.inputs = append(an.a.inputs, an.word(r.Word, src).text)
		return
	case syntax.Hdoc, syntax.DashHdoc:
		if text, ok := an.redirText(r, src); ok {
			an.a.inputs = append(an.a.inputs, text)
		}
		return
	default:
		return
	}
	if r.N != nil && !isDigits(r.N.Value) {
		an.opaque("a redirection names its file descriptor with a variable")
	}
	w := an.word(r.Word, src)
	switch {
	case w.dynamic || w.special:
		an.opaque("a redirection target is only known when the command runs")
		return
	case w.pattern:
		if mode != modeRead {
			an.opaque("a redirection target is a pattern")
		}
	}
	an.addAccessOf(w, mode, "a redirection", false, true)
}

// hdocSource returns the source of the body of the here-document r: from
// the line after its operator to its end (the parser's position of the
// body may start after a first line it joined to the next).
func hdocSource(src string, r *syntax.Redirect) string {
	start, end := int(r.Word.End().Offset()), int(r.Hdoc.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return src
	}
	body := src[start:end]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		return body[i:]
	}
	return body
}

// pathArg records w as a path of mode, or notes that it cannot be known.
func (an *analyzer) pathArg(w word, mode accessMode, what string) {
	an.addAccess(w, mode, what, false)
}

// addAccess is pathArg for a write of a whole tree when tree is set.
func (an *analyzer) addAccess(w word, mode accessMode, what string, tree bool) {
	an.addAccessOf(w, mode, what, tree, false)
}

// addAccessOf records an access. A written pattern is recorded with
// pattern set, so that the caller can match it against the paths it
// protects; any other path that is only known when the line runs is
// noted as unknown.
func (an *analyzer) addAccessOf(w word, mode accessMode, what string, tree, redirect bool) {
	if mode != modeRead && !w.dynamic && !w.special {
		if _, ok := pathmatch.OtherProcessCwd(w.text); ok {
			// Where another process's working directory leads only the
			// running system tells (the agent's, an editor's: echo x >>
			// /proc/PID/cwd/.bashrc wrote the home's .bashrc in bash
			// under bwrap, taken for the command's own directory): a
			// path only known when the command runs. A read is the
			// gate's to judge by what follows the directory.
			w.dynamic = true
		}
	}
	switch {
	case w.special:
		return
	case w.dynamic:
		an.pathsUnknown(what + " uses a path that is only known when the command runs")
		switch {
		case mode != modeRead:
			an.opaque(what + " writes a path that is only known when the command runs")
		case len(an.a.dynamicReads) < maxDynamicReads:
			an.a.dynamicReads = append(an.a.dynamicReads, w.text)
			an.dynamicReadsAt = append(an.dynamicReadsAt, len(an.a.accesses))
		case !slices.Contains(an.a.dynamicReads, w.text):
			// A read past the bound is one the gate would not check
			// (x=a; cat doc/${x}0 … doc/${x}69 ~/$(echo
			// .ssh/id_ed25519) printed the key).
			an.opaque(what + " reads more paths only known when the command runs than the analysis checks")
		}
		if mode == modeRead && strings.HasPrefix(w.text, "~") {
			// A tilde prefix left to bash (~root/.netrc, ~+/x, also as
			// a word of a brace expansion): the gate looks it up.
			an.readPattern(w.text)
		}
		return
	case w.pattern:
		an.pathsUnknown(what + " uses a pattern that matches paths only known when the command runs")
		if w.tooMany {
			if mode == modeRead {
				an.opaque(what + " reads the paths of a brace expansion into too many words to check")
			} else {
				an.opaque(what + " writes the paths of a brace expansion into too many words to check")
			}
			return
		}
		// Each word of a brace expansion is a path of its own, judged
		// as a literal or as a pattern: bash expands the braces before
		// the tilde, so {~/.ssh/id_rsa,x} reads ~/.ssh/id_rsa.
		for _, alt := range w.alts {
			an.addAccessOf(alt, mode, what, tree, redirect)
		}
		if mode == modeRead {
			if w.alts == nil {
				an.readPattern(w.text)
			}
			return
		}
	case w.text == "":
		return
	}
	if len(an.a.accesses) >= maxAccessPaths {
		an.pathsUnknown("the command touches too many paths to check")
		an.opaque("the command touches too many paths to check")
		return
	}
	an.a.accesses = append(an.a.accesses, access{mode: mode, path: w.text, tree: tree, redirect: redirect, pattern: w.pattern})
	if mode == modeWrite {
		an.writeThroughLinks(len(an.a.accesses) - 1)
	}
}

// writeThroughLinks records, beside the write at index i, a write of the
// file it reaches once the symbolic links of the workdir on its way are
// followed, where that is another name in the workdir: cat kit/package.json
// > pj && npm test, with pj -> package.json, and printf … > b/tsc && npx
// tsc, with b -> node_modules/.bin, wrote the file a later command ran as
// code under the name the link leads to, while the checks of what a line
// runs after writing it compare names (stop 62). The path is walked as the
// kernel walks it, from the working directory bash keeps (cd is logical):
// a ".." after a link steps back from where the link led (nf/../.bin/tsc,
// with nf -> node_modules/foo, is node_modules/.bin/tsc, not .bin/tsc).
// A pattern's existing matches are resolved each (tee ?j, with pj ->
// package.json), and /proc/self/cwd is the command's working directory,
// not the analysis's. The links are looked up as they are now; one the line
// itself makes is linkFrom's. A write that leads out of the workdir is the
// caller's to judge (it resolves every path it checks), as is any write
// when the workdir is unknown. A name it cannot record for want of room
// makes the line opaque.
func (an *analyzer) writeThroughLinks(i int) {
	if an.workdir == "" || !path.IsAbs(an.workdir) {
		return
	}
	acc := an.a.accesses[i]
	wd := path.Clean(an.workdir)
	realWd := filepath.ToSlash(pathmatch.Resolve(filepath.FromSlash(wd)))
	seen := map[string]bool{}
	// record adds the write of real (rest appended) for the lexical name
	// abs; it reports false once the line is opaque.
	record := func(abs, real, rest string, pattern bool) bool {
		if real == abs || !within(real, realWd) {
			return true
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(real, realWd), "/")
		alias := path.Join(wd, rel) + rest
		if alias == abs+rest || seen[alias] {
			return true
		}
		if len(an.a.accesses) >= maxAccessPaths {
			an.pathsUnknown("the command writes through symbolic links to too many paths to check")
			an.opaque("the command writes through symbolic links to too many paths to check")
			return false
		}
		seen[alias] = true
		a := acc
		a.path, a.pattern = alias, pattern
		an.a.accesses = append(an.a.accesses, a)
		return true
	}
	for _, c := range an.a.cwds {
		abs := an.resolve(c, acc.path)
		// The command's own /proc/self/cwd is c, not the analysis's.
		cwd := filepath.FromSlash(an.resolve(c, "."))
		resolve := func(p string) string { return filepath.ToSlash(pathmatch.ResolveFrom(filepath.FromSlash(p), cwd)) }
		if !acc.pattern {
			walk := acc.path
			if !path.IsAbs(walk) {
				walk = an.resolve(c, ".") + "/" + walk
			}
			if !record(abs, resolve(walk), "", false) {
				return
			}
			continue
		}
		dir := filepath.ToSlash(pathmatch.LiteralDir(filepath.FromSlash(abs)))
		realDir, rest := resolve(dir), strings.TrimPrefix(abs, dir)
		if !record(dir, realDir, rest, true) {
			return
		}
		for _, m := range pathmatch.Glob(filepath.FromSlash(realDir + rest)) {
			if !record(path.Clean(filepath.ToSlash(m)), resolve(filepath.ToSlash(m)), "", false) {
				return
			}
		}
	}
}

// unknownArgs records the words of a command the analysis does not model
// that may name files, as paths it may write: every operand, the value of
// an option given with '=', what follows the first '/' of an option word
// (-o/abs/path) or, when a ':' comes before that '/', what follows the
// ':' (-javaagent:lib/a.jar), and each value a cluster of one-letter options may carry
// attached (-fpre-commit: "pre-commit", "re-commit" …). The caller makes a
// line opaque when one of them is protected, outside the workdir or not an
// ordinary file there.
func (an *analyzer) unknownArgs(args []word) {
	an.unknownCwd()
	for i, a := range args {
		if a.dynamic || a.special || a.text == "" {
			continue
		}
		out := outputValue(args, i)
		var cands []string
		_, v, hasValue := strings.Cut(a.text, "=")
		switch {
		case !strings.HasPrefix(a.text, "-"):
			cands = append(cands, a.text)
			if hasValue && v != "" {
				cands = append(cands, v) // of=/path, as dd takes it
			}
		case hasValue && v != "":
			cands = append(cands, v)
		case strings.IndexByte(a.text, '/') > 0:
			slash := strings.IndexByte(a.text, '/')
			// -o/abs/path: the path from the slash; -javaagent:lib/a.jar,
			// -x:sub/f: the value after the colon, a path from the
			// working directory (its slash no root). A value after the
			// colon that starts with ~ (which the program may expand
			// itself) keeps the path from the slash, outside.
			from := slash
			if colon := strings.LastIndexByte(a.text[:slash], ':'); colon >= 0 && a.text[colon+1] != '~' {
				from = colon + 1
			}
			cands = append(cands, a.text[from:])
		}
		cands = attachedValues(a.text, cands)
		cands, ok := nestedValues(cands)
		if !ok {
			an.opaque("an option value holds too many nested values to check")
			return
		}
		for _, c := range cands {
			if len(an.a.accesses) >= maxAccessPaths {
				an.opaque("the command touches too many paths to check")
				return
			}
			an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: c, pattern: a.pattern, unknown: true, output: out != "" && c == out})
		}
	}
}

// unknownCwd records, for a command the analysis does not model, the
// directories the line changed to as paths it may write: such a command
// may write its default outputs there (ctags -R writes tags, cc a.out, go
// build a binary named after its package) without naming them.
func (an *analyzer) unknownCwd() {
	if !an.cwdChanged {
		return
	}
	if an.cwdUnknown {
		an.opaque("a command the analysis does not model runs in a directory the analysis cannot follow")
		return
	}
	for _, c := range an.a.cwds {
		if c == "" || c == "." {
			continue
		}
		if !path.IsAbs(c) {
			if an.workdir == "" {
				an.opaque("a command the analysis does not model runs in a directory the line changed to")
				return
			}
			c = path.Join(an.workdir, c)
		}
		if c == path.Clean(an.workdir) || slices.ContainsFunc(an.a.accesses, func(x access) bool { return x.unknown && x.path == c }) {
			continue
		}
		if len(an.a.accesses) >= maxAccessPaths {
			an.opaque("the command touches too many paths to check")
			return
		}
		an.a.accesses = append(an.a.accesses, access{mode: modeRead, path: c, unknown: true})
	}
}

// maxNested bounds the values nestedValues finds in the words of one
// command argument.
const maxNested = 256

// nestedValues appends to cands the values nested inside them, since an
// option's value may hold another program's options: go build
// -ldflags=-o=x and -gcflags=all=-cpuprofile=x, rustc -C link-arg=-ox and
// --emit=link=x, gcc -Wl,-o,x, cargo --config 'build.target-dir=".git"'.
// For each candidate it adds, in turn: the fields it splits into at white
// space and commas, the text after each '=', the text without the quotes
// and brackets around it, and the values an option cluster carries
// attached; then the same for each of those. It reports false when there
// are more than maxNested.
func nestedValues(cands []string) ([]string, bool) {
	queue := slices.Clone(cands)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		var next []string
		if p, ok := fileURLPath(s); ok || len(s) > 7 && strings.EqualFold(s[:7], "file://") {
			next = append(next, p)
			if len(s) > 7 && strings.EqualFold(s[:7], "file://") {
				// Some readers take what follows "//" as the path, the
				// host included (the compiler's -json=0,file://DIR).
				h := s[7:]
				if d, err := url.PathUnescape(h); err == nil {
					h = d
				}
				next = append(next, h)
			}
		} else if !strings.ContainsAny(s, "= \t\n,\"'{}[]():") && (len(s) < 3 || s[0] != '-') {
			continue
		}
		// A value may name a path after a format or before a target,
		// separated by ':' (--cov-report=xml:PATH, -v PATH:/dir); the
		// authority of a URL (https://host/…) names none.
		if i := strings.IndexByte(s, ':'); i >= 0 {
			next = append(next, s[:i])
			for j := i; j < len(s); j++ {
				if s[j] == ':' && !strings.HasPrefix(s[j+1:], "//") {
					next = append(next, s[j+1:])
				}
			}
		}
		if f := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }); len(f) != 1 || f[0] != s {
			next = append(next, f...)
		}
		for i := 0; i < len(s); i++ {
			if s[i] == '=' {
				next = append(next, s[i+1:])
			}
		}
		if t := strings.Trim(s, "\"'{}[]()"); t != s {
			next = append(next, t)
		}
		next = attachedValues(s, next)
		for _, c := range next {
			if c == "" || contains(cands, c) {
				continue
			}
			if len(cands) >= maxNested {
				return cands, false
			}
			cands = append(cands, c)
			queue = append(queue, c)
		}
	}
	return cands, true
}

// fileURLPath returns the path a file: URL names (file:///p,
// file://localhost/p, file:p), percent-decoded as the programs that take
// URLs decode it (file:///w/%2Egit/config is /w/.git/config).
func fileURLPath(s string) (string, bool) {
	if len(s) < 5 || !strings.EqualFold(s[:5], "file:") {
		return "", false
	}
	p := s[5:]
	if rest, ok := strings.CutPrefix(p, "//"); ok {
		// The host: "" or localhost for this machine.
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			p = rest[i:]
		} else {
			p = ""
		}
	}
	if d, err := url.PathUnescape(p); err == nil {
		p = d
	}
	return p, p != ""
}

// attachedValues appends to cands the values a cluster of one-letter
// options (getopt's "-qfFILE") may carry attached: the rest of the word
// after each letter of its leading run of letters and digits. A word that
// does not start with a single '-' carries none.
func attachedValues(t string, cands []string) []string {
	if len(t) < 3 || t[0] != '-' || t[1] == '-' {
		return cands
	}
	for k := 2; k < len(t) && isAlnum(t[k-1]); k++ {
		if !contains(cands, t[k:]) {
			cands = append(cands, t[k:])
		}
	}
	return cands
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// mayLink notes that the command just recorded may create or move a
// symbolic link at a path it does not name.
func (an *analyzer) mayLink() {
	an.linkAnywhere = true
	an.mayLinkAt(len(an.a.accesses))
}

// mayLinkAt notes that the command just recorded, whose accesses start at
// index from, may create or move a symbolic link at the paths it writes;
// with from < 0, that it writes paths the line cannot resolve before it
// runs, but makes no link.
func (an *analyzer) mayLinkAt(from int) {
	an.links++
	if an.linkFrom < 0 {
		an.linkFrom = len(an.a.accesses)
	}
	if from < 0 {
		return
	}
	for _, acc := range an.a.accesses[min(from, len(an.a.accesses)):] {
		if acc.mode != modeRead {
			an.linkAt = append(an.linkAt, acc)
		}
	}
}

// checkoutReads makes the line opaque when it reads a path of the workdir
// after a command that wrote a working copy's files from commits (see
// checkoutAt): a commit may hold a symbolic link to ~/.ssh or a key there,
// which the read then follows (git checkout -q feat; cat lnk/.ssh/id_ed25519
// printed the key and was allowed, round redteam132): the caller checks
// the links the workdir holds before the line runs, which git has not
// made yet. A path outside the workdir leads through no link of it.
func (an *analyzer) checkoutReads() {
	if an.checkoutAt == 0 {
		return
	}
	from, dynamic := an.readsAfter(an.checkoutAt - 1)
	if dynamic {
		an.opaque("the line reads files only known when it runs after a checkout that may have made symbolic links")
		return
	}
	for _, acc := range an.a.accesses[from:] {
		if acc.mode != modeRead || acc.settings || acc.runs || acc.own || acc.names || acc.path == "/dev/null" || path.Base(acc.path) == "..." {
			// The script a command runs (node app.js) and the packages
			// go test builds (., ./... a pattern of them) are code the
			// commits bring, which the analysis takes as the project's
			// own: such code may read any file itself.
			continue
		}
		for _, c := range an.a.cwds {
			p := an.resolve(c, acc.path)
			if !path.IsAbs(p) || an.workdir == "" || within(p, an.workdir) {
				an.opaque("the command reads " + clipName(acc.path) + " after a checkout that may have made a symbolic link there")
				return
			}
		}
	}
}

// readsAfter returns where the accesses that may come after the command
// whose accesses start at from begin (0 when the line's order is unknown,
// see unordered), clamped to the accesses, and whether the line reads
// files only known when it runs from there on.
func (an *analyzer) readsAfter(from int) (int, bool) {
	if an.unordered {
		from = 0
	}
	for _, at := range an.dynamicReadsAt {
		if at >= from {
			return from, true
		}
	}
	return min(from, len(an.a.accesses)), false
}

// maxLinkChecks bounds the pairs of paths unknownAfterLink compares; a
// line with more is opaque.
const maxLinkChecks = 1 << 16

// unknownAfterLink makes the line opaque when a command the analysis does
// not model is given, after a command that may have made a symbolic link,
// a word that as a path may lead through that link (cp -P link x &&
// python3 -m json.tool j x): the caller checks such words as paths the
// command may write, but only as they resolve before the line runs, when
// the link is not there yet. A word names the link's path when it is that
// path, lies beneath it, or is a directory holding it.
func (an *analyzer) unknownAfterLink() {
	if an.linkFrom < 0 {
		return
	}
	from := an.linkFrom
	if an.unordered {
		from = 0
	}
	budget := maxLinkChecks
	for _, acc := range an.a.accesses[min(from, len(an.a.accesses)):] {
		if !acc.unknown || acc.own {
			// A command's own script (python3 x.py) is code it reads,
			// checked as such; a link there leads to what it runs.
			continue
		}
		if an.linkAnywhere || acc.pattern {
			an.opaque("a command the analysis does not model is given " + clipName(acc.path) + " after a command that may make a symbolic link there")
			return
		}
		for _, l := range an.linkAt {
			if budget -= len(an.a.cwds) * len(an.a.cwds); budget < 0 {
				an.opaque("the line makes links and names too many paths to check")
				return
			}
			for _, c := range an.a.cwds {
				for _, c2 := range an.a.cwds {
					p, lp := an.resolve(c, acc.path), an.resolve(c2, l.path)
					if l.pattern || within(p, lp) || within(lp, p) {
						an.opaque("a command the analysis does not model is given " + clipName(acc.path) + " after a command that may make a symbolic link there")
						return
					}
				}
			}
		}
	}
}

// addUnit records a simple command.
func (an *analyzer) addUnit(u unit) {
	if len(an.a.units) >= maxUnits {
		an.opaque("the command has too many parts to analyze")
		return
	}
	an.a.units = append(an.a.units, u)
}

// command records the command ws and looks inside the wrappers it knows.
func (an *analyzer) command(ws []word, depth, chain int) {
	if len(ws) == 0 {
		return
	}
	if chain > maxWrapChain {
		an.opaque("too many wrapper commands")
		return
	}
	start := len(an.a.accesses)
	texts := make([]string, len(ws))
	for i, w := range ws {
		texts[i] = w.text
	}
	u := unit{text: strings.Join(texts, " "), name: ws[0].text, args: texts[1:]}
	base := u.name
	if i := strings.LastIndexByte(u.name, '/'); i >= 0 && i < len(u.name)-1 {
		base = u.name[i+1:]
		u.others = append(u.others, strings.Join(append([]string{base}, texts[1:]...), " "))
	}
	if folded := foldCase(base); folded != base {
		// RM -rf x runs rm on a case-insensitive file system: deny
		// rules on rm see it.
		u.others = append(u.others, strings.Join(append([]string{folded}, texts[1:]...), " "))
	}
	if ws[0].dynamic || ws[0].pattern || ws[0].special {
		an.opaque("the command name is only known when the command runs")
		an.addUnit(u)
		return
	}
	if why := an.procProgram(ws[0].text); why != "" {
		an.opaque(why)
	}
	idx := len(an.a.units)
	an.addUnit(u)
	outer := an.cur
	an.cur = idx
	inner := an.wrapped(ws, depth, chain)
	an.cur = outer
	if inner && idx < len(an.a.units) {
		an.a.units[idx].wrapper = true
	}
	// A command of dataArgs takes an argument only known when it runs;
	// one with an option that reads more (optionReads) not an option a
	// glob or brace makes: grep . sub {x,-R} and, in a project holding a
	// file named -R, grep . sub * read the links under sub (round 104).
	data := dataArgs.get()[path.Base(ws[0].text)]
	if data && !optionReads(path.Base(ws[0].text)) {
		return
	}
	for _, w := range ws[1:] {
		if w.dynamic && path.Base(ws[0].text) == "kill" && lastJob(w) {
			continue // the job the line put in the background: see killOperands
		}
		if w.dynamic && !data {
			an.opaque(clipName(path.Base(ws[0].text)) + " gets an argument that is only known when it runs")
			break
		}
		if w.pattern && (strings.HasPrefix(w.text, "-") && !(data && patternValued(path.Base(ws[0].text), w.text)) ||
			!data && strings.HasPrefix(w.text, "{") && strings.Contains(w.text, "-") || data && braceMayLead(w.text, '-')) {
			// {-delete,}, {0..-1} and -[d]elete (where ./-delete
			// exists) are options, which the checks above took for
			// operands; {a,b}.txt is no option.
			an.opaque(clipName(path.Base(ws[0].text)) + " gets an argument bash expands first, which may be an option")
			break
		}
		if w.pattern && w.text != "" && strings.ContainsRune("*?[{", rune(w.text[0])) {
			// * may expand to a file named --checkpoint-action=exec=…
			// that the project holds: the caller looks (Patterns).
			if len(an.a.patterns) >= maxAccessPaths {
				an.opaque("the command is given too many patterns to check")
				break
			}
			an.a.patterns = append(an.a.patterns, w.text)
			an.patternsAt, an.patternUnit = start, idx
		}
	}
}

// procProgram says why running the program name makes the line opaque:
// from some candidate working directory it lies under /proc or /dev,
// where a name is another program's (/proc/self/exe is the shell itself,
// /dev/fd/3 whatever the descriptor holds), which no rule knows. It
// returns "" otherwise.
func (an *analyzer) procProgram(name string) string {
	if !strings.Contains(name, "/") {
		return ""
	}
	for _, c := range an.a.cwds {
		p := an.resolve(c, name)
		if !path.IsAbs(p) {
			p = "/" + p // an unknown workdir may be anywhere, / included
		}
		for _, dir := range []string{"/proc/", "/dev/"} {
			if strings.HasPrefix(p, dir) || !path.IsAbs(an.resolve(c, name)) && strings.Contains(p, dir) {
				return "the line runs " + clipName(name) + ", a program named through " + strings.Trim(dir, "/") + " that no rule knows"
			}
		}
	}
	return ""
}

// dataArgs are the commands whose arguments, whatever they hold, cannot
// make them run code or write files: a quoted expansion may be handed to
// them.
var dataArgs = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"echo": true, "cat": true, "ls": true, "wc": true, "head": true, "tail": true,
		"grep": true, "egrep": true, "fgrep": true, "basename": true, "dirname": true,
		"realpath": true, "readlink": true, "stat": true, "du": true,
		"diff": true, "cmp": true, "md5sum": true, "sha1sum": true, "sha256sum": true,
		"true": true, "false": true, ":": true,
	}
}}

// optionReads reports whether name is a command of dataArgs with an
// option that makes it read more than its operands say: a tree,
// following links (grep -R, diff -rN), or the names a file holds (du
// --files0-from).
func optionReads(name string) bool {
	switch name {
	case "grep", "egrep", "fgrep", "diff", "du":
		return true
	}
	return false
}

// patternValued reports whether w, a word of command name that bash
// expands (a glob or a brace), is one of name's long options whose value
// is a file-name pattern, written whole with its '=' before the first
// character that expands: grep -rn TODO --include=*.go . and
// --include=*.{go,md}. Whatever bash makes of it starts with the same
// option, given another pattern, which changes no file the command reads
// beyond those its operands name. An abbreviated name (--exclude-f is
// --exclude-from, which reads a file) or one an expansion makes
// (--{include,directories}=…) is not one.
func patternValued(name, w string) bool {
	var opts []string
	switch name {
	case "grep", "egrep", "fgrep":
		opts = []string{"include", "exclude", "exclude-dir"}
	case "diff", "du":
		opts = []string{"exclude"}
	}
	opt, _, ok := strings.Cut(strings.TrimPrefix(w, "--"), "=")
	return ok && strings.HasPrefix(w, "--") && slices.Contains(opts, opt)
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// A word is a shell word after quote removal and the expansions the
// analysis knows.
type word struct {
	text    string
	dynamic bool // holds an expansion whose value is only known at run time
	pattern bool // holds an unquoted glob or brace expansion
	special bool // a process substitution, which names a pipe
	// alts are the words a brace expansion of the word makes
	// ({..,y}/x is ../x and y/x, {~,.}/x is ~/x and ./x), each
	// evaluated as a word of its own; nil when it has none.
	alts []word
	// tooMany marks a brace expansion into more than maxBraceWords
	// words.
	tooMany bool
	// bare are the spans of the text's $name expansions while the word
	// is built (see braceBare).
	bare [][2]int
}

// maxBraceWords bounds the words the analysis makes of one brace
// expansion.
const maxBraceWords = 256

// word evaluates w.
func (an *analyzer) word(w *syntax.Word, src string) word {
	out := an.wordParts(w, src)
	if lit, ok := w.Parts[0].(*syntax.Lit); ok && len(w.Parts) == 1 && lit.Value == "[" {
		// The test command: a '[' with no ']' after it in its word is
		// no pattern to bash, and matches nothing but itself.
		out.pattern = false
	}
	if !out.pattern && braceAcrossQuotes(w) {
		out.pattern = true // .git/{"config",x} expands to .git/config
	}
	if !out.dynamic && !out.pattern {
		out.text = an.tildeAfterEquals(out.text)
	}
	if out.pattern {
		out.alts, out.tooMany = an.braceWords(w, src)
	}
	return out
}

// braceWords evaluates each word bash's brace expansion makes of w, which
// happens before tilde expansion and may make a path that leaves the
// directory the pattern starts in ({..,y}/x, x{,/../../y}, {~,.}/x,
// {/etc,.}/x). It returns nil when w holds no brace expansion, and
// tooMany when it makes more than maxBraceWords words.
func (an *analyzer) braceWords(w *syntax.Word, src string) (alts []word, tooMany bool) {
	cp := *w
	cp.Parts = slices.Clone(w.Parts)
	if !syntax.SplitBraces(&cp) {
		return nil, false
	}
	for alt, err := range expand.BracesSeq(nil, &cp) {
		if err != nil || len(alts) >= maxBraceWords {
			return alts, true
		}
		// Adjacent literals are one: the tilde-prefix of ~/x made of
		// {~,.}/x is the whole literal up to its first slash.
		var parts []syntax.WordPart
		for _, p := range alt.Parts {
			if lit, ok := p.(*syntax.Lit); ok && len(parts) > 0 {
				if prev, ok := parts[len(parts)-1].(*syntax.Lit); ok {
					parts[len(parts)-1] = &syntax.Lit{ValuePos: prev.ValuePos, ValueEnd: lit.ValueEnd, Value: prev.Value + lit.Value}
					continue
				}
			}
			parts = append(parts, p)
		}
		if len(parts) == 0 {
			continue
		}
		// The words made hold no brace bash expands again.
		one := an.wordParts(&syntax.Word{Parts: parts}, src)
		if !one.dynamic && !one.pattern {
			one.text = an.tildeAfterEquals(one.text)
		}
		alts = append(alts, one)
	}
	return alts, false
}

// wordParts evaluates the parts of w, with tilde expansion of its first.
func (an *analyzer) wordParts(w *syntax.Word, src string) word {
	var out word
	var b strings.Builder
	// A leading ~ expands only when the whole tilde-prefix (up to the
	// first slash) is an unquoted literal.
	tilde := len(w.Parts) == 1
	if lit, ok := w.Parts[0].(*syntax.Lit); ok && strings.Contains(lit.Value, "/") {
		tilde = true
	}
	for i, p := range w.Parts {
		an.part(p, src, i == 0 && tilde, false, &b, &out)
	}
	out.text = braceBare(b.String(), out.bare)
	out.bare = nil
	return out
}

// braceBare returns text with each $name at one of the spans at (start
// and end offsets) that is followed by a letter, digit or underscore
// written ${name}: that text came from another part of the word
// ("$PS4"sub is $PS4 then sub, not $PS4sub, round 103).
func braceBare(text string, at [][2]int) string {
	for i := len(at) - 1; i >= 0; i-- {
		start, end := at[i][0], at[i][1]
		if end < len(text) && isNameByte(text[end]) {
			text = text[:start] + "${" + text[start+1:end] + "}" + text[end:]
		}
	}
	return text
}

// braceAcrossQuotes reports whether w holds an unquoted '{' and a later
// unquoted '}' with a quoted part between them: bash still expands such a
// brace, whose alternatives unescapeLit, seeing one part at a time, misses.
func braceAcrossQuotes(w *syntax.Word) bool {
	open, quoted := false, false
	for _, p := range w.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			quoted = quoted || open
			continue
		}
		v := lit.Value
		for i := 0; i < len(v); i++ {
			switch v[i] {
			case '\\':
				i++
			case '{':
				open, quoted = true, false
			case '}':
				if open && quoted {
					return true
				}
			}
		}
	}
	return false
}

// tildeAfterEquals expands "~" right after the first '=' of an
// assignment-like argument (dd of=~/x), as bash does.
func (an *analyzer) tildeAfterEquals(s string) string {
	i := strings.IndexByte(s, '=')
	if i <= 0 || !strings.HasPrefix(s[i+1:], "~") || an.home == "" {
		return s
	}
	rest := s[i+2:]
	if rest != "" && rest[0] != '/' {
		return s
	}
	return s[:i+1] + an.home + rest
}

// part appends the value of one word part.
func (an *analyzer) part(p syntax.WordPart, src string, first, quoted bool, b *strings.Builder, out *word) {
	switch p := p.(type) {
	case *syntax.Lit:
		v := p.Value
		if quoted {
			b.WriteString(unescapeDouble(v))
			return
		}
		if first && strings.HasPrefix(v, "~") {
			end := strings.IndexByte(v, '/')
			if end < 0 {
				end = len(v)
			}
			if end == 1 && an.home != "" {
				b.WriteString(an.home)
				v = v[1:]
			} else {
				out.dynamic = true // ~user, ~+, ~- or an unknown home
			}
		}
		lit, pattern := unescapeLit(v)
		b.WriteString(lit)
		out.pattern = out.pattern || pattern
	case *syntax.SglQuoted:
		if !p.Dollar {
			b.WriteString(p.Value)
			return
		}
		v, ok := ansiC(p.Value)
		if !ok {
			out.dynamic = true
			b.WriteString(sourceText(src, p))
			return
		}
		b.WriteString(v)
	case *syntax.DblQuoted:
		if p.Dollar {
			// $"…" is looked up in a message catalog (TEXTDOMAIN,
			// TEXTDOMAINDIR, the locale) when it runs, and bash 5.2
			// expands the translation it finds.
			an.opaque("a $\"…\" string is translated, and its translation expanded, when the command runs")
			out.dynamic = true
		}
		for _, q := range p.Parts {
			an.part(q, src, false, true, b, out)
		}
	case *syntax.ParamExp:
		if v, ok := an.param(p); ok {
			b.WriteString(v)
			return
		}
		// Quoted or not, the value is only known at run time; command
		// lets only the commands in dataArgs take such a word.
		out.dynamic = true
		t := sourceText(src, p)
		if p.Param != nil && t == "$"+p.Param.Value {
			out.bare = append(out.bare, [2]int{b.Len(), b.Len() + len(t)}) // see braceBare
		}
		b.WriteString(t)
	case *syntax.ProcSubst:
		out.special = true
		b.WriteString(sourceText(src, p))
	case *syntax.ExtGlob, *syntax.BraceExp:
		out.pattern = true
		b.WriteString(sourceText(src, p))
	default: // command substitution, arithmetic, anything newer
		out.dynamic = true
		b.WriteString(sourceText(src, p))
	}
}

// param returns the value of a parameter expansion the analysis knows:
// $HOME, ${HOME}, and $PWD before any cd.
func (an *analyzer) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.IsSet || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Names != 0 || p.NestedParam != nil ||
		len(p.Modifiers) > 0 || p.Flags != nil {
		return "", false
	}
	switch p.Param.Value {
	case "HOME":
		return an.home, an.home != ""
	case "PWD":
		return an.workdir, an.workdir != "" && !an.cwdChanged
	}
	return "", false
}

// unescapeLit removes the backslashes of an unquoted literal and reports
// whether it holds an unescaped glob or brace pattern.
func unescapeLit(v string) (string, bool) {
	var b strings.Builder
	pattern := false
	braceOpen := -1
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch c {
		case '\\':
			if i+1 < len(v) {
				i++
				if v[i] != '\n' {
					b.WriteByte(v[i])
				}
			}
			continue
		case '*', '?', '[':
			pattern = true
		case '{':
			braceOpen = i
		case ',':
			if braceOpen >= 0 && strings.IndexByte(v[i:], '}') >= 0 {
				pattern = true
			}
		case '.':
			if braceOpen >= 0 && strings.HasPrefix(v[i:], "..") && strings.IndexByte(v[i:], '}') >= 0 {
				pattern = true
			}
		}
		b.WriteByte(c)
	}
	return b.String(), pattern
}

// unescapeDouble removes the backslashes that escape $, `, ", \ and a
// newline inside double quotes.
func unescapeDouble(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				i++
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(v[i])
	}
	return b.String()
}

// ansiC decodes the body of a $'…' string; it reports false for escapes it
// does not handle.
func ansiC(v string) (string, bool) {
	if !strings.Contains(v, `\`) {
		return v, true
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(v) {
			return "", false
		}
		i++
		switch v[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\', '\'', '"', '?':
			b.WriteByte(v[i])
		case 'x':
			j := i + 1
			for j < len(v) && j < i+3 && isHex(v[j]) {
				j++
			}
			if j == i+1 {
				return "", false
			}
			n, _ := strconv.ParseUint(v[i+1:j], 16, 8)
			b.WriteByte(byte(n))
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(v) && j < i+3 && v[j] >= '0' && v[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(v[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			return "", false // \u, \U, \c and anything unknown
		}
	}
	s := b.String()
	if !utf8.ValidString(s) || strings.ContainsRune(s, 0) {
		return "", false
	}
	return s, true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// sourceText returns the source of node n within src.
func sourceText(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return "?"
	}
	return src[start:end]
}

// cmdSubst checks a command substitution. Its value is a word only known
// when it runs, as that of a variable is: every use of such a word is
// checked as one (see word), and the commands inside are walked as the
// line's own. They run before the command whose word holds them, which
// the walk records first, so the line is unordered from here on. The
// backquoted form, whose backslashes bash and the parser read
// differently, and the ${ …;} forms, which run in the current shell, are
// opaque.
func (an *analyzer) cmdSubst(n *syntax.CmdSubst, src string) {
	if n.Backquotes || n.TempFile || n.ReplyVar {
		an.opaque("a command substitution builds words at run time")
		return
	}
	an.unordered = true
	if len(n.Stmts) == 1 && an.filtersSpelled(n.Stmts[0], src) {
		// $(echo SUB/S/ID_ED25519 | tr A-Z a-z): a word the line's
		// author spells out and changes, no word of the line (round 105).
		an.opaque("a command substitution prints a text the line spells out through a filter the analysis does not follow")
	}
	if slices.ContainsFunc(n.Stmts, func(st *syntax.Stmt) bool { return an.rewritesNames(st, src) }) {
		an.a.rewritten = append(an.a.rewritten, sourceText(src, n))
	}
}

// substitutionsFirst walks the command substitutions in the words of the
// simple command of st and in the redirections of st before the command
// itself: bash runs them first (those of a group's redirections before
// any command of the group), so what they write is there when the command
// reads it (gpg --options x <<< "$(echo … > x)"), which the checks made
// as the command is recorded must see. The walk passes over them later.
func (an *analyzer) substitutionsFirst(st *syntax.Stmt, src string, depth int) {
	var nodes []syntax.Node
	if c, ok := st.Cmd.(*syntax.CallExpr); ok {
		for _, a := range c.Assigns {
			nodes = append(nodes, a)
		}
		for _, w := range c.Args {
			nodes = append(nodes, w)
		}
	}
	for _, r := range st.Redirs {
		nodes = append(nodes, r)
	}
	visit := func(n syntax.Node) bool { return an.node(n, src, depth) }
	for _, n := range nodes {
		syntax.Walk(n, func(x syntax.Node) bool {
			cs, ok := x.(*syntax.CmdSubst)
			if !ok {
				return true
			}
			if an.walkedSubst[cs] {
				return false
			}
			if an.walkedSubst == nil {
				an.walkedSubst = map[*syntax.CmdSubst]bool{}
			}
			an.walkedSubst[cs] = true
			an.cmdSubst(cs, src)
			for _, s := range cs.Stmts {
				syntax.Walk(s, visit)
			}
			for i := range cs.Last {
				syntax.Walk(&cs.Last[i], visit)
			}
			return false
		})
	}
}

// maxDynamicReads bounds the read words only known at run time that an
// analysis records, and maxVarValues the values it records of one
// variable.
const (
	maxDynamicReads = 64
	maxVarValues    = 64
)

// bind records that the line binds the shell variable name, with the
// values vs (as words after the known expansions; an unknown expansion
// keeps its source text); no values means data only known when the line
// runs (read x). A variable bound more than once has every value. One
// bound to more than maxVarValues values is left out of vars for the rest
// of the line (see overflow), as one of the environment is: a value
// dropped would be a path no check sees (for f in doc/a0 … doc/a70
// sub/s/id_ed25519; do cat $f; done printed the key, the 65th value
// unchecked).
func (an *analyzer) bind(name string, vs ...string) {
	if an.overflowed[name] {
		return
	}
	if an.a.vars == nil {
		an.a.vars = map[string][]string{}
	}
	old := an.a.vars[name]
	if old == nil {
		old = []string{}
	}
	for _, v := range vs {
		if slices.Contains(old, v) {
			continue
		}
		if len(old) >= maxVarValues {
			an.overflow(name)
			return
		}
		old = append(old, v)
	}
	an.a.vars[name] = old
}

// overflow leaves the variable name out of vars for the rest of the line:
// the gate takes it for one of the environment, whose value may be any
// path, and not for one bound to data the line reads (read f), which it
// trusts.
func (an *analyzer) overflow(name string) {
	if an.overflowed == nil {
		an.overflowed = map[string]bool{}
	}
	an.overflowed[name] = true
	delete(an.a.vars, name)
}

// loopValues binds the variable of a for loop to the words of its list
// (for f in ~/.pgpass; for d in ~), each of the words a brace expansion
// makes; a loop over "$@" (no list) binds it to no value.
func (an *analyzer) loopValues(it *syntax.WordIter, src string) {
	var vs []string
	for _, w := range it.Items {
		ev := an.word(w, src)
		if ev.tooMany {
			// The words past maxBraceWords are values no check sees.
			an.overflow(it.Name.Value)
			return
		}
		if len(ev.alts) > 0 {
			for _, a := range ev.alts {
				vs = append(vs, a.text)
			}
			continue
		}
		vs = append(vs, ev.text)
	}
	an.bind(it.Name.Value, vs...)
}

// assignValue binds the variable of a plain assignment (h=~, f=$(…), x=)
// to its value, and an array's name to each of its elements ($a is the
// first). An append (x+=y), an element (x[1]=y) or a bare name leaves the
// variable unbound: the gate takes it for one of the environment.
func (an *analyzer) assignValue(a *syntax.Assign, src string) {
	if a == nil || a.Name == nil || a.Append || a.Naked || a.Index != nil {
		return
	}
	if a.Array != nil {
		var vs []string
		for _, e := range a.Array.Elems {
			if e.Value == nil || e.Index != nil {
				return
			}
			vs = append(vs, an.word(e.Value, src).text)
		}
		if len(vs) == 0 {
			vs = []string{""}
		}
		an.bind(a.Name.Value, vs...)
		return
	}
	if a.Value == nil {
		an.bind(a.Name.Value, "")
		return
	}
	an.bind(a.Name.Value, an.word(a.Value, src).text)
}
