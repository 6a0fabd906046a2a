package shellscan

import "strings"

// This file holds what round redteam63 found the analysis did not model:
// ghostscript told to leave its SAFER mode, in which PostScript's file
// operators delete and rename any file and %pipe% runs a command, and
// the rehash of the system's certificate directory.

// rt63ToolCode makes the line opaque for the programs of this file.
func (an *analyzer) rt63ToolCode(name string, args []word) {
	an.rt63Ghostscript(name, args)
	an.rt63Rehash(name, args)
	an.rt63Binutils(name, args)
	an.rt63Daemons(name, args)
	an.g65GhostscriptRunners(name, args)
}

// rt63Daemons makes the line opaque when a server is told to detach into
// a daemon of its own (gunicorn -D, celery worker --detach, celery multi
// start, uwsgi --daemonize): the daemon leaves the line's process group,
// whose kill ends every bash line, and outlives the line, as setsid's
// command does.
func (an *analyzer) rt63Daemons(name string, args []word) {
	why := name + " detaches a daemon, which outlives the line"
	for _, a := range args {
		t := a.text
		switch name {
		case "gunicorn":
			if strings.HasPrefix(t, "--") && len(t) >= 4 && strings.HasPrefix("--daemon", t) ||
				!strings.HasPrefix(t, "--") && strings.HasPrefix(t, "-") && strings.Contains(t, "D") {
				an.opaque(why)
				return
			}
		case "celery":
			if t == "multi" || t == "--detach" || strings.HasPrefix(t, "--detach=") {
				an.opaque(why)
				return
			}
		case "uwsgi", "uwsgi-core":
			if t == "-d" || strings.HasPrefix(t, "--daemonize") || strings.HasPrefix(t, "--daemon") {
				an.opaque(why)
				return
			}
		default:
			return
		}
	}
}

// rt63Untargeted returns a binutils program's name without its target
// prefix and version suffix (x86_64-linux-gnu-ld.gold is ld.gold,
// x86_64-linux-gnu-gcc-nm-12 is gcc-nm), or name itself.
func rt63Untargeted(name string) string {
	if i := strings.LastIndexByte(name, '-'); i > 0 && i < len(name)-1 && strings.Trim(name[i+1:], "0123456789.") == "" {
		name = name[:i]
	}
	for _, t := range []string{"gcc-nm", "gcc-ar", "gcc-ranlib"} {
		if name == t || strings.HasSuffix(name, "-"+t) {
			return t
		}
	}
	if i := strings.LastIndexByte(name, '-'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// rt63PluginLoaders are the binutils programs whose --plugin loads a
// shared object, whose constructors run as it loads.
var rt63PluginLoaders = map[string]bool{"nm": true, "ar": true, "ranlib": true, "gcc-nm": true, "gcc-ar": true,
	"gcc-ranlib": true, "objcopy": true, "strip": true}

// rt63Binutils models the binutils under their target-prefixed names
// (x86_64-linux-gnu-ld links as ld does, and its linker scripts and
// objects are code, see rt61Linker) and the shared object that --plugin
// loads: one the line wrote (x86_64-linux-gnu-ld -shared p.o -o p.so,
// then nm --plugin ./p.so) runs the line's code.
func (an *analyzer) rt63Binutils(name string, args []word) {
	base := rt63Untargeted(name)
	if base != name && rt61Linkers(base) {
		an.rt61Linker(name, args)
		return
	}
	if !rt63PluginLoaders[base] {
		return
	}
	for i, a := range args {
		switch t := a.text; {
		case t == "--plugin" && i+1 < len(args):
			an.usesCode(name, args[i+1].text)
		case strings.HasPrefix(t, "--plugin="):
			an.usesCode(name, strings.TrimPrefix(t, "--plugin="))
		}
	}
}

// rt63Rehash makes the line opaque when c_rehash or openssl rehash is
// given no directory: each then rehashes the system's certificate
// directories (SSL_CERT_DIR, or /usr/lib/ssl/certs), which run as root it
// rewrites, changing which authorities TLS clients trust. With
// directories they write links there, which are judged as the paths they
// are.
func (an *analyzer) rt63Rehash(name string, args []word) {
	if name == "openssl" && len(args) > 0 && args[0].text == "rehash" {
		name, args = "openssl rehash", args[1:]
	} else if name != "c_rehash" {
		return
	}
	for _, a := range args {
		if a.dynamic || !strings.HasPrefix(a.text, "-") {
			return // a directory, judged by the rest of the analysis
		}
		if a.text == "-h" || a.text == "-help" || a.text == "--help" {
			return
		}
	}
	an.opaque(name + " without a directory rehashes the system's certificate directory, which the analysis does not model")
}

// rt63Ghostscripts are ghostscript's names and the scripts that hand
// their options on to it (ps2pdf -dNOSAFER x.ps runs gs -dNOSAFER).
var rt63Ghostscripts = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(`gs ghostscript gsc gsx gsnd gsbj gsdj gsdj500 gslj gslp ps2pdf ps2pdf12
		ps2pdf13 ps2pdf14 ps2pdfwr ps2ps ps2ps2 eps2eps pdf2ps pdf2dsc ps2ascii ps2epsi ps2txt dvipdf pf2afm
		printafm pphs`) {
		m[n] = true
	}
	return m
}}

