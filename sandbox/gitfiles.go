package sandbox

import (
	"bytes"
	"errors"
	"strings"
)

// A configEntry is one setting of a git configuration file: its key in
// lower case but for the subsection ("diff.Foo.textconv" reads
// "diff.Foo.textconv", "Core.FSMonitor" reads "core.fsmonitor"), and
// its value as git reads it. A key without "=" has the value "" and
// implicit is set.
type configEntry struct {
	key, value string
	implicit   bool
}

// errConfigSyntax is returned for a configuration file git would not read
// as parseGitConfig does; the repository check treats such a file as one
// that runs code.
var errConfigSyntax = errors.New("git configuration syntax not understood")

// parseGitConfig parses a git configuration file as git's config.c does:
// sections "[name]", "[name "subsection"]" and the old "[name.subsection]",
// "key = value" lines with quotes, the escapes \n \t \b \\ \", a
// backslash before a newline continuing the value, and "#" or ";"
// comments outside quotes. It reads no includes. Anything it does not
// understand is errConfigSyntax, never a guess.
func parseGitConfig(data []byte) ([]configEntry, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.IndexByte(data, 0) >= 0 {
		return nil, errConfigSyntax // git's C strings end there
	}
	var out []configEntry
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
			s, n, err := parseSection(data[i+1:])
			if err != nil {
				return nil, err
			}
			section, i = s, i+1+n
		case isAlpha(c):
			if section == "" {
				return nil, errConfigSyntax
			}
			j := i
			for j < len(data) && (isAlpha(data[j]) || isDigit(data[j]) || data[j] == '-') {
				j++
			}
			name := strings.ToLower(string(data[i:j]))
			for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			e := configEntry{key: section + "." + name}
			switch {
			case j >= len(data) || data[j] == '\n' || data[j] == '\r' || data[j] == '#' || data[j] == ';':
				e.implicit = true
				i = j
			case data[j] == '=':
				v, n, err := parseValue(data[j+1:])
				if err != nil {
					return nil, err
				}
				e.value, i = v, j+1+n
			default:
				return nil, errConfigSyntax
			}
			out = append(out, e)
		default:
			return nil, errConfigSyntax
		}
	}
	return out, nil
}

// parseSection parses a section header after its "[" and returns the
// section's key prefix and the bytes it used, the "]" included.
func parseSection(b []byte) (string, int, error) {
	i := 0
	for i < len(b) && (isAlpha(b[i]) || isDigit(b[i]) || b[i] == '-' || b[i] == '.') {
		i++
	}
	if i == 0 || i >= len(b) {
		return "", 0, errConfigSyntax
	}
	name := strings.ToLower(string(b[:i]))
	if b[i] == ']' {
		// [name.sub]: the old form, whose subsection git lowercases too.
		return name, i + 1, nil
	}
	if b[i] != ' ' && b[i] != '\t' {
		return "", 0, errConfigSyntax
	}
	for i < len(b) && (b[i] == ' ' || b[i] == '\t') {
		i++
	}
	if i >= len(b) || b[i] != '"' || strings.Contains(name, ".") {
		return "", 0, errConfigSyntax
	}
	i++
	var sub []byte
	for {
		if i >= len(b) || b[i] == '\n' || b[i] == 0 {
			return "", 0, errConfigSyntax
		}
		if b[i] == '"' {
			break
		}
		if b[i] == '\\' {
			i++
			if i >= len(b) || b[i] == '\n' {
				return "", 0, errConfigSyntax
			}
		}
		sub = append(sub, b[i])
		i++
	}
	i++
	if i >= len(b) || b[i] != ']' {
		return "", 0, errConfigSyntax
	}
	return name + "." + string(sub), i + 1, nil
}

// parseValue parses a value after its "=" up to the end of its line, as
// git's parse_value does, and returns it and the bytes it used: blanks
// outside quotes are kept as spaces between words and dropped at both
// ends, a "#" or ";" outside quotes starts a comment.
func parseValue(b []byte) (string, int, error) {
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
				return "", 0, errConfigSyntax
			}
			switch b[i] {
			case '\r':
				if i+1 < len(b) && b[i+1] == '\n' {
					i++
					continue
				}
				return "", 0, errConfigSyntax
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
				return "", 0, errConfigSyntax
			}
		default:
			v = append(v, c)
		}
	}
	if quoted {
		return "", 0, errConfigSyntax
	}
	if trimTo >= 0 {
		v = v[:trimTo]
	}
	return string(v), i, nil
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }
