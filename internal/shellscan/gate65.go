package shellscan

import (
	"strings"
	"unicode"
)

// g65GhostscriptRunners makes the line opaque when a program that runs
// ghostscript (or another command) on a document is told which program to
// run, or to run ghostscript without SAFER mode, in which the PostScript
// it renders deletes and renames any file and runs commands (gate65;
// checked in real bash: epstool --gs-args -dNOSAFER and --gs ./g, pstoedit
// -gs ./g, enscript -I CMD; epstopdf's --nosafer, --gsopt and --gscmd and
// gv's -nosafer and -arguments are documented to do the same). a2ps
// runs the commands of its configuration, which it also reads from
// ./.a2psrc (DefaultPrinter: | CMD, Delegation: …): that file is code it
// runs, and a variable a delegation expands, set by -D KEY:VALUE, is a
// command.
func (an *analyzer) g65GhostscriptRunners(name string, args []word) {
	if name == "a2ps" {
		an.usesCode(name, "/", ".a2psrc")
		for _, a := range args {
			if !a.dynamic && !strings.HasPrefix(a.text, "-") && strings.ContainsFunc(a.text, a2psUnsafeRune) {
				an.opaque("a2ps hands a file to its delegations (gzip, groff, pdf2ps …) by its name in a shell command, which " + clipName(a.text) + " breaks out of")
				return
			}
		}
	}
	for _, a := range args {
		t := a.text
		if a.dynamic {
			if g65Runners.get()[name] {
				an.opaque(name + " gets an argument that is only known when it runs, which may name the program it runs")
				return
			}
			continue
		}
		if why := g65RunnerOption(name, t); why != "" {
			an.opaque(name + " " + clipName(t) + " " + why)
			return
		}
	}
}

// a2psUnsafeRune reports whether r, in the name of a file a2ps is given,
// may end the quotes of a delegation's shell command or be read by the
// shell there: a2ps writes gzip -cd '$f' (and eval `grog -Tps '$f'` for
// roff), so a file named x';rm -f c;'.gz, or m;rm -f c;x.1 for roff, runs
// rm (real a2ps 4.14 removed the canary with each, review66c).
func a2psUnsafeRune(r rune) bool {
	if unicode.IsLetter(r) || unicode.IsDigit(r) {
		return false
	}
	return !strings.ContainsRune("._/+,:@%=~- ", r)
}

// g65Runners are the programs g65RunnerOption knows.
var g65Runners = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{"epstool": true, "pstoedit": true, "enscript": true, "epstopdf": true, "repstopdf": true, "gv": true,
		"a2ps": true}
}}

// g65Spooler says why a printer named to a2ps or enscript (-P NAME,
// --printer=NAME; enscript's -d NAME and --printer-options too) makes the
// line opaque: the name and the options go into the spooler's command,
// which runs through the shell, so -P '|rm -f c' runs rm (real a2ps 4.14
// and enscript 1.6.5 removed the canary so, review66c), and a configured
// printer's command is any program.
const g65Spooler = "names the printer, whose name and options go into a shell command it runs to print"

// g65RunnerOption returns why the argument t of the program name makes
// the line opaque (see g65GhostscriptRunners), or "".
func g65RunnerOption(name, t string) string {
	const nosafer = "runs ghostscript without SAFER mode or with options of the line's choosing: the PostScript may delete files and run commands"
	const runs = "names a program it runs"
	opt, _, _ := strings.Cut(strings.TrimLeft(t, "-"), "=")
	if !strings.HasPrefix(t, "-") || opt == "" {
		return ""
	}
	switch name {
	case "epstool":
		switch opt {
		case "gs":
			return runs
		case "gs-args":
			return nosafer
		}
	case "pstoedit":
		if opt == "gs" {
			return runs
		}
	case "enscript":
		// -I CMD, -ICMD, a cluster ending in I (-2rI CMD), --filter=CMD
		// and its abbreviations: the input filter is a shell command.
		if strings.HasPrefix(t, "--") {
			if len(opt) >= 3 && strings.HasPrefix("filter", opt) {
				return "runs the input filter command it is given"
			}
			if len(opt) >= 3 && (strings.HasPrefix("printer-options", opt) || strings.HasPrefix(opt, "printer")) {
				return g65Spooler
			}
			return ""
		}
		for _, r := range t[1:] {
			if r == 'I' {
				return "runs the input filter command it is given"
			}
			if r == 'P' || r == 'd' {
				return g65Spooler
			}
			if !strings.ContainsRune("123456789BcEgGhjkKlmqrRvVZ", r) {
				break // an option taking a value: the rest is the value
			}
		}
	case "a2ps":
		if strings.HasPrefix(t, "--") {
			if len(opt) >= 3 && strings.HasPrefix("define", opt) {
				return "sets a variable, which the commands of its delegations expand"
			}
			if len(opt) >= 6 && strings.HasPrefix("printer", opt) {
				return g65Spooler
			}
			return ""
		}
		for _, r := range t[1:] {
			if r == 'D' {
				return "sets a variable, which the commands of its delegations expand"
			}
			if r == 'P' {
				return g65Spooler
			}
			if !strings.ContainsRune("123456789BCdgjqrRvZ", r) {
				break // an option taking a value: the rest is the value
			}
		}
	case "epstopdf", "repstopdf":
		// Perl's Getopt::Long: one or two dashes, any unique prefix, any
		// case.
		opt = strings.ToLower(opt)
		if len(opt) >= 3 && strings.HasPrefix("nosafer", opt) || strings.HasPrefix(opt, "gs") {
			return nosafer
		}
	case "gv":
		opt = strings.ToLower(opt)
		if opt == "nosafer" || len(opt) >= 3 && strings.HasPrefix("arguments", opt) {
			return nosafer
		}
	}
	return ""
}
