// Package termtext makes text the operator did not write safe to show on a
// terminal: a model's tool call, a name from a cloned repository or a
// copied data home. Such text may hold characters a terminal acts on
// instead of showing (escape sequences, carriage returns, backspaces),
// characters that show as nothing (zero-width and bidirectional controls,
// variation selectors, tags, blank-looking letters), blanks that look like
// a space but are not one, and marks drawn over the letters around them.
// Each of those is written as a Go escape (\x1b, \r, \u202e), and in a
// line that holds an escape each backslash is doubled, so that an escape
// cannot be told from text that spells one: what the operator reads is
// every character the text holds, in order.
package termtext

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/width"
)

// A Mode chooses how much is escaped.
type Mode uint8

const (
	// Text escapes what a terminal would act on or not show, or would draw
	// over other characters.
	Text Mode = iota
	// Exact escapes also the letters of right-to-left scripts, which a
	// terminal that lays out bidirectional text reorders together with the
	// digits and punctuation around them: for text whose reading decides
	// what a person approves.
	Exact
)

// Line returns s escaped in Text mode for one line of a terminal: newlines
// and tabs are escaped too.
func Line(s string) string { return Text.Line(s) }

// Lines returns s in Text mode as lines for a terminal (see [Mode.Lines]).
func Lines(s string) []string { return Text.Lines(s) }

// Prose returns s escaped in Text mode but for its newlines and tabs,
// which stay: for text written to the terminal as it streams, such as a
// model's answer, whose lines are its own.
func Prose(s string) string { return Text.escape(s, keepBreaks) }

// Line returns s escaped for one line of a terminal: newlines and tabs are
// escaped too.
func (m Mode) Line(s string) string {
	return m.escape(s, 0)
}

// Quote returns s escaped as [Mode.Line] escapes it, between double
// quotes, with each double quote and backslash in it escaped too.
func (m Mode) Quote(s string) string {
	return `"` + m.escape(s, quoteMarks) + `"`
}

// Lines returns s split into lines: at each newline, and after each other
// character that some language reads as a line end (a carriage return,
// a vertical tab, a form feed, U+0085, U+2028, U+2029), which stays,
// escaped, at the end of its line. Each line is escaped as [Mode.Line]
// escapes it, but its tabs are expanded to spaces (stops every 8 columns).
// A trailing newline gives a last, empty line, so that it is seen.
func (m Mode) Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for {
			i := strings.IndexFunc(l, isLineEnd)
			if i < 0 {
				break
			}
			_, n := utf8.DecodeRuneInString(l[i:])
			if i+n == len(l) {
				break
			}
			out = append(out, m.escape(l[:i+n], expandTabs))
			l = l[i+n:]
		}
		out = append(out, m.escape(l, expandTabs))
	}
	return out
}

// isLineEnd reports whether r ends a line in some language (Python, C,
// JavaScript, Unicode) though it is not a newline.
func isLineEnd(r rune) bool {
	switch r {
	case '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// Shown reports whether r shows as itself on a terminal and may be
// written unescaped by itself: a letter, mark, number, punctuation or
// symbol, or the ASCII space. Controls, format characters, the other
// blanks, line and paragraph separators, private-use, surrogate and
// unassigned code points, the default-ignorable characters that are not
// format characters (variation selectors, Hangul fillers), letters and
// symbols that show as blank (U+2800, U+16FE4, U+1D159), enclosing marks
// and the marks drawn across a letter (U+0334-U+0338 …) are not.
func Shown(r rune) bool {
	switch {
	case r == ' ':
		return true
	case r < 0x7f:
		return r > ' '
	case !unicode.IsGraphic(r), unicode.Is(unicode.Zs, r), unicode.Is(unicode.Me, r):
		return false
	case unicode.Is(unicode.Variation_Selector, r), unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
		return false
	case unicode.Is(blankOrOverlay, r):
		return false
	}
	return true
}

// blankOrOverlay holds graphic characters that show as blank, and
// combining marks drawn over or through the letter they follow.
var blankOrOverlay = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x0334, Hi: 0x0338, Stride: 1},
		{Lo: 0x1cd4, Hi: 0x1cd4, Stride: 1},
		{Lo: 0x1ce2, Hi: 0x1ce8, Stride: 1},
		{Lo: 0x20d2, Hi: 0x20d3, Stride: 1},
		{Lo: 0x20d8, Hi: 0x20da, Stride: 1},
		{Lo: 0x20e5, Hi: 0x20e6, Stride: 1},
		{Lo: 0x20ea, Hi: 0x20eb, Stride: 1},
		{Lo: 0x2800, Hi: 0x2800, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x10a39, Hi: 0x10a39, Stride: 1},
		{Lo: 0x16af0, Hi: 0x16af4, Stride: 1},
		{Lo: 0x16fe4, Hi: 0x16fe4, Stride: 1},
		{Lo: 0x1bc9e, Hi: 0x1bc9e, Stride: 1},
		{Lo: 0x1d159, Hi: 0x1d159, Stride: 1},
		{Lo: 0x1d167, Hi: 0x1d169, Stride: 1},
	},
}

