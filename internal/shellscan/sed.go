package shellscan

import "strings"

// sedRuns reports whether a sed script may run a command or read or write
// a file the analysis does not list: the commands e, w, W, r and R, and
// the e and w flags of s. It reads the script as GNU sed does, command by
// command, and reports true for anything it does not recognize.
func sedRuns(script string) bool {
	s := script
	i := 0
	next := func() byte {
		if i < len(s) {
			c := s[i]
			i++
			return c
		}
		return 0
	}
	// delimited skips a part that ends at an unescaped delim; it reports
	// false when the script ends first.
	delimited := func(delim byte) bool {
		for i < len(s) {
			c := s[i]
			i++
			switch {
			case c == '\\':
				i++
			case c == delim:
				return true
			}
		}
		return false
	}
	toEnd := func(stops string) {
		for i < len(s) && strings.IndexByte(stops, s[i]) < 0 {
			i++
		}
	}
	for i < len(s) {
		// Separators, blanks and blocks.
		if strings.IndexByte(" \t\n;{}!", s[i]) >= 0 {
			i++
			continue
		}
		// Addresses: numbers, $, /re/, \cREc, ranges and steps.
		for i < len(s) {
			c := s[i]
			switch {
			case c >= '0' && c <= '9', c == '$', c == ',', c == '~', c == '+', c == ' ', c == '\t':
				i++
				continue
			case c == '/':
				i++
				if !delimited('/') {
					return true
				}
				for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
					i++
				}
				continue
			case c == '\\':
				i++
				if !delimited(next()) {
					return true
				}
				continue
			}
			break
		}
		for i < len(s) && (s[i] == '!' || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		switch c := next(); c {
		case 0:
			return false
		case '{', '}', ';', '\n':
		case 's':
			delim := next()
			if delim == 0 || delim == '\n' || delim == '\\' || !delimited(delim) || !delimited(delim) {
				return true
			}
			start := i
			toEnd(";\n}")
			flags := s[start:i]
			if strings.ContainsAny(flags, "ewW") {
				return true
			}
			for _, f := range flags {
				if !strings.ContainsRune("gpiImM0123456789 \t", f) {
					return true
				}
			}
		case 'y':
			delim := next()
			if delim == 0 || !delimited(delim) || !delimited(delim) {
				return true
			}
		case 'a', 'i', 'c', '#':
			toEnd("\n")
		case ':', 'b', 't', 'T':
			// GNU sed ends a label at a blank or ';' ("b x w f" branches
			// to x, then writes f); ending it no later is safe.
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			toEnd(" \t;\n}")
		case 'q', 'Q', 'l', 'L':
			for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == ' ') {
				i++
			}
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F':
		default:
			return true // e, w, W, r, R, v and anything unknown
		}
	}
	return false
}
