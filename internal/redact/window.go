package redact

import "strings"

// String runs each pattern only on the windows of the text that may hold
// one of its matches, and gives the same result as running it on the
// whole text. A pattern's finder returns windows such that
//
//   - every match of the pattern lies inside a window, found by a literal
//     that every match contains (the key words under Unicode simple case
//     folding, so "to\u212aen" with a Kelvin sign counts as "token");
//   - a window starts where a match may start, so a leading \b sees
//     there what it sees in the whole text (a word character after a
//     non-word one); windows start and end on rune boundaries;
//   - a window ends at the end of the text or before a character no
//     match holds, one that is not a word character when the pattern
//     ends in \b (the Slack and Bearer windows may end before a '_'),
//     so neither a greedy repetition nor a trailing \b or $ sees a
//     different end.
//
// Then a path of the pattern that succeeds in a window succeeds in the
// text, every match in the text succeeds in the window holding it, and
// the leftmost-first matches of the window are those of the text. The
// patterns still apply in turn, each to the previous one's output.

// A window is a part s[start:end] of a text that may hold a match; the
// next candidate is searched for from next. start is -1 if there is none.
type window struct{ start, end, next int }

// none is the window a finder returns when there is no more candidate.
var none = window{-1, -1, -1}

// A finder returns the first window at or after from, or none. It is
// called with increasing from on the same text and memo, where it keeps
// what it found ahead, so that the many candidates of one long run do
// not each scan it again.
type finder func(s string, from int, m *memo) window

// finders are the redactions' finders, in the same order.
var finders = [...]finder{
	findKeyword, findScheme, findOpenAI, findJWT, findAWS, findGitHub, findSlack, findEmail, findPrivateKey,
}

