// Package gitconfig reads git configuration files (.git/config,
// ~/.gitconfig, an included file) as git's own parser, config.c, reads
// them, for the permission gate and the sandbox, which decide from a
// repository's configuration whether git would run a program.
//
// [Parse] turns the bytes of one file into the variables git hands on,
// in order, and follows no include: include.path and
// includeIf.<condition>.path are entries like any other, which the caller
// resolves. Where git reads a file the same way in every version, Parse
// returns what git reads; where git refuses the file (and every git
// command with it stops), or where git versions read it differently,
// Parse returns an [*Error], never a guess. The rules, with git's:
//
//   - A UTF-8 byte order mark at the start is skipped; a part of one is
//     an error. CR LF is LF, and the end of the file ends the last line.
//   - Blanks are space, tab, CR and LF (not VT or FF). A # or ; outside a
//     value's quotes starts a comment to the end of the line.
//   - [section] and [section.subsection] are lower-cased; in
//     [section "subsection"] the subsection is kept as written, a
//     backslash taking the next byte as it is.
//   - A key begins with a letter and goes on with letters, digits and
//     "-", and is lower-cased. A key with no "=" is git's implicit true.
//   - A value drops its blanks at both ends and keeps those between
//     words; double quotes keep everything, the escapes are \t, \n, \b,
//     \\ and \" (any other is an error), and a backslash at the end of a
//     line goes on with the next one.
//   - git's C strings end at a NUL byte: a value, or a name whose
//     subsection holds one, is what comes before it
//     ([core "fsmonitor\x00"] x = v sets core.fsmonitor).
//
// The one input git versions read differently is a tab or lone CR
// outside quotes between the words of a value: git before 2.45 reads a
// space, later versions the byte itself. Parse reports it as an error.
package gitconfig

import (
	"bytes"
	"fmt"
	"strings"
)

// An Entry is one variable of a git configuration file, as git's parser
// hands it on.
type Entry struct {
	// Name is the variable's full name: the section in lower case, the
	// subsection as written ([diff "Foo"]) or in lower case ([diff.Foo]),
	// and the key in lower case, joined by dots ("core.fsmonitor",
	// "diff.Foo.textconv", "includeif.gitdir:~/w/.path"). A key before
	// any section header has no section ("fsmonitor").
	Name string

	// Value is the value as git reads it; "" when NoValue is set.
	Value string

	// NoValue is set for a key written without "=", which git takes as
	// true for a boolean and as an error for anything else.
	NoValue bool
}

// Section returns the part of e's name before its first dot, "" when
// the name has none.
func (e Entry) Section() string {
	s, _, ok := strings.Cut(e.Name, ".")
	if !ok {
		return ""
	}
	return s
}

// Subsection returns the part of e's name between its first and its last
// dot, as git's parse_config_key splits a name: "Foo" for
// "diff.Foo.textconv", "" for "core.fsmonitor".
func (e Entry) Subsection() string {
	first, last := strings.IndexByte(e.Name, '.'), strings.LastIndexByte(e.Name, '.')
	if first == last {
		return ""
	}
	return e.Name[first+1 : last]
}

// Key returns the part of e's name after its last dot: "fsmonitor" for
// "core.fsmonitor".
func (e Entry) Key() string {
	return e.Name[strings.LastIndexByte(e.Name, '.')+1:]
}

// An Error reports where and why [Parse] stopped.
type Error struct {
	// Line is the 1-based line of the file where Parse stopped.
	Line int

	// Reason says what Parse found there.
	Reason string

	// VersionDependent is set when git reads the line, but not the same
	// in every version; otherwise git refuses the file too.
	VersionDependent bool
}

// Error says the line and why it was not read.
func (e *Error) Error() string {
	return fmt.Sprintf("git configuration line %d: %s", e.Line, e.Reason)
}

// Parse reads the git configuration file data and returns its variables
// in the order of the file. On an error (always an [*Error]) it returns
// the variables before the line where it stopped too, for callers that
// look for settings a line may have given before it; git itself uses none
// of them, since it refuses the whole file. Parse is a pure function, safe
// for concurrent use.
func Parse(data []byte) ([]Entry, error) {
	p := &parser{b: data, line: 1}
	const bom = "\xef\xbb\xbf"
	if len(data) > 0 && data[0] == bom[0] {
		// git skips a whole mark and refuses a part of one.
		if !bytes.HasPrefix(data, []byte(bom)) {
			return nil, p.fail("a partial byte order mark")
		}
		p.i = len(bom)
	}
	var entries []Entry
	base := ""
	comment := false
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return entries, nil
			}
			comment = false
			continue
		case comment || space(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			name, err := p.header()
			if err != nil {
				return entries, err
			}
			base = name + "."
			continue
		case !alpha(c):
			return entries, p.fail(fmt.Sprintf("%q where a key or section header should begin", c))
		}
		e, err := p.entry(base, c)
		if err != nil {
			return entries, err
		}
		entries = append(entries, e)
	}
}

