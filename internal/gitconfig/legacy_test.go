package gitconfig

// The two readers the gate (permission/hookspath.go) and the sandbox
// (sandbox/gitfiles.go) had before this package, copied unchanged but for
// their names, for the differential test in legacy_test.go.

import (
	"bytes"
	"errors"
	"strings"
)

type gateEntry struct {
	section, key, value string
}

// parseGitConfig is gitConfigEntries for the contents b of a file.
func gateParse(b []byte) (entries []gateEntry, ok bool) {
	const bom = "\xef\xbb\xbf"
	if len(b) > 0 && b[0] == bom[0] {
		if !bytes.HasPrefix(b, []byte(bom)) {
			return entries, false // git takes no part of one
		}
		b = b[len(bom):]
	}
	r := &gateReader{b: b}
	base := ""
	comment := false
	for {
		c := r.next()
		switch {
		case c == '\n':
			if r.eof {
				return entries, true
			}
			comment = false
			continue
		case comment || gateSpace(c):
			continue
		case c == '#' || c == ';':
			comment = true
			continue
		case c == '[':
			name, ok := r.header()
			if !ok || name == "" {
				return entries, false
			}
			base = name
			continue
		case !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
			return entries, false
		}
		key, value, ok := r.entry(c)
		if !ok {
			return entries, false
		}
		if e, ok := gateMakeEntry(base+"."+key, value); ok {
			entries = append(entries, e)
		}
	}
}

// gateMakeEntry makes the entry of the variable name (section, subsection
// and key joined by dots, as git's callbacks see it) with value, cut at a
// NUL byte as git's C strings are; ok is false for a name with no
// section or key, and for an empty value.
func gateMakeEntry(name, value string) (e gateEntry, ok bool) {
	name, _, _ = strings.Cut(name, "\x00")
	value, _, _ = strings.Cut(value, "\x00")
	first, last := strings.IndexByte(name, '.'), strings.LastIndexByte(name, '.')
	if first <= 0 || last == len(name)-1 || value == "" {
		return e, false
	}
	e = gateEntry{section: strings.ToLower(name[:first]), key: strings.ToLower(name[last+1:]), value: value}
	if last > first {
		e.section += " " + name[first+1:last]
	}
	return e, true
}

// gateReader hands out the bytes of a git configuration file as
// git's get_next_char does: CR LF is LF, and the end of the file is an LF
// with eof set.
type gateReader struct {
	b   []byte
	i   int
	eof bool
}

// next returns the next byte.
func (r *gateReader) next() byte {
	if r.i >= len(r.b) {
		r.eof = true
		return '\n'
	}
	c := r.b[r.i]
	r.i++
	if c == '\r' && r.i < len(r.b) && r.b[r.i] == '\n' {
		r.i++
		return '\n'
	}
	return c
}

// header reads a section header after its "[", as git's get_base_var
// and get_extended_base_var do: the lower-cased name, then a dot and the
// subsection as written when there is one.
func (r *gateReader) header() (string, bool) {
	var name []byte
	for {
		c := r.next()
		switch {
		case r.eof:
			return "", false
		case c == ']':
			return string(name), true
		case gateSpace(c):
			for gateSpace(c) {
				if c == '\n' {
					return "", false
				}
				c = r.next()
			}
			if c != '"' {
				return "", false
			}
			name = append(name, '.')
			for {
				c := r.next()
				if c == '\n' {
					return "", false
				}
				if c == '"' {
					break
				}
				if c == '\\' {
					if c = r.next(); c == '\n' {
						return "", false
					}
				}
				name = append(name, c)
			}
			return string(name), r.next() == ']'
		case !gateKeyChar(c) && c != '.':
			return "", false
		}
		name = append(name, gateLower(c))
	}
}

// entry reads a key, whose first byte is first, and its value, as git's
// get_value and parse_value do: a key with no "=" is true.
func (r *gateReader) entry(first byte) (key, value string, ok bool) {
	name := []byte{gateLower(first)}
	c := r.next()
	for !r.eof && gateKeyChar(c) {
		name = append(name, gateLower(c))
		c = r.next()
	}
	for c == ' ' || c == '\t' {
		c = r.next()
	}
	if c == '\n' {
		return string(name), "true", true
	}
	if c != '=' {
		return "", "", false
	}
	var v []byte
	quote, comment, space := false, false, 0
	for {
		c := r.next()
		switch {
		case c == '\n':
			return string(name), string(v), !quote
		case comment:
			continue
		case gateSpace(c) && !quote:
			if len(v) > 0 {
				space++
			}
			continue
		case !quote && (c == '#' || c == ';'):
			comment = true
			continue
		}
		for ; space > 0; space-- {
			v = append(v, ' ')
		}
		switch c {
		case '\\':
			switch c = r.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", "", false
			}
		case '"':
			quote = !quote
			continue
		}
		v = append(v, c)
	}
}

// gateSpace reports whether c is white space to git (its isspace).
func gateSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// gateKeyChar reports whether c may be part of a git key or section name.
func gateKeyChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
}

