package permission

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// maxFormatStarts bounds the places in one word where formatStarts takes a
// format or a value to begin, and the texts sedTexts and hiddenTails find
// in one word: each is checked whole, which costs the word's length.
const maxFormatStarts = 256

// formatSecret returns, as the line spells it, a word of the line (an
// argument of a command, a word of a here-string or here-document, a
// value the line gives a variable) whose literal text, as a command that
// takes a format or a prefixed value prints it, names a secret location
// or a path beneath one (see [spelledCheck.format]); or a program or
// pieces of printed text that do (see [spelledCheck.program],
// [spelledCheck.pieces]); "" when there is none. Such a command prints a
// text of the author's choosing that no word of the line is: date
// +../home/.ssh/id_ed25519 | xargs cat and cat $(stat
// -c%%../home/.ssh/id_ed25519 README | cut -c2-) printed the key (round
// 107).
func (g *Gate) formatSecret(a *shellscan.Analysis) string {
	s := &spelledCheck{g: g, dirs: a.Dirs, seen: map[string]bool{}}
	var words []string
	for _, c := range a.Commands {
		words = append(words, c.Args...)
	}
	words = append(words, inputWords(a)...)
	// The values of variables a program reads its format from
	// (TIME_STYLE for ls and du, TIMEFORMAT for bash's time, PS4 for a
	// trace), in a fixed order.
	for _, name := range slices.Sorted(maps.Keys(a.Vars)) {
		words = append(words, a.Vars[name]...)
	}
	for _, w := range words {
		if s.once('f', w) && s.format(w) {
			return w
		}
	}
	// An option's value given as the next word, printed beside text the
	// command makes (seq -s /home/.ssh/id_ed2551 8 9 | sed s/^8/../).
	for _, c := range a.Commands {
		for i, w := range c.Args {
			if i == 0 || len(c.Args[i-1]) < 2 || c.Args[i-1][0] != '-' || c.Args[i-1] == "--" {
				continue
			}
			for _, t := range hiddenTails([]string{w}) {
				// Not one after a tilde: git commit -m 'fix
				// ~/.ssh/config' is a message.
				if !strings.HasSuffix(w[:len(w)-len(t)], "~") && s.tail(t) {
					return w
				}
			}
		}
	}
	if p := s.program(a); p != "" {
		return p
	}
	return s.pieces(a)
}

// spelledCheck checks, for formatSecret, the texts a line's words may
// print, each once a line: a line of many like words (date +%F …) would
// else have each resolved again.
type spelledCheck struct {
	g    *Gate
	dirs []string // the line's directories (see [shellscan.Analysis.Dirs])
	seen map[string]bool
}

// once reports whether the text t has not been seen before as a text of
// the kind (a byte naming the check), and marks it seen.
func (s *spelledCheck) once(kind byte, t string) bool {
	key := string(kind) + t
	if s.seen[key] {
		return false
	}
	s.seen[key] = true
	return true
}

// names reports whether p names a secret location or a path beneath one
// (see [Gate.namesSecretWord]).
func (s *spelledCheck) names(p string) bool {
	return p != "" && s.once('w', p) && s.g.namesSecretWord(s.dirs, p)
}

// pattern reports whether the pattern p may name a secret location or a
// path beneath one; only a pattern with a hidden name a '*' stands in
// (../home/.*/id_ed25519) is checked: a directive prints no leading dot,
// and no secret location of the home lies outside a hidden directory.
func (s *spelledCheck) pattern(p string) bool {
	hidden := false
	for _, seg := range strings.Split(p, "/") {
		if len(seg) > 1 && seg[0] == '.' && seg != ".." && strings.Contains(seg, "*") {
			hidden = true
		}
	}
	return hidden && s.once('p', p) && s.g.namesSecret(s.dirs, p, true, false)
}

// tail reports whether t, a text printed after one the line does not
// know, may be the tail of a secret location or of a path beneath one
// (see [Gate.tailMaySecret]).
func (s *spelledCheck) tail(t string) bool {
	if strings.HasPrefix(t, "/") {
		t = path.Clean(t)
	}
	t = unknownAbove(t)
	return t != "" && s.once('t', t) && s.g.tailMaySecret(t)
}

// format reports whether the word w holds a format or a prefixed value
// whose literal text names a secret (see [formatReadings]): the text with
// the directives removed or split at them, each escape decoded, names one
// or a path beneath one; a directive taken for any text that holds no
// slash (%Z prints the letters TZ gives, TZ=ssh0 date
// +../home/.%Z/id_ed25519) leaves a pattern that may name one; or the
// text after a directive may be the tail of one (stat -c
// %n/.ssh/id_ed25519 ../home prints the name it is given first).
func (s *spelledCheck) format(w string) bool {
	for i, start := range formatStarts(w) {
		words, patterns, tails := formatReadings(start)
		if i > 0 {
			// An option's value is printed beside text the command
			// makes (numfmt --suffix=/home/.ssh/id_ed25519 0 | sed
			// s/0/../): from a hidden name on, it may be the tail of
			// a secret location.
			tails = append(tails, hiddenTails(words)...)
		}
		if slices.ContainsFunc(words, s.names) || slices.ContainsFunc(patterns, s.pattern) || slices.ContainsFunc(tails, s.tail) {
			return true
		}
	}
	return false
}

