package shellscan

// editorStarters are programs that start the editor the environment
// chooses on text they make (vipe on its input, vidir, qmv, qcp and
// massren on a list of file names, which they then rename or delete as
// it says), editors and file managers beyond the vi family that run the
// shell commands typed at them (mg's and zile's M-!, ranger's and lf's
// !, mc's and nnn's command line), and git's interfaces that start the
// editor and run commands bound to their keys (tig, lazygit, gitui).
// With a pipe as their input, as vi does, they run what it says: real
// vidir ran ':!touch ~/x' from its input at gate59.
var editorStarters = lazy[map[string]string]{build: func() map[string]string {
	m := map[string]string{}
	for _, n := range []string{"vipe", "vidir", "qmv", "qcp", "massren", "edir"} {
		m[n] = n + editorWhy
	}
	for _, n := range []string{"mg", "zile", "zemacs", "jove", "ne", "dte", "e3", "ranger", "mc", "mcview",
		"nnn", "lf", "vifm", "tig", "lazygit", "gitui", "yazi", "broot"} {
		m[n] = n + " runs the shell commands typed at it (its input) and" + editorWhy
	}
	return m
}}

// editorStarter returns why name starts the editor or runs the commands
// typed at it (see editorStarters), or "" for another program or one
// asked only for its version.
func editorStarter(name string, args []word) string {
	why := editorStarters.get()[name]
	if why == "" || onlyVersion(args) {
		return ""
	}
	return why
}
