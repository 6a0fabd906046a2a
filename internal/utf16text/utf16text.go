// Package utf16text measures and cuts strings in UTF-16 code units, the
// unit of a JavaScript string's length. The TypeScript SDK counts
// model-facing sizes, caps and offsets in that unit, so the Go side does too
// wherever a limit must mean the same on both sides.
package utf16text

import "unicode/utf8"

// Len returns the length of s in UTF-16 code units. Invalid bytes count as
// one unit each, as their replacement character would.
func Len(s string) int {
	// Most text is ASCII: one unit a byte, counted without decoding.
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	n := i
	for _, r := range s[i:] {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// Cut returns the longest prefix of s holding at most max UTF-16 code units
// without splitting a character, and whether anything was cut.
func Cut(s string, max int) (string, bool) {
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

// Last returns the longest suffix of s holding at most max UTF-16 code units
// without splitting a character.
func Last(s string, max int) string {
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
