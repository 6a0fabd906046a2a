package permission

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/shellscan"
)

// maxPairedPieces bounds the texts of one line (see printedPieces) whose
// every pair spelledCheck.pieces joins; more are joined in their order
// only.
const maxPairedPieces = 16

// program returns, as the line spells it, a word of the line that is a
// program or a script whose literal text names a secret location or a
// path beneath one: the text of sed's a, i and c commands (sed -n
// '1c../home/.ssh/id_ed25519' README | xargs cat printed the key, round
// 107), the double-quoted string literals of an awk, jq or other program
// (each, and all of them joined: awk 'BEGIN{print ".." "/home/…"}'), with
// their escapes decoded and their format directives removed, and, from a
// hidden name on, the tail of one (jq -rn '["..","home",".ssh",…] |
// join("/")'); "" when there is none.
func (s *spelledCheck) program(a *shellscan.Analysis) string {
	for _, c := range a.Commands {
		for _, w := range c.Args {
			for _, t := range programTexts(w) {
				if s.once('l', t) && s.literal(t) {
					return w
				}
			}
		}
	}
	return ""
}

// literal reports whether t, a literal text a command prints, names a
// secret location or a path beneath one (see [spelledCheck.format]), or
// starts the tail of one with a hidden name (".ssh", "/.ssh/id_ed25519":
// a program may join it to others). A hidden name inside the text is no
// tail: sed '1i see ~/.ssh/config' prints a message.
func (s *spelledCheck) literal(t string) bool {
	if s.format(t) {
		return true
	}
	switch {
	case strings.HasPrefix(t, "/."):
		return s.tail(t)
	case strings.HasPrefix(t, ".") && !strings.HasPrefix(t, ".."):
		return s.tail("/" + t)
	}
	return false
}

// programTexts returns the literal texts the program or script w may
// print: sed's a, i and c texts (see sedTexts), and the double-quoted
// string literals w holds (see quotedLiterals), each and all joined.
func programTexts(w string) []string {
	out := sedTexts(w)
	if lits := quotedLiterals(w); len(lits) > 0 {
		out = append(out, lits...)
		if len(lits) > 1 {
			out = append(out, strings.Join(lits, ""))
		}
	}
	return out
}

// sedTexts returns the texts of the a, i and c commands (append, insert,
// change) a sed script w may hold, which sed prints as they are: 1c TEXT,
// a\TEXT, $a TEXT, each to the end of its line, the blanks before it and
// a backslash that starts it removed and its escapes decoded. A letter a,
// i or c counts as a command after the start of w, a separator (; { } !
// or a blank) or an address (a digit, $, / or ,); at most
// maxFormatStarts of them.
func sedTexts(w string) []string {
	var out []string
	for i := 0; i < len(w) && len(out) < maxFormatStarts; i++ {
		if w[i] != 'a' && w[i] != 'i' && w[i] != 'c' ||
			i > 0 && !strings.ContainsRune(";{}!$/, \t\n0123456789", rune(w[i-1])) {
			continue
		}
		t := strings.TrimLeft(w[i+1:], " \t")
		t = strings.TrimPrefix(t, `\`)
		t = strings.TrimLeft(t, " \t\n")
		if j := strings.IndexByte(t, '\n'); j >= 0 {
			t = t[:j]
		}
		if t != "" {
			out = append(out, decodeEscapes(t))
		}
	}
	return out
}

// quotedLiterals returns the double-quoted string literals of the
// program text w (awk's, jq's, a script's), each with the escapes decoded
// that such languages share: \" and \/, \uXXXX and those of
// decodeEscapes. Nil when w holds no quote.
func quotedLiterals(w string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		if w[i] != '"' {
			continue
		}
		var b strings.Builder
		j := i + 1
		for ; j < len(w) && w[j] != '"'; j++ {
			if w[j] == '\\' && j+1 < len(w) {
				b.WriteByte(w[j])
				j++
			}
			b.WriteByte(w[j])
		}
		if j >= len(w) {
			break
		}
		out = append(out, decodeLiteral(b.String()))
		i = j
	}
	return out
}

// decodeLiteral returns the text of a double-quoted string literal s:
// \" and \/ made plain, \uXXXX the character it stands for, and the
// escapes of decodeEscapes decoded.
func decodeLiteral(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '/'):
			b.WriteByte(s[i+1])
			i++
		case s[i] == '\\' && i+5 < len(s) && s[i+1] == 'u':
			if r, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
				b.WriteRune(rune(r))
				i += 5
				continue
			}
			b.WriteByte(s[i])
		default:
			b.WriteByte(s[i])
		}
	}
	return decodeEscapes(b.String())
}

// pieces returns, as the line spells it, a word of the line that names a
// secret location or a path beneath one once the texts its commands print
// (see printedPieces) are put together: all of them joined in the order
// of the line, and each pair of them (cat $(echo -n ../home/.s; echo
// sh/id_ed25519)), where the last name of one meets the first of the
// next; or once a command substitution in it, or in a value of a
// variable it names, is each such text (cat ../home/$(date
// +.ssh)/id_ed25519; x=$(TZ=ssh0 date +.%Z); cat ../home/$x/id_ed25519,
// a directive taken for a '*'). "" when there is none.
func (s *spelledCheck) pieces(a *shellscan.Analysis) string {
	texts, patterns := printedPieces(a)
	if len(texts) == 0 {
		return ""
	}
	all := strings.Join(texts, "")
	if slices.ContainsFunc(embeddedWords("\n"+all), s.names) {
		return all
	}
	for i := range texts {
		for j := range texts {
			if j == i+1 || i != j && len(texts) <= maxPairedPieces {
				if p := junction(texts[i], texts[j]); s.names(p) || slices.ContainsFunc(fileWords(p), s.names) {
					return p
				}
			}
		}
	}
	for _, c := range a.Commands {
		for _, w := range c.Args {
			if !strings.ContainsAny(w, "$`") || !s.once('s', w) {
				continue
			}
			vs, _ := bindVars(w, a.Vars)
			for _, v := range vs {
				if slices.ContainsFunc(substituteEach(v, texts), s.names) ||
					slices.ContainsFunc(substituteEach(v, patterns), s.pattern) {
					return w
				}
			}
		}
	}
	return ""
}