// replace returns s with every match of r's pattern replaced, as
// r.re.ReplaceAllString(s, r.repl) does, running the pattern only on the
// windows find returns.
func (r redaction) replace(s string, find finder) string {
	m := newMemo()
	var b strings.Builder
	done, changed := 0, false // s[:done] is in b when changed
	w := find(s, 0, &m)
	for w.start >= 0 {
		start, end := w.start, w.end
		for w = find(s, w.next, &m); w.start >= 0 && w.start <= end; w = find(s, w.next, &m) {
			end = max(end, w.end)
		}
		done, changed = r.replaceWindow(&b, s, done, changed, start, end)
	}
	if !changed {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// replaceWindow writes to b the text from done up to the last match in
// s[start:end], with the matches replaced, and returns where it stopped.
func (r redaction) replaceWindow(b *strings.Builder, s string, done int, changed bool, start, end int) (int, bool) {
	win := s[start:end]
	var matches [][]int
	expand := strings.Contains(r.repl, "$")
	if expand {
		matches = r.re.FindAllStringSubmatchIndex(win, -1)
	} else {
		matches = r.re.FindAllStringIndex(win, -1)
	}
	if len(matches) == 0 {
		return done, changed
	}
	if !changed {
		b.Grow(len(s))
	}
	var dst []byte
	for _, m := range matches {
		b.WriteString(s[done : start+m[0]])
		if expand {
			dst = r.re.ExpandString(dst[:0], r.repl, win, m)
			b.Write(dst)
		} else {
			b.WriteString(r.repl)
		}
		done = start + m[1]
	}
	return done, true
}

// A byteSet is a set of bytes.
type byteSet [256]bool

// set returns the byteSet of the bytes in chars and in the ranges lo-hi
// that follow them in pairs.
func set(chars string, ranges ...byte) *byteSet {
	var t byteSet
	for i := range len(chars) {
		t[chars[i]] = true
	}
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := int(ranges[i]); c <= int(ranges[i+1]); c++ {
			t[c] = true
		}
	}
	return &t
}

// The byte sets of the patterns. Bytes from 0x80 up stand for the runes
// they encode: a set holds them when its pattern's class holds any
// non-ASCII rune, so a run of the set may overshoot the class's run, but
// ends on a rune boundary.
var (
	wordBytes   = set("_", '0', '9', 'A', 'Z', 'a', 'z')                   // \b's word characters
	spaceBytes  = set("\t\n\f\r ")                                         // \s
	sepBytes    = set("\"'\t\n\f\r :=")                                    // ["'\s:=]
	valueBytes  = notSet("\t\n\f\r \"',;")                                 // [^\s"',;]
	schemeBytes = set("._~+/=-", '0', '9', 'A', 'Z', 'a', 'z', 0x80, 0xff) // (?i)[A-Za-z0-9._~+/=-]: K and ſ fold into it
	tokenBytes  = set("_-", '0', '9', 'A', 'Z', 'a', 'z')                  // [A-Za-z0-9_-]
	jwtBytes    = set("_.-", '0', '9', 'A', 'Z', 'a', 'z')                 // [A-Za-z0-9_-] and the dots between parts
	slackBytes  = set("-", '0', '9', 'A', 'Z', 'a', 'z')                   // [A-Za-z0-9-]
	emailBytes  = set("._%+-@", '0', '9', 'A', 'Z', 'a', 'z')              // the e-mail pattern's characters
)

// notSet returns the byteSet of the bytes not in chars.
func notSet(chars string) *byteSet {
	t := set(chars)
	for i := range t {
		t[i] = !t[i]
	}
	return t
}

// A memo keeps what a finder found ahead of from in one text: the last
// run of each of two byte sets, and the next place of each of two
// strings.
type memo struct {
	runs [2]struct{ from, to int }
	next [2]int
}

// newMemo returns a memo that remembers nothing.
func newMemo() memo {
	return memo{runs: [2]struct{ from, to int }{{-1, -1}, {-1, -1}}, next: [2]int{-1, -1}}
}

// skip returns the end of the run of set's bytes in s that starts at i,
// using and updating the k-th remembered run.
func (m *memo) skip(k int, s string, i int, set *byteSet) int {
	if r := &m.runs[k]; r.from <= i && i <= r.to {
		return r.to
	}
	j := i
	for j < len(s) && set[s[j]] {
		j++
	}
	m.runs[k].from, m.runs[k].to = i, j
	return j
}

// indexEither returns the index of the first a or b in s at or after
// from, or len(s), using and updating the remembered places.
func (m *memo) indexEither(s string, from int, a, b string) int {
	for k, c := range [2]string{a, b} {
		if m.next[k] < from {
			m.next[k] = len(s)
			if i := strings.Index(s[from:], c); i >= 0 {
				m.next[k] = from + i
			}
		}
	}
	return min(m.next[0], m.next[1])
}

// runEnd returns the end of the run of set's bytes in s that starts at i.
func runEnd(s string, i int, set *byteSet) int {
	for i < len(s) && set[s[i]] {
		i++
	}
	return i
}

// wordStart reports whether \b holds before s[i], a word character.
func wordStart(s string, i int) bool {
	return i == 0 || !wordBytes[s[i-1]]
}

// foldPrefix returns the end of lit, a lower-case ASCII word, if s[i:]
// starts with it under Unicode simple case folding, and -1 if not. Only k
// and s fold to runes beyond ASCII: K (U+212A) and ſ (U+017F).
func foldPrefix(s string, i int, lit string) int {
	for k := range len(lit) {
		c := lit[k]
		switch {
		case i >= len(s):
			return -1
		case s[i] == c || 'a' <= c && c <= 'z' && s[i] == c-'a'+'A':
			i++
		case c == 'k' && strings.HasPrefix(s[i:], "\u212a"):
			i += len("\u212a")
		case c == 's' && strings.HasPrefix(s[i:], "\u017f"):
			i += len("\u017f")
		default:
			return -1
		}
	}
	return i
}

// keywordEnd returns the end of the key word of the first pattern,
// (?i)(api[_ -]?key|apikey|access[_ -]?key|token|secret|password|passwd),
// at s[i], or -1. At most one of them matches there.
func keywordEnd(s string, i int) int {
	switch s[i] | 0x20 {
	case 'a':
		j := foldPrefix(s, i, "api")
		if j < 0 {
			j = foldPrefix(s, i, "access")
		}
		if j < 0 {
			return -1
		}
		if j < len(s) && (s[j] == '_' || s[j] == ' ' || s[j] == '-') {
			return foldPrefix(s, j+1, "key")
		}
		return foldPrefix(s, j, "key")
	case 't':
		return foldPrefix(s, i, "token")
	case 'p':
		if j := foldPrefix(s, i, "passw"); j >= 0 {
			if k := foldPrefix(s, j, "ord"); k >= 0 {
				return k
			}
			return foldPrefix(s, j, "d")
		}
		return -1
	}
	return foldPrefix(s, i, "secret") // s, S or ſ
}

// keywordSecond maps the first byte of a key word, in either case, to its
// possible second bytes, lower-cased (ORed with 0x20), one in each byte:
// "ap" and "ac", "to", "se" and "ſe" (0xc5 0xbf), "pa". Other bytes map to
// 0. Only k and s have spellings beyond ASCII, and no key word has them
// second.
var keywordSecond = [256]uint16{
	'a': 'p' | 'c'<<8, 'A': 'p' | 'c'<<8,
	't': 'o' | 'o'<<8, 'T': 'o' | 'o'<<8,
	's': 'e' | 'e'<<8, 'S': 'e' | 'e'<<8, 0xc5: 0xbf | 0xbf<<8,
	'p': 'a' | 'a'<<8, 'P': 'a' | 'a'<<8,
}

// findKeyword finds "password: hunter22" and the like: a key word, a run
// of separators, then at least 6 bytes of value up to the next space,
// quote, comma or semicolon.
func findKeyword(s string, from int, m *memo) window {
	for i := from; i+1 < len(s); i++ {
		if w := keywordSecond[s[i]]; w == 0 || s[i+1]|0x20 != byte(w) && s[i+1]|0x20 != byte(w>>8) {
			continue
		}
		k := keywordEnd(s, i)
		if k < 0 {
			continue
		}
		v := m.skip(0, s, k, sepBytes)
		if v == k {
			continue
		}
		// The value may begin inside the separators with ':' or '=',
		// but ends at the first space, quote, comma or semicolon after
		// them.
		end := m.skip(1, s, v, valueBytes)
		if end-k < 1+6 {
			continue
		}
		return window{i, end, i + 1}
	}
	return none
}

// findScheme finds "Bearer …" and "Basic …".
func findScheme(s string, from int, m *memo) window {
	for from < len(s) {
		i := m.indexEither(s, from, "b", "B")
		from = i + 1
		if i+1 >= len(s) || s[i+1]|0x20 != 'e' && s[i+1]|0x20 != 'a' || !wordStart(s, i) {
			continue
		}
		k := foldPrefix(s, i, "bearer")
		if k < 0 {
			k = foldPrefix(s, i, "basic")
		}
		if k < 0 {
			continue
		}
		v := m.skip(0, s, k, spaceBytes)
		if v == k {
			continue
		}
		end := m.skip(1, s, v, schemeBytes)
		if end-v < 6 {
			continue
		}
		return window{i, end, i + 1}
	}
	return none
}

// findToken finds a token that starts with prefix, after a \b, and runs
// over set's bytes for at least least bytes, prefix included. Every other
// candidate of its run ends where it ends. It searches for prefix[lead:],
// rarer than prefix's first byte, and checks the lead bytes before it.
func findToken(s string, from int, prefix string, lead int, set *byteSet, least int) window {
	for i := from; i+lead < len(s); {
		j := strings.Index(s[i+lead:], prefix[lead:])
		if j < 0 {
			break
		}
		i += j
		if s[i:i+lead] != prefix[:lead] || !wordStart(s, i) {
			i++
			continue
		}
		end := runEnd(s, i+len(prefix), set)
		if end-i >= least {
			return window{i, end, end}
		}
		i = end
	}
	return none
}

// findOpenAI finds \bsk-[A-Za-z0-9_-]{16,}.
func findOpenAI(s string, from int, _ *memo) window {
	return findToken(s, from, "sk-", 1, tokenBytes, 3+16)
}

// findJWT finds \beyJ[A-Za-z0-9_-]{17,}(?:\.[A-Za-z0-9_-]*)*.
func findJWT(s string, from int, _ *memo) window {
	return findToken(s, from, "eyJ", 1, jwtBytes, 3+17)
}

// findSlack finds \bxox[abprs]-[A-Za-z0-9-]{10,}.
func findSlack(s string, from int, _ *memo) window {
	return findToken(s, from, "xox", 0, slackBytes, 5+10)
}

// findAWS finds \b(?:AKIA|ASIA)[0-9A-Z]{16}\b: a word of 20 bytes.
func findAWS(s string, from int, _ *memo) window {
	for from+2 < len(s) {
		i := strings.Index(s[from+2:], "IA")
		if i < 0 {
			break
		}
		i += from // the candidate starts two bytes before "IA"
		if s[i] != 'A' || s[i+1] != 'K' && s[i+1] != 'S' || !wordStart(s, i) {
			from = i + 1
			continue
		}
		end := runEnd(s, i, wordBytes)
		if end-i != 20 {
			from = end
			continue
		}
		return window{i, end, end}
	}
	return none
}

// findGitHub finds \b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})\b,
// words of at least 40 and 33 bytes.
func findGitHub(s string, from int, m *memo) window {
	for from < len(s) {
		i := m.indexEither(s, from, "gh", "github_pat_")
		from = i + 1
		least := 11 + 22 // the shortest match's length
		if !strings.HasPrefix(s[i:], "github_pat_") {
			if len(s)-i < 4 || strings.IndexByte("pousr", s[i+2]) < 0 || s[i+3] != '_' {
				continue
			}
			least = 4 + 36
		}
		if !wordStart(s, i) {
			continue
		}
		end := runEnd(s, i, wordBytes)
		if end-i < least {
			from = end
			continue
		}
		return window{i, end, end}
	}
	return none
}

// findEmail finds the runs of the e-mail pattern's characters that hold
// an '@' with a '.' after it.
func findEmail(s string, from int, _ *memo) window {
	for from < len(s) {
		at := strings.IndexByte(s[from:], '@')
		if at < 0 {
			break
		}
		at += from
		start := at
		for start > from && emailBytes[s[start-1]] {
			start--
		}
		end := runEnd(s, at, emailBytes)
		from = end
		if strings.IndexByte(s[at:end], '.') < 0 {
			continue
		}
		return window{start, end, end}
	}
	return none
}

// findPrivateKey finds the first "-----BEGIN ": its window runs to the end
// of the text, where the pattern's $ matches.
func findPrivateKey(s string, from int, _ *memo) window {
	for i := from; i+5 < len(s); i++ {
		j := strings.Index(s[i+5:], "BEGIN ")
		if j < 0 {
			break
		}
		if i += j; s[i:i+5] == "-----" {
			return window{i, len(s), len(s)}
		}
	}
	return none
}