// rt63Ghostscript makes the line opaque when ghostscript (or a script
// that runs it) is told to leave SAFER mode (-dNOSAFER, its synonym
// -DNOSAFER, -dDELAYSAFER, -dSAFER=false), to permit files beyond what
// SAFER allows (--permit-file-all=…), or is given an @file of options
// the analysis does not read: the PostScript it runs, a file the line
// may have written or the code of -c, then deletes, renames and writes any
// file (deletefile, renamefile) and runs commands ((%pipe%cmd) (w) file).
func (an *analyzer) rt63Ghostscript(name string, args []word) {
	if !rt63Ghostscripts.get()[name] {
		return
	}
	// SAFER trusts the files the command line names: gs runs the command
	// of an input file %pipe%cmd (gs -- %pipe%cmd too), and the scripts
	// hand gs their output file as -sOutputFile=… (ps2pdf x.ps '|cmd').
	for _, a := range args {
		if rt63Pipe(a.text) {
			an.opaque(name + " opens a pipe, whose command SAFER mode runs: " + clipName(a.text))
			return
		}
	}
	for i, a := range args {
		t := a.text
		if a.dynamic {
			an.opaque(name + " gets an argument that is only known when it runs, which may turn its SAFER mode off")
			return
		}
		if t == "--" || t == "-+" {
			return // what follows are the PostScript file and its own arguments
		}
		if out, ok := rt63GhostscriptOutput(t, args[i+1:]); ok && rt63Pipe(out) {
			an.opaque(name + " writes its output to a pipe, whose command SAFER mode runs: " + clipName(out))
			return
		}
		switch {
		case strings.HasPrefix(t, "@"):
			an.opaque(name + " " + clipName(t) + " reads options from a file, which may turn its SAFER mode off")
			return
		case len(t) > 2 && strings.Contains("dDsS", t[1:2]) && t[0] == '-':
			// -s and -S define a string, which gs_init.ps tests for
			// NOSAFER with "known" just as it does -d's.
			flag, _, _ := strings.Cut(t[2:], "=")
			flag, _, _ = strings.Cut(flag, "#")
			switch strings.ToUpper(flag) {
			case "NOSAFER", "DELAYSAFER", "SAFER", "NOSAFETY":
				if strings.ToUpper(flag) == "SAFER" && (t[2:] == flag || strings.EqualFold(t[2+len(flag):], "=true")) {
					continue // -dSAFER, the default
				}
				an.opaque(name + " " + clipName(t) + " turns its SAFER mode off: the PostScript it runs may delete files and run commands")
				return
			}
		case strings.HasPrefix(t, "--permit-") || strings.HasPrefix(t, "--add-"):
			an.opaque(name + " " + clipName(t) + " permits files beyond its SAFER mode")
			return
		}
	}
}

// rt63GhostscriptOutput returns the output file that the ghostscript
// argument t names (-sOutputFile=f, -SOutputFile#f, -o f, -of), taking
// -o's file from rest, and whether t names one.
func rt63GhostscriptOutput(t string, rest []word) (string, bool) {
	switch {
	case t == "-o":
		if len(rest) == 0 {
			return "", false
		}
		return rest[0].text, true
	case strings.HasPrefix(t, "-o"):
		return t[2:], true
	case len(t) > len("-sOutputFile=") && (t[:2] == "-s" || t[:2] == "-S") && t[2:len("-sOutputFile")] == "OutputFile" &&
		(t[len("-sOutputFile")] == '=' || t[len("-sOutputFile")] == '#'):
		return t[len("-sOutputFile="):], true
	}
	return "", false
}

// rt63Pipe reports whether ghostscript opens the file name f as a pipe to
// a command: %pipe%cmd or |cmd.
func rt63Pipe(f string) bool {
	return strings.HasPrefix(f, "|") || len(f) >= len("%pipe%") && strings.EqualFold(f[:len("%pipe%")], "%pipe%")
}
