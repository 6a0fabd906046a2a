package permission

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

// The forms of settings files that projectpaths.go reads besides a key
// and its value on one line: YAML's lists below a key, and what YAML may
// use to hide a value or make an object; INI values continued on the
// lines below (and iniUnread, what Python's INI readers split otherwise);
// a compiler's arguments (clang-tidy's ExtraArgs, compile_flags.txt and
// compile_commands.json).

// yamlTricks matches what YAML may use to hide a value from a reader
// that goes key by key, or to make an object: an anchor, an alias, a
// merge key, a verbatim tag (!<…>) and a tag of the !! handle (mkdocs'
// loader made Python objects of !!python/object/apply:os.system and of
// !<tag:yaml.org,2002:python/object/apply:os.system>).
var yamlTricks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^\s*|[:-]\s+|[\[{,]\s*)(?:[&*][A-Za-z0-9_][^\s,\]}]*(?:\s|$|[,\]}])|<<\s*:)|` +
		`(?:^|[\s\[{,])(!<|!!([^\s,\[\]{}]*))`)
})

// yamlPlainTags are the tags of the !! handle that name the core schema's
// types, which make no object. Not !!binary: Ruby's Psych (jekyll,
// rubocop) and Go's YAML (hugo, golangci-lint) read it as the string its
// base64 encodes, so that "destination: !!binary Li4v…" names ../home
// for the tool and a word of base64 for the gate (round redteam125).
var yamlPlainTags = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"str": true, "int": true, "bool": true, "float": true, "null": true, "seq": true,
		"map": true, "timestamp": true, "set": true, "omap": true, "pairs": true}
})

// yamlUnread says why a YAML settings file holds what the gate does not
// read (see yamlTricks; a directive, which may give a tag handle the
// prefix of Python's tags), or "".
func yamlUnread(text string) string {
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(line, "%") {
			return "has a YAML directive, which may name the tags of Python objects"
		}
		for _, m := range yamlTricks().FindAllStringSubmatch(line, -1) {
			switch {
			case m[1] == "!<":
				return "has a verbatim YAML tag, which may make a Python object (and run code)"
			case m[1] != "" && !yamlPlainTags()[m[2]]:
				return "has a YAML tag " + clip("!!"+m[2]) + ", which makes an object (and may run code)"
			case m[1] == "":
				return "has a YAML anchor, alias or merge key, which may give a key a value the gate does not see"
			}
		}
	}
	return ""
}

// yamlBlockList reads the YAML list below the key that starts at offset
// at of text: the items "- value" on the lines after it, more indented
// than the key (or as much, as YAML allows for a list), each a plain or
// quoted scalar. It reports false when a line below the key is anything
// else, and true with no values when no line is below it (a mapping of
// the keys below, which are matched themselves, or an empty value).
func yamlBlockList(text string, at int) ([]string, bool) {
	start := strings.LastIndexByte(text[:at], '\n') + 1
	indent := len(text[start:at]) - len(strings.TrimLeft(text[start:at], " "))
	end := strings.IndexByte(text[at:], '\n')
	if end < 0 {
		return nil, true
	}
	var values []string
	for _, line := range strings.Split(text[at+end+1:], "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		item, isItem := strings.CutPrefix(t, "- ")
		if n < indent || (n == indent && !isItem && t != "-") {
			break
		}
		if !isItem {
			if len(values) == 0 && n > indent && strings.Contains(t, ":") {
				// A mapping below the key: its keys are matched
				// themselves.
				return nil, true
			}
			return nil, false
		}
		item = strings.TrimSpace(item)
		if i := strings.Index(item, " #"); i >= 0 {
			item = strings.TrimSpace(item[:i])
		}
		switch {
		case len(item) >= 2 && (item[0] == '"' || item[0] == '\'') && item[len(item)-1] == item[0]:
			values = append(values, item[1:len(item)-1])
		case item == "" || strings.ContainsAny(item[:1], "\"'[{|>!&*%@`") || strings.Contains(item, ": "):
			return nil, false
		default:
			values = append(values, item)
		}
	}
	return values, true
}

