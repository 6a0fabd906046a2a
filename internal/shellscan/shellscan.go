// Package shellscan analyzes bash command lines for the permission gate. It
// is the only package that imports mvdan.cc/sh.
//
// The analysis is a whitelist: a line is fully understood only when every
// word is a literal (after quote removal and the expansions of ~, $HOME and
// $PWD) or a plain quoted expansion handed to a command known to treat it as
// data, every command is known not to run code the analysis cannot see, and
// every redirection target is a literal path. Anything else makes the line
// opaque, with a reason: arithmetic contexts, subscripts, indirect and
// transform expansions, command and process substitution, expanding
// here-documents, assignments of any kind, functions, aliases, traps,
// eval-like builtins, shell options, wrappers that are not known to be
// transparent, git global options and aliases, the options of sed, awk,
// tar, rsync and find that run commands or write files, and commands that
// run or build code from a file the line writes (printf … > Makefile &&
// make, echo … > x.py && python3 x.py).
//
// Opaque is the analysis admitting it cannot tell what the line does; the
// caller must never let an opaque line run on an allow. Deny rules may
// still be checked against the commands the analysis did see.
package shellscan

import "slices"

// Options configures [Analyze]. The zero value knows no home directory and
// no working directory: ~, $HOME and $PWD are then unknown expansions.
type Options struct {
	// Home is the user's home directory, for ~ and $HOME.
	Home string
	// Workdir is the directory the line starts in, for $PWD.
	Workdir string
	// ReadRecipe, when set, reads the build recipes (Makefile,
	// justfile, Taskfile.yml, build.ninja, package.json's scripts …) the
	// line's task runners run, so that the programs they name count
	// with the settings files those programs read (see recipeTools).
	ReadRecipe RecipeReader
	// SecretVars names environment variables that hold a secret whatever
	// their names say (the store codec's key that the CLI's --key-env
	// MY_STORE names): a line that prints one (echo $MY_STORE, printenv
	// MY_STORE) is recorded as a read of the environment's credentials,
	// as for GITHUB_TOKEN.
	SecretVars []string
	// Env is the environment the line starts with ("KEY=value" entries),
	// of which the analysis reads what changes where bash's cd and pushd
	// go: CDPATH (cd sub enters $CDPATH/sub when that exists, before
	// ./sub), cdable_vars in BASHOPTS (cd HOME enters $HOME when ./HOME is
	// no directory) and physical in SHELLOPTS (every cd is cd -P), and
	// the directories of PATH taken from the working directory (".", an
	// empty entry, bin). A cd that may go elsewhere by them leaves the
	// working directory unknown, and a program run by its bare name that
	// the line wrote into such a directory of PATH is a program it writes.
	// Nil knows none of them set.
	Env []string
}

// A Mode is what a command does with a path.
type Mode uint8

// The modes of an [Access].
const (
	Read Mode = 1 + iota
	Write
	Delete
)

// String returns "reads", "writes" or "deletes".
func (m Mode) String() string {
	switch m {
	case Write:
		return "writes"
	case Delete:
		return "deletes"
	}
	return "reads"
}

// A Command is one simple command of a line, after the transparent wrappers
// around it (command, nice, timeout, nohup, env without assignments …)
// were looked through; each wrapper is a Command of its own with Wrapper set.
type Command struct {
	// Name is the program as written, after quote removal.
	Name string
	// Args are the arguments after quote removal and the known
	// expansions; an expansion the analysis does not know keeps its
	// source text.
	Args []string
	// Text is Name and Args joined by single spaces.
	Text string
	// Alt are other spellings of Text that may only restrict, such as the
	// text with the program reduced to its base name (/bin/rm → rm).
	Alt []string
	// Guessed are, for a program the analysis does not model, the
	// commands it may run among its words: each from an operand or an
	// option's value to the end (logsave /dev/null terraform destroy →
	// terraform destroy; tool --exec=rm x → rm x), so that deny and ask
	// rules see them. They may only restrict, and since the word one
	// starts from may be a file name as well as a program, a rule should
	// match them on word boundaries.
	Guessed []string
	// Read are, for a program the analysis does not model, the commands
	// of the scripts it may read, which it may as well take as data: its
	// standard input when the line spells it out (a here-string or
	// here-document, echo … |) and a file among its words that the line
	// wrote with a text it spells out (echo … > f). Matched as Guessed
	// are, they are weaker evidence: a deny or ask rule that matches one
	// should ask.
	Read []string
	// Wrapper marks a command that only runs another one, which follows
	// it as a Command of its own.
	Wrapper bool
}

