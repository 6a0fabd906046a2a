package shellscan

import "strings"

// cargoBuiltins are cargo's own subcommands and their one-letter aliases:
// the others run cargo-NAME, a program found on PATH or in
// $CARGO_HOME/bin that the analysis does not model (cargo watch -s CMD
// and cargo make run commands of their own).
var cargoBuiltins = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range []string{"add", "b", "bench", "build", "c", "check", "clean", "clippy", "config", "d", "doc",
		"fetch", "fix", "fmt", "generate-lockfile", "git-checkout", "help", "info", "init", "install", "locate-project",
		"login", "logout", "metadata", "miri", "new", "owner", "package", "pkgid", "publish", "r", "read-manifest",
		"remove", "report", "rm", "run", "rustc", "rustdoc", "search", "t", "test", "tree", "uninstall", "update",
		"vendor", "verify-project", "version", "yank"} {
		m[n] = true
	}
	return m
}}

// cargoExternal reports whether cargo, given args, runs an external
// subcommand (cargo-NAME): the first operand, after the options that take
// a value and a +toolchain, is none of cargo's own.
func cargoExternal(args []word) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		t := a.text
		switch {
		case a.dynamic:
			return true
		case t == "--color" || t == "-Z" || t == "-C" || t == "--config" || t == "--manifest-path" || t == "--explain":
			i++
		case strings.HasPrefix(t, "-") || strings.HasPrefix(t, "+"):
		default:
			return !cargoBuiltins.get()[t]
		}
	}
	return false
}

// runsNoCommand reports whether name, an unmodelled command given args,
// is known to take no command among its operands (see notRunners): cargo
// only when it runs one of its own subcommands.
func runsNoCommand(name string, args []word) bool {
	if name == "cargo" {
		return !cargoExternal(args)
	}
	return notRunners.get()[name]
}