// gateLower is c in lower case, for an ASCII letter.
func gateLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

type sbEntry struct {
	key, value string
	implicit   bool
}

// parseGitConfig parses a git configuration file as git's config.c does:
// sections "[name]", "[name "subsection"]" and the old "[name.subsection]",
// "key = value" lines with quotes, the escapes \n \t \b \\ \", a
// backslash before a newline continuing the value, and "#" or ";"
// comments outside quotes. It reads no includes. Anything it does not
// understand is sbErrSyntax, never a guess.
func sbParse(data []byte) ([]sbEntry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, sbErrSyntax // git's C strings end there
	}
	var out []sbEntry
	section := ""
	i := 0
	for i < len(data) {
		c := data[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '#' || c == ';':
			for i < len(data) && data[i] != '\n' {
				i++
			}
		case c == '[':
			s, n, err := sbSection(data[i+1:])
			if err != nil {
				return nil, err
			}
			section, i = s, i+1+n
		case sbAlpha(c):
			if section == "" {
				return nil, sbErrSyntax
			}
			j := i
			for j < len(data) && (sbAlpha(data[j]) || sbDigit(data[j]) || data[j] == '-') {
				j++
			}
			name := strings.ToLower(string(data[i:j]))
			for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			e := sbEntry{key: section + "." + name}
			switch {
			case j >= len(data) || data[j] == '\n' || data[j] == '\r' || data[j] == '#' || data[j] == ';':
				e.implicit = true
				i = j
			case data[j] == '=':
				v, n, err := sbValue(data[j+1:])
				if err != nil {
					return nil, err
				}
				e.value, i = v, j+1+n
			default:
				return nil, sbErrSyntax
			}
			out = append(out, e)
		default:
			return nil, sbErrSyntax
		}
	}
	return out, nil
}

// sbSection parses a section header after its "[" and returns the
// section's key prefix and the bytes it used, the "]" included.
func sbSection(b []byte) (string, int, error) {
	i := 0
	for i < len(b) && (sbAlpha(b[i]) || sbDigit(b[i]) || b[i] == '-' || b[i] == '.') {
		i++
	}
	if i == 0 || i >= len(b) {
		return "", 0, sbErrSyntax
	}
	name := strings.ToLower(string(b[:i]))
	if b[i] == ']' {
		// [name.sub]: the old form, whose subsection git lowercases too.
		return name, i + 1, nil
	}
	if b[i] != ' ' && b[i] != '\t' {
		return "", 0, sbErrSyntax
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i >= len(b) || b[i] != '"' || strings.Contains(name, ".") {
		return "", 0, sbErrSyntax
	}
	i++
	var sub []byte
	for {
		if i >= len(b) || b[i] == '\n' || b[i] == 0 {
			return "", 0, sbErrSyntax
		}
		if b[i] == '"' {
			break
		}
		if b[i] == '\\' {
			i++
			if i >= len(b) || b[i] == '\n' {
				return "", 0, sbErrSyntax
			}
		}
		sub = append(sub, b[i])
		i++
	}
	i++
	if i >= len(b) || b[i] != ']' {
		return "", 0, sbErrSyntax
	}
	return name + "." + string(sub), i + 1, nil
}

// sbValue parses a value after its "=" up to the end of its line, as
// git's parse_value does, and returns it and the bytes it used: blanks
// outside quotes are kept as spaces between words and dropped at both
// ends, a "#" or ";" outside quotes starts a comment.
func sbValue(b []byte) (string, int, error) {
	var v []byte
	quoted, comment := false, false
	trimTo := -1 // where trailing blanks outside quotes begin; -1: none
	i := 0
	for ; i < len(b); i++ {
		c := b[i]
		if c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		if c == '\n' {
			break
		}
		if comment {
			continue
		}
		if !quoted && (c == ' ' || c == '\t' || c == '\r') {
			if len(v) > 0 {
				if trimTo < 0 {
					trimTo = len(v)
				}
				v = append(v, ' ')
			}
			continue
		}
		if !quoted && (c == '#' || c == ';') {
			comment = true
			continue
		}
		trimTo = -1
		switch c {
		case '"':
			quoted = !quoted
		case '\\':
			i++
			if i >= len(b) {
				return "", 0, sbErrSyntax
			}
			switch b[i] {
			case '\r':
				if i+1 < len(b) && b[i+1] == '\n' {
					i++
					continue
				}
				return "", 0, sbErrSyntax
			case '\n':
			case 'n':
				v = append(v, '\n')
			case 't':
				v = append(v, '\t')
			case 'b':
				v = append(v, '\b')
			case '\\', '"':
				v = append(v, b[i])
			default:
				return "", 0, sbErrSyntax
			}
		default:
			v = append(v, c)
		}
	}
	if quoted {
		return "", 0, sbErrSyntax
	}
	if trimTo >= 0 {
		v = v[:trimTo]
	}
	return string(v), i, nil
}

func sbAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func sbDigit(c byte) bool { return c >= '0' && c <= '9' }

var sbErrSyntax = errors.New("git configuration syntax not understood")
