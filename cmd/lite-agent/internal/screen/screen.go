// Package screen makes text the operator did not write safe to show on a
// terminal: model answers, tool results, names and descriptions from
// configuration files, records of a data home, error texts quoting them.
//
// Such text must not drive the terminal (ESC, CSI, OSC sequences, 8-bit
// C1 controls, a carriage return or backspace rewriting a line), reorder
// or hide characters (bidirectional controls, zero-width and other format
// characters) or draw a line of its own that looks like the CLI's (a
// newline followed by a forged prompt or summary). Every rune that
// [unicode.IsPrint] rejects, other than the ASCII space, is shown as a Go
// string escape (\n, \x1b, \u202e); bytes that are not UTF-8 as \xNN.
// Letters, marks, digits, punctuation, symbols and emoji are kept.
//
// The functions are safe for concurrent use.
package screen

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s on one line, every character that is not printable
// written as its Go escape. It suits messages that mix the CLI's words
// with foreign text, such as an error quoting a file name.
func Line(s string) string { return escape(s, false) }

// Text returns s with its line breaks (\n) and tabs kept and every other
// character that is not printable written as its Go escape, a carriage
// return included. It suits text whose lines are its own, such as a
// model's streamed answer.
func Text(s string) string { return escape(s, true) }

// printable reports whether every rune of s is printable and valid UTF-8.
func printable(s string) bool {
	for i, r := range s {
		if !shows(r) || r == utf8.RuneError && isInvalid(s[i:]) {
			return false
		}
	}
	return true
}

// shows reports whether r is shown as itself.
func shows(r rune) bool { return r == ' ' || unicode.IsPrint(r) }

// isInvalid reports whether s begins with a byte that is not UTF-8.
func isInvalid(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	return r == utf8.RuneError && n <= 1
}

func escape(s string, keepLines bool) string {
	if printable(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case shows(r), keepLines && (r == '\n' || r == '\t'):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}
