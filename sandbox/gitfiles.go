package sandbox

import (
	"bytes"
	"encoding/binary"
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

// gitlinkMode is the mode of an index entry that records a submodule.
const gitlinkMode = 0o160000

// errIndexFormat is returned for an index readGitlinks cannot parse.
var errIndexFormat = errors.New("git index format not understood")

// readGitlinks returns the paths of the gitlink entries (submodules and
// embedded repositories) of a git index file, versions 2, 3 and 4, whose
// object names are hashLen bytes long (20 for SHA-1, 32 for SHA-256).
// A split index, whose entries are mostly in another file, is
// errIndexFormat like any index it cannot read.
func readGitlinks(data []byte, hashLen int) ([]string, error) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, errIndexFormat
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, errIndexFormat
	}
	count := binary.BigEndian.Uint32(data[8:12])
	var links []string
	var prev []byte
	off := 12
	fixed := 40 + hashLen + 2 // stat data, object name, flags
	for n := uint32(0); n < count; n++ {
		start := off
		if off+fixed > len(data) {
			return nil, errIndexFormat
		}
		mode := binary.BigEndian.Uint32(data[off+24 : off+28])
		flags := binary.BigEndian.Uint16(data[off+40+hashLen : off+fixed])
		off += fixed
		if flags&0x4000 != 0 {
			if version < 3 {
				return nil, errIndexFormat
			}
			off += 2
		}
		var name []byte
		if version == 4 {
			strip, used := indexVarint(data[min(off, len(data)):])
			if used == 0 || strip > uint64(len(prev)) {
				return nil, errIndexFormat
			}
			off += used
			end := bytes.IndexByte(data[min(off, len(data)):], 0)
			if end < 0 {
				return nil, errIndexFormat
			}
			name = append(append([]byte(nil), prev[:len(prev)-int(strip)]...), data[off:off+end]...)
			off += end + 1
		} else {
			end := bytes.IndexByte(data[min(off, len(data)):], 0)
			if end < 0 {
				return nil, errIndexFormat
			}
			name = data[off : off+end]
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			off = start + (off+end-start+8)&^7
			if off > len(data) {
				return nil, errIndexFormat
			}
		}
		if len(name) == 0 {
			return nil, errIndexFormat
		}
		prev = name
		if mode&0o170000 == gitlinkMode {
			links = append(links, string(name))
		}
	}
	// Extensions follow, each a 4-byte signature and a 4-byte size, until
	// the trailing checksum. A split index ("link") keeps most entries
	// in another file: opaque.
	for off+8 <= len(data)-hashLen {
		size := int64(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if string(data[off:off+4]) == "link" || int64(off)+8+size > int64(len(data)) {
			return nil, errIndexFormat
		}
		off += 8 + int(size)
	}
	return links, nil
}

// indexVarint decodes the offset varint of index version 4 and returns it
// and the bytes it used (0 for none).
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i > 9 {
			return 0, 0
		}
		c = b[i]
		i++
		v = (v+1)<<7 | uint64(c&127)
	}
	return v, i
}
