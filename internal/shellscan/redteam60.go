package shellscan

import (
	"slices"
	"strings"
)

// This file holds what round redteam60 found the analysis did not model:
// programs that read, where they run, a settings file naming code they
// load or a file they write (cfn-lint's .cfnlintrc, docutils.conf, the
// .env files of dotenv's runners, PostgreSQL's postgresql.conf), programs
// that run code the line wrote under a name the analysis did not see as
// code (pydoc's module operands, a pandoc filter that is an interpreter),
// and programs that read code from their standard input (isympy,
// postgres --single).

// docutilsFrontEnds returns the front ends of docutils, which read
// docutils.conf where they run: its warning_stream and record_dependencies
// name files they write, anywhere.
func docutilsFrontEnds() []string {
	var names []string
	for _, n := range []string{"rst2html", "rst2html4", "rst2html5", "rst2latex", "rst2man", "rst2odt",
		"rst2odt_prepstyles", "rst2pseudoxml", "rst2s5", "rst2xetex", "rst2xml", "rstpep2html", "docutils"} {
		names = append(names, n, n+".py")
	}
	return names
}

// addRT60SettingsCode adds to m (settingsCode) the settings files of
// round redteam60: cfn-lint's .cfnlintrc (append_rules names Python rule
// modules it imports), docutils.conf (warning_stream names a file the
// front end writes), the .env files whose variables dotenv's runners give
// the command they run (GIT_CONFIG_*, NODE_OPTIONS, LD_PRELOAD: code the
// command loads), and PostgreSQL's settings in its data directory
// (archive_command, shared_preload_libraries).
func addRT60SettingsCode(m map[string][]string) {
	m["cfn-lint"] = []string{".cfnlintrc", ".cfnlintrc.yaml", ".cfnlintrc.yml"}
	for _, n := range docutilsFrontEnds() {
		m[n] = []string{"docutils.conf"}
	}
	m["dotenv"] = []string{".env"}
	m["dotenvx"] = []string{".env", ".env.*"}
	m["env-cmd"] = []string{".env", ".env-cmdrc", ".env-cmdrc.js", ".env-cmdrc.json"}
	m["godotenv"] = []string{".env"}
	m["postgres"] = []string{"*.conf"}
	m["postmaster"] = m["postgres"]
}

// addRT60SettingsOptions adds to m (settingsOptions) the options whose
// value names a settings file of addRT60SettingsCode's programs.
func addRT60SettingsOptions(m map[string][]settingsOption) {
	m["cfn-lint"] = []settingsOption{{"", "--config-file"}}
	for _, n := range docutilsFrontEnds() {
		m[n] = []settingsOption{{"", "--config"}}
	}
	m["dotenv"] = []settingsOption{{"f", "--file"}}
	m["dotenvx"] = []settingsOption{{"f", "--env-file"}}
	m["env-cmd"] = []settingsOption{{"f", "--file"}, {"r", "--rc-file"}}
	m["godotenv"] = []settingsOption{{"f", ""}}
	m["postgres"] = []settingsOption{{"", "--config-file"}, {"", "--hba_file"}}
	m["postmaster"] = m["postgres"]
}

// rt60ToolCode records the code the programs of round redteam60 run:
// pydoc imports each module it is given (and pydoc -k every module) from
// its working directory first, so any Python file the line wrote there
// may run (printf … > x.py; pydoc x); isympy and postgres --single read
// code from their standard input (postgres's COPY … TO PROGRAM runs a
// command); a pandoc filter given by a bare name that is a shell or an
// interpreter runs the file named by the output format (pandoc --filter=sh
// runs ./html).
func (an *analyzer) rt60ToolCode(name string, args []word) {
	switch {
	case strings.HasPrefix(name, "pydoc") && strings.Trim(name[len("pydoc"):], "0123456789.") == "":
		if len(args) > 0 && !onlyVersion(args) {
			an.usesCode(name, "/", languageFiles()["python"]...)
		}
	case name == "isympy":
		if !onlyVersion(args) {
			an.stdinOpaque("isympy reads code from its standard input")
		}
	case name == "postgres" || name == "postmaster":
		for _, a := range args {
			if a.text == "--single" || a.text == "--boot" || a.dynamic {
				an.stdinOpaque(name + " " + clipName(a.text) + " runs the SQL of its standard input, which runs commands (COPY … TO PROGRAM)")
				return
			}
		}
	case name == "pandoc":
		for i, a := range args {
			var v *word
			switch {
			case (a.text == "-F" || a.text == "--filter") && i+1 < len(args):
				v = &args[i+1]
			case strings.HasPrefix(a.text, "--filter="):
				v = &word{text: a.text[len("--filter="):], dynamic: a.dynamic}
			case strings.HasPrefix(a.text, "-F") && len(a.text) > 2:
				v = &word{text: a.text[2:], dynamic: a.dynamic}
			default:
				continue
			}
			if v.dynamic || !strings.Contains(v.text, "/") && filterInterprets(v.text) {
				an.opaque("pandoc --filter " + clipName(v.text) + " runs the file named by the output format as a script")
				return
			}
		}
	}
}

// filterInterprets reports whether the program name, run as a pandoc
// filter with the output format as its argument (sh html), takes that
// argument as a file of code or a target to build: a shell, an
// interpreter, a build or task runner.
func filterInterprets(prog string) bool {
	n := ProgramName(prog)
	if isPython(n) || knownProgram(n) || slices.Contains([]string{"sh", "bash", "rbash", "dash", "ash", "zsh",
		"ksh", "mksh", "yash", "fish", "csh", "tcsh", "make", "gmake", "just", "rake", "task", "ninja", "env",
		"xargs", "nice", "nohup", "timeout", "command", "exec"}, n) {
		return true
	}
	if _, ok := projectFiles()[n]; ok {
		return true
	}
	return false
}

// autocompleteInstall returns why name args writes the shell's startup
// files in the home directory (~/.bashrc, ~/.zshrc): terraform
// -install-autocomplete, and the -autocomplete-install of HashiCorp's
// other programs, append a line there (and the uninstall options remove
// it), or "".
func autocompleteInstall(name string, args []word) string {
	switch name {
	case "terraform", "tofu", "vault", "consul", "nomad", "packer", "waypoint", "boundary":
	default:
		return ""
	}
	for _, a := range args {
		t := strings.TrimLeft(a.text, "-")
		if a.dynamic || t == "install-autocomplete" || t == "uninstall-autocomplete" ||
			t == "autocomplete-install" || t == "autocomplete-uninstall" {
			if !a.dynamic && !strings.HasPrefix(a.text, "-") {
				continue // a subcommand's operand
			}
			return name + " " + clipName(a.text) + " writes the shell's startup files in the home directory"
		}
	}
	return ""
}