// formatStarts returns the texts of w where a format or an option's value
// may begin, w first: after a '+' (date +FMT, ls --time-style=+FMT),
// '=', '@' or ':' (--format=FMT, --pretty=format:FMT), after "%(" (the
// strftime format of bash's printf %(FMT)T), and after the
// letters of a short option that takes its value joined to it (stat
// -cFMT, seq -fFMT, nl -sSEP), at most maxFormatStarts of them; and the
// fields between the '+', '=', '@' and ':'. Nil when w holds none of
// them and no '%' or '\' either.
func formatStarts(w string) []string {
	if !strings.ContainsAny(w, "+=@:%\\") && !strings.HasPrefix(w, "-") {
		return nil
	}
	out := []string{w}
	if strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") {
		for i := 2; i < len(w) && isOptionLetter(w[i-1]) && len(out) < maxFormatStarts; i++ {
			out = append(out, w[i:])
		}
	}
	for i := 0; i+1 < len(w) && len(out) < maxFormatStarts; i++ {
		if strings.IndexByte("+=@:", w[i]) >= 0 || w[i] == '(' && i > 0 && w[i-1] == '%' {
			out = append(out, w[i+1:])
		}
	}
	// Each field between them too, however many there are: cut -d=
	// -f300 takes one.
	fields := strings.FieldsFunc(w, func(r rune) bool { return strings.ContainsRune("+=@:", r) })
	if len(fields) > 1 {
		out = append(out, fields...)
	}
	return out
}

// isOptionLetter reports whether c may be the letter of a short option.
func isOptionLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// formatReadings returns what a command that prints the format f (date's,
// stat's, git's, seq's, numfmt's, printf's) may print of its literal
// text: words, the text with the directives (%F, %%, %(refname) …)
// removed, %n and %t made a newline and a tab and the escapes \x2f,
// \057 … decoded (git's %x2f too), with the names embeddedWords finds in
// it; patterns, each part of the text between separators that holds a
// slash with each directive made a '*', that directive being text only
// known when the command runs; and tails, the text of such a part after
// its last directive, when it holds a slash.
func formatReadings(f string) (words, patterns, tails []string) {
	if !strings.ContainsAny(f, "%\\") {
		return append([]string{f}, embeddedWords(f)...), nil, nil
	}
	variants := []bool{false}
	if strings.Contains(f, "%x") {
		variants = append(variants, true) // git's %xHH, date's %x
	}
	for _, hexBytes := range variants {
		// %n and %t as the newline and tab date and git print, and as
		// stat's name and a filter may remove (date +..%n/home/… | tr
		// -d '\n').
		words = append(words, embeddedWords("\n"+strings.Join(formatPieces(f, hexBytes, true), ""))...)
		pieces := formatPieces(f, hexBytes, false)
		removed := strings.Join(pieces, "")
		words = append(words, removed)
		words = append(words, embeddedWords(removed)...)
		for _, part := range strings.FieldsFunc(strings.Join(pieces, "*"), embeddedSep) {
			i := strings.LastIndexByte(part, '*')
			if i < 0 || !strings.Contains(part, "/") {
				continue
			}
			if strings.ContainsFunc(part, func(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }) {
				patterns = append(patterns, part)
			}
			if tail := part[i+1:]; strings.Contains(tail, "/") {
				tails = append(tails, tail)
			}
		}
	}
	return words, patterns, tails
}

// formatPieces returns the literal texts of the format f between its
// directives, escapes decoded: a directive (%%, %-d, %10N, %:z, %(fmt),
// curl's %{name})
// ends a piece, but with sep %n and %t are a newline and a tab of the
// text; with hexBytes, git's %xHH is the byte it stands for.
func formatPieces(f string, hexBytes, sep bool) []string {
	var pieces []string
	var b strings.Builder
	flush := func() {
		pieces = append(pieces, decodeEscapes(b.String()))
		b.Reset()
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) {
			b.WriteByte(f[i])
			continue
		}
		j := i + 1
		if f[j] == '(' || f[j] == '{' {
			if k := strings.IndexByte(f[j:], ")}"[strings.IndexByte("({", f[j])]); k >= 0 {
				flush()
				i = j + k
				continue
			}
		}
		if hexBytes && f[j] == 'x' && j+2 < len(f) {
			if v, ok := hexByte(f[j+1], f[j+2]); ok {
				b.WriteByte(v)
				i = j + 2
				continue
			}
		}
		for j < len(f)-1 && strings.IndexByte("-_0^#+:'.*123456789", f[j]) >= 0 {
			j++
		}
		switch {
		case sep && f[j] == 'n':
			b.WriteByte('\n')
		case sep && f[j] == 't':
			b.WriteByte('\t')
		default:
			flush()
		}
		i = j
	}
	flush()
	return pieces
}

// hexByte returns the byte the hexadecimal digits hi and lo stand for;
// false when one is no hexadecimal digit.
func hexByte(hi, lo byte) (byte, bool) {
	h := strings.IndexByte("0123456789abcdef", lower(hi))
	l := strings.IndexByte("0123456789abcdef", lower(lo))
	if h < 0 || l < 0 {
		return 0, false
	}
	return byte(h<<4 | l), true
}

// hiddenTails returns the parts of each of words from a slash before a
// hidden name on ("/.ssh/id_ed25519" of "0/home/.ssh/id_ed25519").
func hiddenTails(words []string) []string {
	var out []string
	for _, w := range words {
		for i := 0; i+1 < len(w) && len(out) < maxFormatStarts; i++ {
			if w[i] == '/' && w[i+1] == '.' && w[i+2:] != "" && w[i+2] != '.' && w[i+2] != '/' {
				out = append(out, w[i:])
			}
		}
	}
	return out
}
