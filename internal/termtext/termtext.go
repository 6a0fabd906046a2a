// Package termtext makes text the operator did not write safe to show on a
// terminal: a model's tool call, a name from a cloned repository or a
// copied data home. Such text may hold characters a terminal acts on
// instead of showing (escape sequences, carriage returns, backspaces),
// characters that show as nothing (zero-width and bidirectional controls,
// variation selectors, tags) and blanks that look like a space but are not
// one. Each of those is written as a Go escape (\x1b, \r, \u202e), so what
// the operator reads is every character the text holds, in order.
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s escaped for one line of a terminal: newlines and tabs
// are escaped too.
func Line(s string) string {
	return escape(s, false)
}

// Lines returns s split at its newlines, each line escaped as [Line]
// escapes but keeping its tabs. A trailing newline gives a last, empty
// line, so that it is seen.
func Lines(s string) []string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = escape(p, true)
	}
	return parts
}

// Shown reports whether r shows as itself on a terminal and may be
// written unescaped: a letter, mark, number, punctuation or symbol, or
// the ASCII space. Controls, format characters, the other blanks, line and
// paragraph separators, private-use, surrogate and unassigned code points
// and the default-ignorable characters that are not format characters
// (variation selectors, Hangul fillers) are not.
func Shown(r rune) bool {
	switch {
	case r == ' ':
		return true
	case r < 0x7f:
		return r > ' '
	case !unicode.IsGraphic(r), unicode.Is(unicode.Zs, r):
		return false
	case unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return false
	}
	return true
}

func escape(s string, keepTabs bool) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || !Shown(r) && !(keepTabs && r == '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\t' && keepTabs, r != utf8.RuneError && Shown(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}