// An Access is a path a line reads, writes or deletes.
type Access struct {
	Mode Mode
	// Path is as written, after quote removal and the known expansions;
	// a relative path is taken from each of [Analysis.Dirs].
	Path string
	// Tree marks a write of a whole directory tree (cp -r, mv), which can
	// create files anywhere below Path.
	Tree bool
	// Redirect marks the target of a shell redirection.
	Redirect bool
	// Pattern marks a Path that holds an unquoted glob or brace pattern;
	// the files it names are only known when the line runs.
	Pattern bool
	// Unknown marks a word given to a command the analysis does not
	// model (mktemp, openssl, fallocate …): Mode is Read, but the command
	// may write the path, so it must be neither protected nor outside the
	// workdir's ordinary files.
	Unknown bool
	// Runs marks a directory whose code the command builds or runs, such
	// as the package directories go test builds and runs tests in (Mode
	// is Read): it must lie inside the workdir, outside its .git
	// directory.
	Runs bool
	// Venv marks a pip or python named by a path into the bin directory
	// of a virtual environment (Mode is Read), which a pip install is
	// allowed to use: the caller checks that the program belongs to a
	// virtual environment whose files lie in the workdir (see
	// homestate_venv.go).
	Venv bool
	// UvConfig marks the directory uv pip runs in (Path is "."), which
	// reads its settings there and in every directory above it (uv.toml,
	// pyproject.toml's [tool.uv]): the caller checks that none of them
	// says where uv pip installs (target, prefix, system, python …).
	UvConfig bool
	// PipConfig marks a pip command the analysis allows (pip install into
	// a virtual environment or --target, pip download, pip wheel; Path is
	// "."), which reads the settings files of the user and of the system
	// and the PIP_ variables of its environment, any of which may say
	// where it installs or writes: the caller checks them.
	PipConfig bool
	// Lookup marks, with Venv, a pip or python named without a path
	// (pip install x, python3 -m pip install x), which PATH finds when the
	// line runs: the line does not change PATH before it, and the caller
	// allows it only if, by the PATH the line's shell gets, it is the
	// program of a virtual environment it would allow by that path (an
	// activated .venv of the workdir).
	Lookup bool
}

// An Analysis is what [Analyze] found in one command line.
type Analysis struct {
	// Commands are the simple commands, in the order they appear.
	Commands []Command
	// Accesses are the paths the line reads, writes and deletes, as far
	// as the analysis models them.
	Accesses []Access
	// Dirs are the candidate working directories of relative paths: ""
	// for the starting directory, then the targets of cd, relative to
	// the starting directory or absolute.
	Dirs []string
	// Opaque reports that the line is not fully understood; Reasons say
	// why, the first one the most useful.
	Opaque  bool
	Reasons []string
	// Unlisted, when set, says why the line may touch files that are not
	// in Accesses (cat $F, cat *.txt …). It does not make the line opaque.
	Unlisted string
	// Patterns are the glob words, after quote removal, given to commands
	// other than the plain readers (echo, cat, ls, grep …) whose first
	// character is a glob or a brace (*, ?delete, [-]*): bash may expand
	// them to a name that begins with '-', which the command takes as an
	// option (a project's file named --checkpoint-action=exec=… handed to
	// tar by *). The analysis cannot know what exists; the caller expands
	// them from each of Dirs against the file system.
	Patterns []string
	// ReadPatterns are the paths, after quote removal and the known
	// expansions, that commands read and that hold an unquoted glob or
	// brace pattern (cat ~/.ss*/*): they are not in Accesses, and the
	// files they name are only known when the line runs.
	ReadPatterns []string
	// LocalPrograms are paths, relative to each of Dirs, of programs a
	// command runs if they exist and otherwise fetches from a package
	// registry (npx tsc runs node_modules/.bin/tsc, or the registry's
	// package tsc). The analysis, which modelled the program as the local
	// one, cannot know what exists; the caller checks that each is a
	// regular file from every one of Dirs.
	LocalPrograms []string
	// Unmodelled are the programs, as written, of the commands the
	// analysis does not model (their words are data to it, and they may
	// write no path the line names outside the workdir), but for forms
	// known only to show state whatever the program is (--help, lsof,
	// arp -a). The analysis cannot know which program each is; the caller
	// looks each up as bash would (PATH for a bare name) and makes the
	// line opaque when it lies in an sbin directory, where systems keep
	// the programs that administer them (criu, losetup, update-locale,
	// apache2 -k stop).
	Unmodelled []string
	// Vars are the shell variables the line binds, each with the values
	// it may take as words after the known expansions (an unknown
	// expansion keeps its source text): a for loop's variable the words
	// of its list (for f in ~/.pgpass), an assigned one its value (h=~).
	// A variable with no values holds data only known when the line runs
	// (read f). A variable the line uses but does not bind comes from the
	// environment, which may point anywhere (XDG_CONFIG_HOME, OLDPWD).
	Vars map[string][]string
	// DynamicReads are the words, after quote removal and the known
	// expansions, that commands read as paths but that hold an expansion
	// only known when the line runs (cat "$f", cat $(ls -d ~)/.pgpass);
	// the unknown expansions keep their source text.
	DynamicReads []string
	// WriteDirs are the candidate working directories of the line's own
	// commands, Dirs without those only a command string's cd went to:
	// the paths a command string names are recorded also as taken from
	// its own directories, so the paths the line writes are taken from
	// these (hyperfine 'cd ..; true' && touch x writes the workdir's x).
	// Dirs, which also hold the string's, are where a command may run and
	// read (its settings files, a search of its directory, a read whose
	// word the gate judges) (round 92).
	WriteDirs []string
	// DirsUnknown reports that the line changes to a working directory
	// the analysis cannot follow (cd -, cd "$X"): a relative path may
	// then lie anywhere, beyond each of Dirs.
	DirsUnknown bool
	// Inputs are the texts of the line's here-strings and here-documents,
	// after the known expansions (an unknown one keeps its source text):
	// a program that reads names from its input (xargs cat <<< ~/.netrc,
	// ctags -L - <<< f, tar -T -) takes them as paths.
	Inputs []string
	// Rewritten are the command substitutions, as their source text,
	// whose output may be names a filter or a format of the line made
	// out of others (cat $(find h | sed s,^h,../home,), $(find h -printf
	// '../home/%P\n')): a word read as a path that holds one of them, or
	// a variable bound to one, is a name no word of the line shows and
	// that need not lie where the names it was made of lie.
	Rewritten []string
}