// junction returns the name made where the text x, printed first, meets
// y: the last name of x (see embeddedWords) joined to the first of y; ""
// when either ends or starts with a separator.
func junction(x, y string) string {
	x, y = decodeEscapes(x), decodeEscapes(y)
	i := strings.LastIndexFunc(x, embeddedSep)
	j := strings.IndexFunc(y, embeddedSep)
	if j < 0 {
		j = len(y)
	}
	if i == len(x)-1 || j == 0 {
		return ""
	}
	return x[i+1:] + y[:j]
}

// printedPieces returns literal texts the line's commands print: the
// words of echo and what printf prints of its format (see printfWords),
// the text of a format or a prefixed value (date +.ssh, stat -c FMT,
// numfmt --suffix=…) with its directives removed, and the texts of
// programs (see programTexts); and patterns, the formats among them with
// each directive made a '*'. Each text once, in the order of the line.
func printedPieces(a *shellscan.Analysis) (texts, patterns []string) {
	seen := map[*[]string]map[string]bool{&texts: {}, &patterns: {}}
	add := func(list *[]string, t string) {
		// A newline it ends with may be removed (printf '%s\n' x | tr
		// -d '\n').
		if t = strings.TrimRight(t, "\n"); t != "" && !seen[list][t] {
			seen[list][t] = true
			*list = append(*list, t)
		}
	}
	for _, c := range a.Commands {
		switch path.Base(c.Name) {
		case "echo":
			args := c.Args
			for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0], "-neE") == "" {
				args = args[1:]
			}
			add(&texts, strings.Join(args, " "))
			add(&texts, decodeEscapes(strings.Join(args, " ")))
		case "printf":
			if ws := printfWords(c); len(ws) > 0 {
				add(&texts, ws[0])
			}
		}
		for _, w := range c.Args {
			for i, f := range formatStarts(w) {
				if i == 0 && !strings.Contains(f, "%") {
					continue
				}
				pieces := formatPieces(f, false, false)
				add(&texts, strings.Join(pieces, ""))
				if len(pieces) > 1 {
					add(&patterns, strings.Join(pieces, "*"))
				}
			}
			for _, t := range programTexts(w) {
				add(&texts, t)
			}
		}
	}
	return texts, patterns
}

// substituteEach returns the words w may be when each command
// substitution in it ($(…), `…`) prints one of texts: every choice when
// they are at most maxUnknownVariants words, else each text in each
// substitution with the others empty. Nil when w holds none.
func substituteEach(w string, texts []string) []string {
	var spans [][2]int
	for i := 0; i < len(w); i++ {
		j := -1
		switch {
		case w[i] == '`':
			if k := strings.IndexByte(w[i+1:], '`'); k >= 0 {
				j = i + 1 + k
			}
		case strings.HasPrefix(w[i:], "$(") && !strings.HasPrefix(w[i:], "$(("):
			j = closing(w, i+1)
		}
		if j < 0 {
			continue
		}
		spans = append(spans, [2]int{i, j + 1})
		i = j
	}
	if len(spans) == 0 || len(texts) == 0 {
		return nil
	}
	fill := func(choice func(k int) []string) []string {
		out := []string{""}
		end := 0
		for k, s := range spans {
			var next []string
			for _, o := range out {
				for _, t := range choice(k) {
					next = append(next, o+w[end:s[0]]+t)
				}
			}
			out, end = next, s[1]
		}
		for i := range out {
			out[i] += w[end:]
		}
		return out
	}
	n := 1
	for range spans {
		if n *= len(texts); n > maxUnknownVariants {
			break
		}
	}
	if n <= maxUnknownVariants {
		return fill(func(int) []string { return texts })
	}
	var out []string
	for k := range spans {
		out = append(out, fill(func(i int) []string {
			if i == k {
				return texts
			}
			return []string{""}
		})...)
	}
	return out
}
