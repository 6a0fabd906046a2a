package shellscan

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// inertEnv are the variables an assignment may set in a line that is
// otherwise understood: by a prefix (GOOS=linux go build), env or export.
// Each only chooses among behaviours its programs already have (a build
// target, a locale, a time zone, colours, a log level, a runtime's
// tuning); none names a program, a file, a directory, options or code.
// What an agent may set beyond them, a denylist could never bound (the
// issue's PATH, LD_*, BASH_ENV, GIT_*, PAGER …): any other variable keeps
// the line opaque. Their values must be plain words (see inertValue), and
// those of the locale variables UTF-8 locales (see inertSetting).
var inertEnv = lazy[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		// Go's build target and runtime tuning (not GOFLAGS, GOTOOLCHAIN,
		// GOPATH, GOCACHE …, which name options, programs or directories).
		"GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true, "GO386": true, "GOARM64": true,
		"CGO_ENABLED": true, "GOMAXPROCS": true, "GOGC": true, "GOMEMLIMIT": true, "GOTRACEBACK": true,
		// Modes and logs read by programs and project code.
		"NODE_ENV": true, "CI": true, "DEBUG": true, "RUST_LOG": true, "RUST_BACKTRACE": true,
		"NODE_NO_WARNINGS": true, "PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
		"PYTHONHASHSEED": true, "PYTHONUTF8": true,
		// Output and locale (a locale or zone given by a path is no word).
		"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true, "COLUMNS": true,
		"LINES": true, "TZ": true, "LANG": true, "LANGUAGE": true, "LC_ALL": true, "LC_CTYPE": true,
		"LC_COLLATE": true, "LC_MESSAGES": true, "LC_NUMERIC": true, "LC_TIME": true, "LC_MONETARY": true,
	}
}}

// inertValue reports whether v is a value an inert variable may take: a
// plain word of letters, digits and . , : + = _ - (linux, C.UTF-8,
// debug,hyper=info). It excludes paths ('/'), expansions and globs, a
// tilde (which bash expands after ':' in an assignment), quotes, escapes
// and blanks.
func inertValue(v string) bool {
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case strings.ContainsRune(".,:+=_-", r):
		default:
			return false
		}
	}
	return true
}

// inertAssign reports whether a is NAME=value (not +=, not an array or
// element, not a bare name) for an inert variable, with a value written
// as a plain word, bare or in quotes that expand nothing.
func inertAssign(a *syntax.Assign) bool {
	if a == nil || a.Name == nil || !inertEnv.get()[a.Name.Value] {
		return false
	}
	v, ok := assignLiteral(a)
	return ok && inertSetting(a.Name.Value, v)
}

// assignLiteral returns the value of a, NAME=value (not +=, not an array
// or element, not a bare name), when it is written literally: bare or in
// quotes that expand nothing.
func assignLiteral(a *syntax.Assign) (string, bool) {
	if a == nil || a.Append || a.Naked || a.Index != nil || a.Array != nil || a.Name == nil {
		return "", false
	}
	if a.Value == nil {
		return "", true // NAME=
	}
	return literalWord(a.Value)
}

// plainRead reports whether c is the read builtin given -r (and maybe -s)
// and one or more plain lowercase names (while IFS= read -r line): like a for
// loop's variable, such a name takes data the line does not know, which
// every later use treats as such. Its only assignment prefix may be IFS
// set to blanks or separators (IFS= , IFS=',').
func plainRead(c *syntax.CallExpr) bool {
	if len(c.Args) < 2 || c.Args[0].Lit() != "read" {
		return false
	}
	for _, a := range c.Assigns {
		v, ok := assignLiteral(a)
		if !ok || a.Name.Value != "IFS" || strings.Trim(v, " \t,:;|=") != "" {
			return false
		}
	}
	names, raw := 0, false
	for _, w := range c.Args[1:] {
		switch t := w.Lit(); {
		case t == "-r" || t == "-s" || t == "-rs" || t == "-sr":
			if names > 0 {
				return false
			}
			raw = raw || t != "-s"
		case loopVar(t):
			names++
		default:
			return false
		}
	}
	return raw && names > 0
}

// inertSetting reports whether name may be set to v: v is a plain word
// (see inertValue) and, for LANG and the LC_ variables, one of which
// chooses the character set bash and its programs read text in, it names
// C, POSIX or a UTF-8 locale (see utf8Locale).
func inertSetting(name, v string) bool {
	if !inertValue(v) {
		return false
	}
	switch name {
	case "LANG", "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_NUMERIC", "LC_TIME", "LC_MONETARY":
		return utf8Locale(v)
	}
	return true
}

// utf8Locale reports whether v, the value of LANG or an LC_ variable, is
// empty, C, POSIX or a locale whose character set is UTF-8 (C.UTF-8,
// en_US.utf8). In another character set (BIG5, GBK, GB18030, SJIS) the
// second byte of a character may be an ASCII byte: bash reads "中\" as
// two characters, the backslash inside the second where the analysis
// reads an escape, and so does every program that parses text in that
// locale. A locale named without a character set (zh_TW) takes its
// default one, which may be such a set.
func utf8Locale(v string) bool {
	if v == "" || v == "C" || v == "POSIX" {
		return true
	}
	_, cs, ok := strings.Cut(v, ".")
	return ok && (strings.EqualFold(cs, "UTF-8") || strings.EqualFold(cs, "utf8"))
}

// inertAssigns reports whether every assignment of as is inert.
func inertAssigns(as []*syntax.Assign) bool {
	for _, a := range as {
		if !inertAssign(a) {
			return false
		}
	}
	return true
}

// inertOperand reports whether w, an operand of env before its command,
// is NAME=value for an inert variable with a plain word as value.
func inertOperand(w word) bool {
	name, v, ok := strings.Cut(w.text, "=")
	return ok && !w.dynamic && !w.pattern && !w.special && inertEnv.get()[name] && inertSetting(name, v)
}
