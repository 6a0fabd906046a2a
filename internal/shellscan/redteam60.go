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
// (archive_command, shared_preload_libraries), debian/rules, Kptfile.
func addRT60SettingsCode(m map[string][]string) {
	m["cfn-lint"] = []string{".cfnlintrc", ".cfnlintrc.yaml", ".cfnlintrc.yml"}
	for _, n := range docutilsFrontEnds() {
		m[n] = []string{"docutils.conf"}
	}
	m["dotenv"] = []string{".env"}
	m["python-dotenv"] = m["dotenv"]
	m["dotenvx"] = []string{".env", ".env.*"}
	m["env-cmd"] = []string{".env", ".env-cmdrc", ".env-cmdrc.js", ".env-cmdrc.json"}
	m["godotenv"] = []string{".env"}
	m["postgres"] = []string{"*.conf"}
	m["postmaster"] = m["postgres"]
	// Debian's package builders run debian/rules (and what it
	// includes); kpt fn render runs the functions of Kptfile's pipeline.
	for _, n := range []string{"dpkg-buildpackage", "debuild", "gbp"} {
		m[n] = []string{"debian/"}
	}
	m["kpt"] = []string{"Kptfile"}
}

// addRT60SettingsOptions adds to m (settingsOptions) the options whose
// value names a settings file of addRT60SettingsCode's programs.
func addRT60SettingsOptions(m map[string][]settingsOption) {
	m["cfn-lint"] = []settingsOption{{"", "--config-file"}}
	for _, n := range docutilsFrontEnds() {
		m[n] = []settingsOption{{"", "--config"}}
	}
	m["dotenv"] = []settingsOption{{"f", "--file"}}
	m["python-dotenv"] = m["dotenv"]
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
			an.usesCode(name, "/", languageFiles.get()["python"]...)
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
	if _, ok := projectFiles.get()[n]; ok {
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

// rt60HomeWrite returns why name args writes state in the home directory
// that later programs read, as round redteam60 found, or "": lesskey
// without -o compiles its input into ~/.less, whose #env section sets
// LESSOPEN, a command less runs on every file; xauth without -f changes
// ~/.Xauthority (add, merge, remove, generate, source, or commands read
// from its standard input); gcloud config configurations creates or
// switches the configuration every later gcloud uses, as gcloud init
// does; docker-credential-gcloud configure-docker names it docker's
// credential helper in ~/.docker/config.json; bq init and gsutil config
// write ~/.bigqueryrc and ~/.boto; migrate-pubring-from-classic-gpg
// rewrites ~/.gnupg's keyring.
func rt60HomeWrite(name string, args []word) string {
	if onlyVersion(args) {
		return ""
	}
	has := func(opts ...string) bool {
		for _, a := range args {
			for _, o := range opts {
				if a.dynamic || a.text == o || strings.HasPrefix(a.text, o+"=") ||
					len(o) == 2 && strings.HasPrefix(a.text, o) && !strings.HasPrefix(a.text, "--") {
					return true
				}
			}
		}
		return false
	}
	firstWord := func() (string, int) {
		for i, a := range args {
			if a.dynamic {
				return "\x00", i
			}
			if !strings.HasPrefix(a.text, "-") {
				return a.text, i
			}
		}
		return "", len(args)
	}
	switch name {
	case "lesskey":
		if !has("-o", "--output") {
			return "lesskey writes ~/.less, whose #env section names commands less runs (LESSOPEN)"
		}
	case "xauth":
		if has("-f") {
			return ""
		}
		sub, _ := firstWord()
		switch sub {
		case "", "\x00", "add", "merge", "nmerge", "remove", "generate", "source":
			return "xauth " + clipName(sub) + " changes ~/.Xauthority"
		}
	case "gcloud":
		sub, i := firstWord()
		if sub == "init" || sub == "\x00" {
			return "gcloud init writes the configuration every later gcloud reads"
		}
		if sub == "config" {
			for _, a := range args[i+1:] {
				if a.dynamic || a.text == "configurations" {
					return "gcloud config configurations creates or switches the configuration every later gcloud reads"
				}
			}
		}
	case "docker-credential-gcloud":
		if sub, _ := firstWord(); sub == "configure-docker" || sub == "\x00" {
			return "docker-credential-gcloud configure-docker names docker's credential helper in ~/.docker/config.json"
		}
	case "bq":
		if sub, _ := firstWord(); sub == "init" || sub == "\x00" {
			return "bq init writes ~/.bigqueryrc"
		}
	case "gsutil":
		if sub, _ := firstWord(); sub == "config" || sub == "\x00" {
			return "gsutil config writes ~/.boto"
		}
	case "migrate-pubring-from-classic-gpg":
		return "migrate-pubring-from-classic-gpg rewrites the keyring of ~/.gnupg"
	case "jcmd", "jinfo", "jmap", "jhsdb":
		return jvmAttach(name, args)
	}
	return ""
}

// jcmdReads are the diagnostic commands of jcmd that only print what the
// virtual machine they are sent to holds.
var jcmdReads = []string{"help", "VM.version", "VM.uptime", "VM.flags", "VM.system_properties",
	"VM.command_line", "VM.info", "VM.classloader_stats", "VM.classloaders", "VM.stringtable",
	"VM.symboltable", "VM.metaspace", "VM.events", "VM.dynlibs", "VM.class_hierarchy", "VM.native_memory",
	"Thread.print", "GC.class_histogram", "GC.heap_info", "GC.finalizer_info", "Compiler.codecache",
	"Compiler.codelist", "Compiler.queue", "Compiler.directives_print", "JFR.check", "PerfCounter.print",
	"ManagementAgent.status", "System.map"}

// jvmAttach returns why jcmd, jinfo, jmap or jhsdb args acts on a running
// Java virtual machine the line did not start, or "": jcmd PID
// JVMTI.agent_load ./a.so runs the library's code in it (a path its own
// working directory resolves), GC.heap_dump, JFR.start and VM.log write
// where it runs, VM.set_flag and ManagementAgent.start change it; jinfo
// -flag NAME=VALUE (or +NAME, -NAME) sets a flag, jmap -dump writes a file
// the machine's working directory resolves, and jhsdb's debuggers read
// commands. Only the commands that print (jcmdReads) are let through.
func jvmAttach(name string, args []word) string {
	switch name {
	case "jcmd":
		ops := 0
		for _, a := range args {
			t := a.text
			switch {
			case a.dynamic:
				return "jcmd sends a command only known when the line runs to a running Java virtual machine"
			case t == "-f" || strings.HasPrefix(t, "-f") && !strings.HasPrefix(t, "--"):
				return "jcmd -f sends the commands of a file to a running Java virtual machine"
			case strings.HasPrefix(t, "-"):
				continue
			}
			ops++
			if ops == 2 {
				if slices.Contains(jcmdReads, t) {
					return ""
				}
				return "jcmd " + clipName(t) + " acts in a running Java virtual machine the line did not start (JVMTI.agent_load runs a library there)"
			}
		}
	case "jinfo":
		for i, a := range args {
			if a.dynamic || a.text == "-flag" && i+1 < len(args) && (args[i+1].dynamic ||
				strings.Contains(args[i+1].text, "=") || strings.HasPrefix(args[i+1].text, "+") ||
				strings.HasPrefix(args[i+1].text, "-")) {
				return "jinfo -flag sets a flag of a running Java virtual machine"
			}
		}
	case "jmap":
		for _, a := range args {
			if a.dynamic || strings.HasPrefix(a.text, "-dump") {
				return "jmap -dump has a running Java virtual machine write a file where it runs"
			}
		}
	case "jhsdb":
		for _, a := range args {
			if !strings.HasPrefix(a.text, "-") || a.dynamic {
				switch a.text {
				case "jstack", "jmap", "jinfo", "jsnap":
					if hasDump(args) {
						return "jhsdb jmap --binaryheap writes a heap dump"
					}
					return ""
				}
				return "jhsdb " + clipName(a.text) + " is a debugger reading commands"
			}
		}
	}
	return ""
}

// hasDump reports whether args ask jhsdb jmap for a heap dump.
func hasDump(args []word) bool {
	for _, a := range args {
		if a.text == "--binaryheap" || strings.HasPrefix(a.text, "--dumpfile") {
			return true
		}
	}
	return false
}

// addRT60CompressorSpecs gives the compressors of m (fileCommands) that
// take an output file or directory as an option its value as a path they
// write: lzop -o FILE and -p DIR (lzop -d -p../home f.lzo wrote the home:
// an attached value was not read as a path), zstd -o FILE and its output
// directories, brotli -o FILE.
func addRT60CompressorSpecs(m map[string]fileSpec) {
	out := func(short string, long ...string) fileSpec {
		paths := map[string]accessMode{}
		for _, c := range short {
			if c != 'S' {
				paths["-"+string(c)] = modeWrite
			}
		}
		for _, l := range long {
			if l != "--suffix" {
				paths[l] = modeWrite
			}
		}
		return fileSpec{mode: modeWrite, also: modeRead, short: short, long: long, paths: paths}
	}
	m["lzop"] = out("Sop", "--output", "--path", "--suffix")
	m["brotli"] = out("So", "--output", "--suffix")
	for _, n := range []string{"zstd", "unzstd", "zstdmt"} {
		m[n] = out("So", "--output-dir-flat", "--output-dir-mirror")
	}
}
