package permission

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"
)

// A Doxyfile names where doxygen writes (OUTPUT_DIRECTORY, HTML_OUTPUT
// and the other outputs, WARN_LOGFILE, GENERATE_TAGFILE), what it reads
// and copies into its output (INPUT, HTML_EXTRA_FILES, HTML_HEADER,
// TAGFILES …), the commands it runs (INPUT_FILTER, FILTER_PATTERNS,
// FILTER_SOURCE_PATTERNS, FILE_VERSION_FILTER, DOT_PATH …) and more
// Doxyfiles to read (@INCLUDE). Real doxygen wrote ../home/… at round
// redteam123 by each, while the gate allowed `doxygen`. The gate reads the
// Doxyfile doxygen reads (Doxyfile, doxyfile, or the file its words
// name) and the files it includes, and makes the line opaque when a
// command key is set, a value of a key that may name a file lies outside
// the workdir, inside .git or on a protected path (or uses $(VAR),
// which doxygen expands from the environment), or a line is one it does
// not read. Doxygen's own template (doxygen -g) and a Doxyfile that
// writes docs/ stay allowed.

// doxyCommandKeys are the Doxyfile keys that name a program, or a
// command string, that doxygen runs, or the files or options of one
// (plantuml's, clang's): any value asks.
var doxyCommandKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"INPUT_FILTER": true, "FILTER_PATTERNS": true, "FILTER_SOURCE_PATTERNS": true, "FILE_VERSION_FILTER": true,
		"HHC_LOCATION": true, "QHG_LOCATION": true, "DOT_PATH": true, "MSCGEN_PATH": true, "DIA_PATH": true,
		"PLANTUML_JAR_PATH": true, "PLANTUML_CFG_FILE": true, "PLANTUML_INCLUDE_PATH": true, "LATEX_CMD_NAME": true,
		"MAKEINDEX_CMD_NAME": true, "CLANG_OPTIONS": true, "CLANG_DATABASE_PATH": true, "PERL_PATH": true,
		"@INCLUDE_PATH": true,
	}
})

// doxyTextKeys are the Doxyfile keys whose values are text, patterns or
// prefixes, never a file doxygen opens: they are not judged as paths.
var doxyTextKeys = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"PROJECT_NAME": true, "PROJECT_NUMBER": true, "PROJECT_BRIEF": true, "ABBREVIATE_BRIEF": true,
		"STRIP_FROM_PATH": true, "STRIP_FROM_INC_PATH": true, "ALIASES": true, "PREDEFINED": true,
		"EXPAND_AS_DEFINED": true, "EXCLUDE": true, "EXCLUDE_PATTERNS": true, "EXCLUDE_SYMBOLS": true,
		"FILE_PATTERNS": true, "EXAMPLE_PATTERNS": true, "EXTENSION_MAPPING": true, "MATHJAX_RELPATH": true,
		"SEARCHENGINE_URL": true, "EXTERNAL_SEARCH_ID": true, "EXTRA_SEARCH_MAPPINGS": true, "DOCSET_FEEDURL": true,
		"DOCSET_FEEDNAME": true, "DOCSET_BUNDLE_ID": true, "DOCSET_PUBLISHER_ID": true, "DOCSET_PUBLISHER_NAME": true,
		"QHP_NAMESPACE": true, "QHP_VIRTUAL_FOLDER": true, "QHP_CUST_FILTER_NAME": true, "QHP_CUST_FILTER_ATTRS": true,
		"QHP_SECT_FILTER_ATTRS": true, "ECLIPSE_DOC_ID": true, "HTML_FILE_EXTENSION": true, "DOT_FONTNAME": true,
		"DOT_COMMON_ATTR": true, "DOT_EDGE_ATTR": true, "DOT_NODE_ATTR": true, "LATEX_BIB_STYLE": true,
		"PAPER_TYPE": true, "WARN_FORMAT": true, "WARN_LINE_FORMAT": true, "EXTRA_PACKAGES": true, "MAN_EXTENSION": true, "MAN_SUBDIR": true, "PERLMOD_MAKEVAR_PREFIX": true,
		"OUTPUT_LANGUAGE": true, "INPUT_ENCODING": true, "INPUT_FILE_ENCODING": true,
		"CHM_INDEX_ENCODING": true, "TOC_INCLUDE_HEADINGS": true, "HTML_FORMULA_FORMAT": true, "MATHJAX_VERSION": true,
		"MATHJAX_FORMAT": true, "MATHJAX_EXTENSIONS": true,
	}
})