// parser hands out the bytes of a configuration file as git's
// get_next_char does: CR LF is LF, and the end of the file is an LF with
// eof set.
type parser struct {
	b    []byte
	i    int
	eof  bool
	line int // of the byte next returned last
	nl   bool
}

// next returns the next byte.
func (p *parser) next() byte {
	if p.nl {
		p.line++
		p.nl = false
	}
	if p.i >= len(p.b) {
		p.eof = true
		return '\n'
	}
	c := p.b[p.i]
	p.i++
	if c == '\r' && p.i < len(p.b) && p.b[p.i] == '\n' {
		p.i++
		c = '\n'
	}
	p.nl = c == '\n'
	return c
}

// fail returns the error for the line of the byte read last.
func (p *parser) fail(reason string) *Error {
	return &Error{Line: p.line, Reason: reason}
}

// header reads a section header after its "[", as git's get_base_var
// and get_extended_base_var do, and returns the name it gives the
// variables that follow, without their key: the lower-cased section, then
// a dot and the subsection as written when there is one in quotes.
func (p *parser) header() (string, error) {
	var name []byte
	for {
		c := p.next()
		switch {
		case p.eof:
			return "", p.fail("a section header the file ends in")
		case c == ']':
			if len(name) == 0 {
				return "", p.fail("an empty section name")
			}
			return string(name), nil
		case space(c):
			return p.subsection(name, c)
		case !keyChar(c) && c != '.':
			return "", p.fail(fmt.Sprintf("%q in a section name", c))
		}
		name = append(name, lower(c))
	}
}

// subsection reads the rest of [section "subsection"] after the blank c.
// The section may be empty, as in git: [ "x"] names x's variables ".x.key".
func (p *parser) subsection(name []byte, c byte) (string, error) {
	for space(c) {
		if c == '\n' {
			return "", p.fail("a section header the line ends in")
		}
		c = p.next()
	}
	if c != '"' {
		return "", p.fail("a section name followed by a blank and no quoted subsection")
	}
	name = append(name, '.')
	for {
		c := p.next()
		switch c {
		case '\n':
			return "", p.fail("a subsection the line ends in")
		case '"':
			if p.next() != ']' {
				return "", p.fail("a subsection's closing quote not followed by \"]\"")
			}
			return string(name), nil
		case '\\':
			if c = p.next(); c == '\n' {
				return "", p.fail("a subsection the line ends in")
			}
		}
		name = append(name, c)
	}
}

// entry reads a variable whose key's first byte is first, and its value,
// as git's get_value and parse_value do.
func (p *parser) entry(base string, first byte) (Entry, error) {
	key := []byte{lower(first)}
	c := p.next()
	for !p.eof && keyChar(c) {
		key = append(key, lower(c))
		c = p.next()
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	name := cString(base + string(key))
	if c == '\n' {
		return Entry{Name: name, NoValue: true}, nil
	}
	if c != '=' {
		return Entry{}, p.fail(fmt.Sprintf("%q after the key %q", c, key))
	}
	v, err := p.value()
	if err != nil {
		return Entry{}, err
	}
	return Entry{Name: name, Value: cString(v)}, nil
}

// value reads a value after its "=" to the end of its line.
func (p *parser) value() (string, error) {
	var v []byte
	quote, comment := false, false
	var blanks []byte // outside quotes after the value so far, not yet kept
	for {
		c := p.next()
		switch {
		case c == '\n':
			if quote {
				return "", p.fail("a quote the line ends in")
			}
			return string(v), nil // blanks at the end are dropped
		case comment:
			continue
		case space(c) && !quote:
			if len(v) > 0 {
				blanks = append(blanks, c)
			}
			continue
		case !quote && (c == '#' || c == ';'):
			comment = true
			continue
		}
		for _, b := range blanks {
			// After a NUL byte, which ends the value git uses, it is no matter.
			if b != ' ' && bytes.IndexByte(v, 0) < 0 {
				err := p.fail(fmt.Sprintf("%q between the words of a value, which git versions read differently", b))
				err.VersionDependent = true
				return "", err
			}
		}
		v = append(v, blanks...)
		blanks = blanks[:0]
		switch c {
		case '\\':
			switch c = p.next(); c {
			case '\n':
				// At the end of the file too: the next byte is then
				// one more LF, which ends the value.
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", p.fail(fmt.Sprintf("the unknown escape \\%c", c))
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// cString is s up to its first NUL byte, as git's C strings see it.
func cString(s string) string {
	s, _, _ = strings.Cut(s, "\x00")
	return s
}

// space reports whether c is a blank to git (its isspace).
func space(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// alpha reports whether c is an ASCII letter.
func alpha(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// keyChar reports whether c may be part of a key or section name.
func keyChar(c byte) bool {
	return alpha(c) || '0' <= c && c <= '9' || c == '-'
}

// lower is c in lower case, for an ASCII letter.
func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