// compilerArg matches the compiler arguments that read and write nothing
// but the source and load no code: warnings, the language and its
// standard, macros, the include directories of the project (a relative
// path, judged by settingsPathUnsound), target and feature flags.
var compilerArg = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(-W[A-Za-z0-9=+_-]*|-Wno-[A-Za-z0-9=+_-]+|-std=[A-Za-z0-9+]+|-D[A-Za-z_][A-Za-z0-9_]*(=[A-Za-z0-9_.]*)?|` +
		`-U[A-Za-z_][A-Za-z0-9_]*|-(I|isystem|iquote)[A-Za-z0-9_./-]*|-x|-xc|-xc\+\+|c|c\+\+|objective-c|-pedantic|-pedantic-errors|` +
		`-O[0-3sz]?|-g|-m[a-z0-9=._-]+|-f(no-)?(exceptions|rtti|pic|PIC|ms-extensions|delayed-template-parsing|` +
		`diagnostics-color|color-diagnostics|openmp|modules|signed-char|unsigned-char)|--target=[A-Za-z0-9_.-]+|` +
		`-isystem|-I|-iquote|[A-Za-z0-9_.][A-Za-z0-9_./-]*)$`)
})

// compilerArgHarmless reports whether the compiler argument w is one of
// compilerArg; a path among them must not leave the workdir (the caller
// judges each by settingsPathUnsound).
func compilerArgHarmless(w string) bool {
	if strings.Contains(w, "..") || strings.HasPrefix(w, "/") || strings.Contains(w, ".git") || w == "-mllvm" {
		return false
	}
	return compilerArg().MatchString(w)
}

// iniContinuation returns the lines that continue the INI value whose key
// ends at offset at of text: those after its line that begin with a blank,
// up to the first that does not. Blank lines and comments do not end the
// value: pytest's iniconfig and Python's configparser skip them and go on
// with the indented lines after them (round redteam125: pytest read
// --junitxml=../home/… after a blank line and after a comment).
func iniContinuation(text string, at int) []string {
	end := strings.IndexByte(text[at:], '\n')
	if end < 0 {
		return nil
	}
	var lines []string
	for _, line := range strings.Split(text[at+end+1:], "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		if line[0] != ' ' && line[0] != '\t' {
			break
		}
		lines = append(lines, t)
	}
	return lines
}

// compileCommandsUnsound says why a compile_commands.json in dir, the
// compilation database clang-tidy reads for the files its words name (in
// their directories or those above, or in the directory of -p), may make
// the compiler read or write outside the workdir or load code, or "".
// Each entry's directory must lie in the workdir, and each argument after
// the compiler's must be one of compilerArg, with absolute paths in the
// workdir (and include directories under /usr) taken as the relative ones
// are; clang-tidy drops the output and dependency-file options, whose
// paths are judged as paths. clang-tidy gives a file the database does
// not list the arguments of a similar one it does: with "-include
// $HOME/.ssh/id_ed25519" there, clang-tidy a.c printed the key's first
// line (round 124).
func (g *Gate) compileCommandsUnsound(dir, text string) string {
	var entries []struct {
		Directory string   `json:"directory"`
		Arguments []string `json:"arguments"`
		Command   string   `json:"command"`
		Output    string   `json:"output"`
	}
	if err := json.Unmarshal([]byte(text), &entries); err != nil {
		return "cannot be read as a compilation database (" + clip(err.Error()) + ")"
	}
	for _, e := range entries {
		if why := g.settingsPathUnsound(dir, e.Directory); why != "" {
			return "compiles in " + clip(e.Directory) + ": " + why
		}
		if !filepath.IsAbs(e.Directory) {
			e.Directory = filepath.Join(dir, e.Directory)
		}
		args := e.Arguments
		if args == nil {
			args = strings.Fields(e.Command)
		}
		if len(args) > 0 {
			args = args[1:] // the compiler
		}
		if e.Output != "" {
			args = append(args, "-o", e.Output)
		}
		for i := 0; i < len(args); i++ {
			w := args[i]
			switch w {
			case "-c", "-MD", "-MMD", "--":
				continue
			case "-o", "-MF", "-MT", "-MQ":
				if i+1 < len(args) {
					i++
					if why := g.settingsPathUnsound(e.Directory, args[i]); why != "" {
						return "gives the compiler " + clip(w+" "+args[i]) + ": " + why
					}
				}
				continue
			}
			if strings.HasPrefix(w, "-D") && len(w) > 2 {
				continue // a macro: it reads and writes nothing
			}
			if strings.ContainsAny(w, `"'\$`+"`") {
				return "gives the compiler " + clip(w) + ", a quoted argument the gate does not read"
			}
			if !compilerArgHarmless(g.compileArgInWorkdir(e.Directory, w)) {
				return "gives the compiler " + clip(w) + ", an argument the gate does not know to be harmless"
			}
		}
	}
	return ""
}

// iniUnread says why an INI file holds what Python's readers may split
// otherwise than the gate, or "": a blank of Unicode's or a control
// character (Python's str.isspace and the \s of configparser's pattern
// take U+00A0, form feed, vertical tab … for blanks, so that real pytest
// and mypy read "cache_dir\u00a0= ../home/x" and a line that begins with
// U+00A0 continues the value above), and a carriage return that ends a
// line alone (Python reads text files with universal newlines).
func iniUnread(text string) string {
	for i, r := range text {
		switch {
		case r == '\r' && !strings.HasPrefix(text[i:], "\r\n"):
			return "has a carriage return alone, which Python takes for the end of a line"
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
		case unicode.IsSpace(r) || unicode.IsControl(r):
			return "has a blank or control character " + strconv.QuoteRune(r) + ", which Python's INI readers may take for a space"
		}
	}
	return ""
}

// compileArgInWorkdir returns the compiler argument w with an absolute
// path it names (itself, or an include directory's) replaced by a
// relative one when the path lies in the workdir, or, for an include
// directory, under /usr; otherwise w.
func (g *Gate) compileArgInWorkdir(dir, w string) string {
	prefix, p := "", w
	for _, o := range []string{"-isystem", "-iquote", "-I"} {
		if rest, ok := strings.CutPrefix(w, o); ok && rest != "" {
			prefix, p = o, rest
			break
		}
	}
	if !filepath.IsAbs(p) || strings.Contains(p, "..") {
		return w
	}
	if (prefix != "" || !strings.HasPrefix(w, "-")) && strings.HasPrefix(filepath.Clean(p), "/usr/") {
		return prefix + "usr"
	}
	if g.settingsPathUnsound(dir, p) == "" {
		return prefix + "in-workdir"
	}
	return w
}