// doxyLine matches a Doxyfile assignment: a key (or @INCLUDE,
// @INCLUDE_PATH), = or +=, and the value.
var doxyLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(@?[A-Za-z_][A-Za-z0-9_]*)[ \t]*\+?=(.*)$`)
})

// doxyWord matches a word of a Doxyfile value: quoted, or up to blank.
var doxyWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"|([^\s"]+)`) })

// doxyProgram matches a program's plain name, which PATH finds.
var doxyProgram = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.+-]*$`) })

// doxyfileUnsound says why the Doxyfile at path, holding text, that
// doxygen run in cwd reads may make it write outside the workdir, read a
// file there or run a command, or "", and returns the files it includes.
// Doxygen resolves relative paths, and @INCLUDE, from its working
// directory; an output below OUTPUT_DIRECTORY is judged from cwd too,
// which only makes a path with .. ask sooner.
func (g *Gate) doxyfileUnsound(cwd, text string) (string, []string) {
	var more []string
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := doxyLine().FindStringSubmatch(line)
		if m == nil {
			return "has a line the gate does not read: " + clip(line), nil
		}
		key, value := strings.ToUpper(m[1]), strings.TrimSpace(m[2])
		if strings.Contains(value, `\"`) {
			return "sets " + clip(key) + " to a value with an escape, which the gate does not read", nil
		}
		var words []string
		end := -1
		for _, ix := range doxyWord().FindAllStringSubmatchIndex(value, -1) {
			if ix[0] == end {
				// ".""./home": doxygen joins a quoted word to the
				// word it touches, into ../home (round redteam125).
				return "sets " + clip(key) + " to a quoted word that touches another, which doxygen joins", nil
			}
			end = ix[1]
			words = append(words, value[ix[0]:ix[1]])
			if ix[2] >= 0 {
				words[len(words)-1] = value[ix[2]:ix[3]]
			}
		}
		if strings.Count(value, `"`)%2 != 0 {
			return "sets " + clip(key) + " to a value the gate does not read", nil
		}
		if doxyCommandKeys()[key] {
			if (key == "LATEX_CMD_NAME" || key == "MAKEINDEX_CMD_NAME") && doxyProgram().MatchString(value) {
				continue // makeindex, pdflatex: a program PATH finds
			}
			if strings.Trim(value, `" `) != "" {
				return "sets " + clip(key) + ", which names a command doxygen runs or its files", nil
			}
			continue
		}
		if key == "DOXYFILE_ENCODING" {
			// Doxygen recodes every value from it: in UTF-7,
			// +AC4ALgAv-home is ../home (round redteam125).
			if e := strings.ToUpper(strings.Trim(value, `" `)); e != "" && e != "UTF-8" && e != "UTF8" {
				return "sets DOXYFILE_ENCODING to " + clip(value) + ", from which doxygen recodes the values the gate reads", nil
			}
			continue
		}
		if doxyTextKeys()[key] {
			continue
		}
		for _, w := range words {
			// TAGFILES = file=location: the file is read.
			if f, _, ok := strings.Cut(w, "="); ok && key == "TAGFILES" {
				w = f
			}
			if why := g.settingsPathUnsound(cwd, w); why != "" {
				return "sets " + clip(key) + " to " + clip(w) + ": " + why, nil
			}
			if key == "@INCLUDE" {
				p := w
				if !filepath.IsAbs(p) {
					p = filepath.Join(cwd, p)
				}
				more = append(more, filepath.Clean(p))
			}
		}
	}
	return "", more
}
