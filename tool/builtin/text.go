package builtin

import (
	"strings"
	"unicode/utf8"
)

// utf16Len returns the length of s in UTF-16 code units, the unit of a
// JavaScript string's length, which the model-facing counts and caps of
// these tools use. Invalid bytes count as one unit each, as their
// replacement character would.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// cutUTF16 returns the longest prefix of s holding at most max UTF-16 code
// units without splitting a character, and whether anything was cut.
func cutUTF16(s string, max int) (string, bool) {
	if len(s) <= max {
		// A string of n bytes never holds more than n units.
		return s, false
	}
	n := 0
	for i, r := range s {
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > max {
			return s[:i], true
		}
		n += w
	}
	return s, false
}

// lastUTF16 returns the longest suffix of s holding at most max UTF-16 code
// units without splitting a character.
func lastUTF16(s string, max int) string {
	n := 0
	i := len(s)
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		w := 1
		if r >= 0x10000 {
			w = 2
		}
		if n+w > max {
			break
		}
		n += w
		i -= size
	}
	return s[i:]
}

// validText returns b as a string, with every invalid UTF-8 sequence
// replaced by U+FFFD, as a UTF-8 decoder reading text for the model does.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}
