package permission

import (
	"regexp"
	"strings"
	"sync"
)

// Settings files that hold a tool's command-line words, which round
// redteam125 found the gate did not read while real runs did: rubocop's
// .rubocop, whose words rubocop takes before its own (--out ../home/x,
// --cache-root ../home/x and --require wrote or ran there). clang-tidy's
// compile_commands.json, whose compile command gives the compiler its
// arguments, is read by compileCommandsUnsound (settingsforms.go).

// rubocopArgOptions are the options a .rubocop file may hold: true for
// those that take a value (a formatter's name, cop names, a level), which
// must be a plain word.
var rubocopArgOptions = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{"-f": true, "--format": true, "--fail-level": true, "--only": true, "--except": true,
		"--cache": true, "--exclude-limit": true}
	for _, o := range []string{"-a", "--autocorrect", "-A", "--autocorrect-all", "-x", "--fix-layout", "-D",
		"--display-cop-names", "--no-display-cop-names", "-E", "--extra-details", "-S", "--display-style-guide", "-P",
		"--parallel", "--no-parallel", "--color", "--no-color", "--force-exclusion", "--only-recognized-file-types",
		"--display-only-fail-level-offenses", "--display-only-correctable", "--display-only-safe-correctable", "-F",
		"--fail-fast", "-l", "--lint", "--safe", "--display-time", "--ignore-parent-exclusion",
		"--ignore-unrecognized-cops", "--force-default-config"} {
		m[o] = false
	}
	return m
})

// plainArgValue matches the value of an option that names no file: a
// formatter, cops, a level, a number, true or false.
var plainArgValue = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_,:/-]+$`) })

// rubocopArgsUnsound says why the words of a .rubocop file in dir may
// make rubocop write or read outside the workdir or load code, or "":
// any option but those of rubocopArgOptions, a quote or backslash
// (rubocop splits the file as a shell would), a file to inspect outside
// the workdir.
func (g *Gate) rubocopArgsUnsound(dir, text string) string {
	if strings.ContainsAny(text, "\"'\\") {
		return "holds a quote or a backslash, which rubocop reads as a shell would"
	}
	words := strings.Fields(text)
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") {
			if why := g.settingsPathUnsound(dir, w); why != "" {
				return "gives rubocop the file " + clip(w) + ": " + why
			}
			continue
		}
		name, value, inline := strings.Cut(w, "=")
		takes, ok := rubocopArgOptions()[name]
		if !ok || (inline && !takes) {
			return "gives rubocop the option " + clip(w) + ", which the gate does not know to be harmless"
		}
		if !takes {
			continue
		}
		if !inline {
			if i+1 >= len(words) {
				return "gives rubocop " + clip(w) + " without a value"
			}
			i++
			value = words[i]
		}
		if !plainArgValue().MatchString(value) || strings.HasPrefix(value, "/") {
			return "gives rubocop " + clip(name) + " " + clip(value) + ", a value the gate does not know to be harmless"
		}
	}
	return ""
}