// maxMarks is how many combining marks in a row one letter keeps
// unescaped; more are drawn over the lines around it.
const maxMarks = 2

// shown reports whether r, after marks combining marks in a row, is
// written unescaped in mode m.
func (m Mode) shown(r rune, marks int) bool {
	if !Shown(r) {
		return false
	}
	if marks >= maxMarks && unicode.Is(unicode.Mn, r) {
		return false
	}
	if m == Exact && r >= 0x0590 {
		if p, _ := bidi.LookupRune(r); p.Class() == bidi.R || p.Class() == bidi.AL {
			return false
		}
	}
	return true
}

// How escape treats what it does not escape by default.
const (
	expandTabs = 1 << iota // tabs become spaces
	quoteMarks             // double quotes and backslashes are escaped
	keepBreaks             // newlines and tabs stay
)

// escape escapes s as flags say.
func (m Mode) escape(s string, flags int) string {
	lines, quote, keep := flags&expandTabs != 0, flags&quoteMarks != 0, flags&keepBreaks != 0
	kept := func(r rune) bool { return lines && r == '\t' || keep && (r == '\t' || r == '\n') }
	clean, marks := true, 0
	for _, r := range s {
		if r == utf8.RuneError || !kept(r) && !m.shown(r, marks) || quote && (r == '"' || r == '\\') {
			clean = false
			break
		}
		marks = markRun(r, marks)
	}
	if clean && !(lines && strings.Contains(s, "\t")) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	col := 0
	write := func(t string) {
		b.WriteString(t)
		col += utf8.RuneCountInString(t)
	}
	marks = 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			write(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case r == '\t' && lines:
			write(strings.Repeat(" ", 8-col%8))
		case keep && (r == '\t' || r == '\n'):
			b.WriteRune(r)
			col = 0
		case r == '\\' && !clean:
			write(`\\`)
		case r == '"' && quote:
			write(`\"`)
		case r != utf8.RuneError && m.shown(r, marks):
			write(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r)
			write(q[1 : len(q)-1])
		}
		marks = markRun(r, marks)
		i += n
	}
	return b.String()
}

// markRun returns the count of combining marks in a row after r, given
// the count before it.
func markRun(r rune, marks int) int {
	if unicode.Is(unicode.Mn, r) {
		return marks + 1
	}
	return 0
}

// Width returns how many columns s may take on a terminal, counting each
// character that may be wide (East Asian wide, full-width or ambiguous)
// as two: an upper bound, for deciding how many rows text needs.
func Width(s string) int {
	w := 0
	for _, r := range s {
		switch {
		case r < 0x7f:
			w++
		default:
			switch width.LookupRune(r).Kind() {
			case width.EastAsianWide, width.EastAsianFullwidth, width.EastAsianAmbiguous:
				w += 2
			default:
				w++
			}
		}
	}
	return w
}