// Reason returns the first reason the line is opaque, or "".
func (a *Analysis) Reason() string {
	if len(a.Reasons) == 0 {
		return ""
	}
	return a.Reasons[0]
}

// Analyze analyzes a bash command line. It never fails and never panics:
// what it cannot see through makes the result opaque.
func Analyze(line string, opts Options) *Analysis {
	in := analyzeBashEnv(line, opts.Home, opts.Workdir, opts.ReadRecipe, opts.Env, opts.SecretVars...)
	out := &Analysis{
		Dirs:          withScriptDirs(in.cwds, in.scriptDirs),
		WriteDirs:     in.cwds,
		Opaque:        len(in.reasons) > 0,
		Reasons:       in.reasons,
		Unlisted:      in.pathsUnknown,
		Patterns:      in.patterns,
		ReadPatterns:  in.readPatterns,
		LocalPrograms: in.localPrograms,
		Unmodelled:    in.unmodelled,
		Vars:          in.vars,
		DynamicReads:  in.dynamicReads,
		DirsUnknown:   in.cwdUnknown,
		Inputs:        in.inputs,
		Rewritten:     in.rewritten,
	}
	if !in.parsed && !out.Opaque {
		out.Opaque, out.Reasons = true, []string{"the command cannot be parsed"}
	}
	out.Commands = make([]Command, len(in.units))
	for i, u := range in.units {
		out.Commands[i] = Command{Name: u.name, Args: u.args, Text: u.text, Alt: u.others, Guessed: u.guessed, Read: u.read, Wrapper: u.wrapper}
	}
	out.Accesses = make([]Access, len(in.accesses))
	for i, a := range in.accesses {
		out.Accesses[i] = Access{Mode: Mode(a.mode), Path: a.path, Tree: a.tree, Redirect: a.redirect, Pattern: a.pattern, Unknown: a.unknown, Runs: a.runs, Venv: a.venv, UvConfig: a.uvConfig, PipConfig: a.pipConfig, Lookup: a.lookup}
	}
	return out
}

// withScriptDirs returns cwds and each of script not among them.
func withScriptDirs(cwds, script []string) []string {
	out := cwds
	for _, d := range script {
		if !contains(out, d) {
			if len(out) == len(cwds) {
				out = slices.Clone(cwds)
			}
			out = append(out, d)
		}
	}
	return out
}
