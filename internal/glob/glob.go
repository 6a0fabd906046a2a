// Package glob is the project's one glob engine: the syntax of permission
// rules, hook matches and the glob and grep tools.
//
// A pattern is matched against a whole name, such as a tool name or a
// slash-separated relative path:
//
//   - "*" matches any run of characters other than "/";
//   - "?" matches one character other than "/";
//   - "[abc]", "[a-z]", "[!abc]" and "[^abc]" match one character of a
//     class ("]" first in a class is literal; a backslash escapes inside);
//   - "{a,b}" matches either alternative, nested groups included; braces
//     without a top-level comma are literal;
//   - "**" as a whole path segment matches any number of segments:
//     "**/x" matches x at any depth, "a/**/b" matches a/b and a/x/y/b, and
//     "dir/**" matches dir itself and everything below it; elsewhere "**"
//     is "*";
//   - a backslash makes the next character literal.
//
// Dot files are not special. A leading "!" (negation) and unescaped "(",
// ")" or "|" outside a class (the groups and extglobs of other glob
// dialects, such as "*.@(a|b)") are errors rather than literals, so that
// such a pattern fails to load instead of silently matching nothing.
//
// A pattern compiles to a Thompson automaton (no backtracking), so
// matching takes time linear in the length of the name whatever the
// pattern ("*a*a*a*a*b" included), and braces are never expanded, so the
// automaton grows linearly with the pattern.
package glob

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Default limits of [Options].
const (
	// DefaultMaxLen is the longest pattern, in bytes, when
	// [Options.MaxLen] is zero.
	DefaultMaxLen = 4096
	// DefaultMaxAlternatives is the most names a pattern's braces may
	// stand for when [Options.MaxAlternatives] is zero.
	DefaultMaxAlternatives = 256
	// maxNesting bounds how deeply braces nest.
	maxNesting = 16
)

// Options sets the limits and the strictness of [Compile]. The zero value
// allows patterns of up to DefaultMaxLen bytes standing for up to
// DefaultMaxAlternatives names, and rejects unbalanced brackets and braces.
type Options struct {
	// MaxLen is the longest pattern in bytes; zero means DefaultMaxLen.
	MaxLen int
	// MaxAlternatives is the most names a pattern's braces may stand for
	// ("{a,b}{c,d}" stands for four); zero means DefaultMaxAlternatives.
	MaxAlternatives int
	// LiteralUnbalanced makes an unclosed "[" or "{", a stray "}" and a
	// trailing backslash literal characters. By default they are errors.
	LiteralUnbalanced bool
}

// An Error reports a pattern that does not compile. Its message never
// quotes the pattern, which may come from a file the caller is careful
// not to echo.
type Error struct {
	// Offset is the byte offset in the pattern where the problem was
	// found, or -1 when the pattern as a whole is at fault.
	Offset int
	// Msg says what is wrong, such as "unbalanced braces".
	Msg string
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s (at byte %d)", e.Msg, e.Offset)
}

// A Pattern is a compiled glob. It is immutable and safe for concurrent
// use.
type Pattern struct {
	src    string
	prog   *program
	prefix string
	depth  int
}

// Compile parses pattern under opts. It returns an *[Error] for a pattern
// that is too long, negated, holds a group or extglob, has a malformed
// class (or, unless opts.LiteralUnbalanced, an unbalanced bracket or
// brace or a trailing backslash), nests braces more than 16 deep or
// stands for more than opts.MaxAlternatives names.
func Compile(pattern string, opts Options) (*Pattern, error) {
	maxLen := opts.MaxLen
	if maxLen <= 0 {
		maxLen = DefaultMaxLen
	}
	maxAlts := opts.MaxAlternatives
	if maxAlts <= 0 {
		maxAlts = DefaultMaxAlternatives
	}
	if len(pattern) > maxLen {
		return nil, &Error{Offset: -1, Msg: fmt.Sprintf("pattern longer than %d bytes", maxLen)}
	}
	if strings.HasPrefix(pattern, "!") {
		return nil, &Error{Offset: 0, Msg: "negated patterns are not supported"}
	}
	p := parser{src: pattern, lenient: opts.LiteralUnbalanced}
	seq, err := p.parseSeq(0, false)
	if err != nil {
		return nil, err
	}
	if n := count(seq, maxAlts); n > maxAlts {
		return nil, &Error{Offset: -1, Msg: fmt.Sprintf("pattern stands for more than %d alternatives", maxAlts)}
	}
	prefix, depth := shape(seq)
	return &Pattern{src: pattern, prog: compileProgram(lower(seq, true, true)), prefix: prefix, depth: depth}, nil
}

// MustCompile is [Compile] with default options for patterns known to be
// valid; it panics on an error.
func MustCompile(pattern string) *Pattern {
	p, err := Compile(pattern, Options{})
	if err != nil {
		panic("glob: " + err.Error())
	}
	return p
}

// Match reports whether name matches the whole pattern.
func (p *Pattern) Match(name string) bool { return p.prog.run(name) }

// String returns the pattern as given to Compile.
func (p *Pattern) String() string { return p.src }

// Base returns the directory part of the pattern that holds no
// metacharacter, with escapes removed: "src/cmd" for "src/cmd/*.go", and
// "" when the first segment already has one. Every name the pattern
// matches lies below Base (or is Base itself when the pattern ends in
// "/**"), so a walk may start there.
func (p *Pattern) Base() string { return p.prefix }

// Depth returns the number of "/"-separated segments every matching name
// has, or -1 when it varies (the pattern has a "**" or a brace group with
// a "/" in it).
func (p *Pattern) Depth() int { return p.depth }

// QuoteMeta returns s with every glob metacharacter escaped, so that the
// pattern matches s literally.
func QuoteMeta(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(metaChars, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// metaChars are the bytes QuoteMeta escapes.
const metaChars = `\*?[]{},!^()|`

// The nodes of a parsed pattern.
type nodeKind int

const (
	nodeLiteral  nodeKind = iota // one literal character, r
	nodeSlash                    // an unescaped "/"
	nodeStar                     // a run of n stars
	nodeQuestion                 // "?"
	nodeClass                    // a bracket expression, class
	nodeGroup                    // a brace group, alts
)

type node struct {
	kind nodeKind
	r    rune
	n    int
	cls  *charClass
	alts [][]node
}

type parser struct {
	src     string
	pos     int
	lenient bool
}

// parseSeq parses nodes until the end of the pattern or, inGroup, until a
// "," or "}" that ends an alternative of a group nested depth deep.
func (p *parser) parseSeq(depth int, inGroup bool) ([]node, error) {
	var seq []node
	literal := 0 // balanced literal "{" (without a comma) still open
	for p.pos < len(p.src) {
		c := p.src[p.pos]
		switch {
		case c == '}' && literal > 0:
			literal--
			seq = append(seq, node{kind: nodeLiteral, r: '}'})
			p.pos++
		case inGroup && (c == ',' || c == '}'):
			return seq, nil
		case c == '\\':
			if p.pos+1 >= len(p.src) {
				if !p.lenient {
					return nil, &Error{Offset: p.pos, Msg: "malformed pattern: trailing backslash"}
				}
				seq = append(seq, node{kind: nodeLiteral, r: '\\'})
				p.pos++
				continue
			}
			r, size := utf8.DecodeRuneInString(p.src[p.pos+1:])
			seq = append(seq, node{kind: nodeLiteral, r: r})
			p.pos += 1 + size
		case c == '/':
			seq = append(seq, node{kind: nodeSlash})
			p.pos++
		case c == '*':
			n := 0
			for p.pos < len(p.src) && p.src[p.pos] == '*' {
				n++
				p.pos++
			}
			seq = append(seq, node{kind: nodeStar, n: n})
		case c == '?':
			seq = append(seq, node{kind: nodeQuestion})
			p.pos++
		case c == '[':
			nd, ok, err := p.parseClass()
			if err != nil {
				return nil, err
			}
			if !ok {
				if !p.lenient {
					return nil, &Error{Offset: p.pos, Msg: "malformed pattern: unclosed '['"}
				}
				seq = append(seq, node{kind: nodeLiteral, r: '['})
				p.pos++
				continue
			}
			seq = append(seq, nd)
		case c == '{':
			nd, ok, closed, err := p.parseGroup(depth)
			if err != nil {
				return nil, err
			}
			if !ok {
				// No top-level comma, or unclosed in lenient mode: a
				// literal brace, and so is its closing one.
				if closed {
					literal++
				}
				seq = append(seq, node{kind: nodeLiteral, r: '{'})
				p.pos++
				continue
			}
			seq = append(seq, nd)
		case c == '}':
			if !p.lenient && !inGroup {
				return nil, &Error{Offset: p.pos, Msg: "unbalanced braces"}
			}
			seq = append(seq, node{kind: nodeLiteral, r: '}'})
			p.pos++
		case c == '(' || c == ')' || c == '|':
			return nil, &Error{Offset: p.pos, Msg: "groups and extglobs such as @(a|b) are not supported; use {a,b}, or escape the character with \\"}
		default:
			r, size := utf8.DecodeRuneInString(p.src[p.pos:])
			seq = append(seq, node{kind: nodeLiteral, r: r})
			p.pos += size
		}
	}
	return seq, nil
}

// parseGroup parses the brace group at p.pos. It reports false, leaving
// p.pos unchanged, for braces that are literal: balanced ones without a
// top-level comma (closed is then true) and, in lenient mode, unclosed
// ones.
func (p *parser) parseGroup(depth int) (nd node, ok, closed bool, err error) {
	start := p.pos
	end, hasComma := groupEnd(p.src, start)
	if end < 0 {
		if p.lenient {
			return node{}, false, false, nil
		}
		return node{}, false, false, &Error{Offset: start, Msg: "unbalanced braces"}
	}
	if !hasComma {
		return node{}, false, true, nil
	}
	if depth+1 > maxNesting {
		return node{}, false, false, &Error{Offset: start, Msg: "braces nest too deeply"}
	}
	p.pos++ // the "{"
	var alts [][]node
	for {
		alt, err := p.parseSeq(depth+1, true)
		if err != nil {
			return node{}, false, false, err
		}
		alts = append(alts, alt)
		if p.pos >= len(p.src) {
			// groupEnd found the "}", so the alternative cannot run off
			// the end; guard anyway.
			return node{}, false, false, &Error{Offset: start, Msg: "unbalanced braces"}
		}
		c := p.src[p.pos]
		p.pos++
		if c == '}' {
			return node{kind: nodeGroup, alts: alts}, true, true, nil
		}
	}
}

// groupEnd returns the offset of the "}" that closes the "{" at src[i],
// or -1, and whether the group has a comma at its top level. Escapes and
// bracket expressions are skipped; a nested group without a comma of its
// own still nests.
func groupEnd(src string, i int) (int, bool) {
	depth := 0
	comma := false
	for j := i; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case '[':
			if k := classEnd(src, j); k > 0 {
				j = k
			}
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j, comma
			}
		case ',':
			if depth == 1 {
				comma = true
			}
		}
	}
	return -1, comma
}

// classEnd returns the offset of the "]" that closes the bracket
// expression at src[i], or -1.
func classEnd(src string, i int) int {
	j := i + 1
	if j < len(src) && (src[j] == '!' || src[j] == '^') {
		j++
	}
	if j < len(src) && src[j] == ']' {
		j++
	}
	for ; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// parseClass parses the bracket expression at p.pos; false means it is not
// closed (p.pos is then unchanged).
func (p *parser) parseClass() (node, bool, error) {
	start := p.pos
	end := classEnd(p.src, start)
	if end < 0 {
		return node{}, false, nil
	}
	body := p.src[start+1 : end]
	cls := &charClass{}
	if body != "" && (body[0] == '!' || body[0] == '^') {
		cls.negate = true
		body = body[1:]
	}
	// Each item is a character or a range lo-hi; a '-' first or last is
	// literal.
	cls.items = classItems(body)
	if len(cls.items) == 0 {
		return node{}, false, &Error{Offset: start, Msg: "malformed pattern: empty class"}
	}
	for _, it := range cls.items {
		if it.hi < it.lo {
			return node{}, false, &Error{Offset: start, Msg: "malformed pattern: class range out of order"}
		}
	}
	p.pos = end + 1
	return node{kind: nodeClass, cls: cls}, true, nil
}

type classItem struct{ lo, hi rune }

// classItems splits the body of a class (without its negation) into
// characters and ranges.
func classItems(body string) []classItem {
	type tok struct {
		r       rune
		escaped bool
	}
	var toks []tok
	for i := 0; i < len(body); {
		esc := false
		if body[i] == '\\' && i+1 < len(body) {
			esc = true
			i++
		}
		r, size := utf8.DecodeRuneInString(body[i:])
		toks = append(toks, tok{r, esc})
		i += size
	}
	var items []classItem
	for i := 0; i < len(toks); i++ {
		if i+2 < len(toks) && toks[i+1].r == '-' && !toks[i+1].escaped {
			items = append(items, classItem{toks[i].r, toks[i+2].r})
			i += 2
			continue
		}
		items = append(items, classItem{toks[i].r, toks[i].r})
	}
	return items
}

// count returns the number of names seq stands for, stopping early once it
// exceeds limit.
func count(seq []node, limit int) int {
	n := 1
	for _, nd := range seq {
		if nd.kind != nodeGroup {
			continue
		}
		sum := 0
		for _, alt := range nd.alts {
			sum += count(alt, limit)
			if sum > limit {
				return limit + 1
			}
		}
		n *= sum
		if n > limit {
			return limit + 1
		}
	}
	return n
}

// shape returns the literal directory prefix of seq and its fixed depth
// (-1 when it varies).
func shape(seq []node) (string, int) {
	depth := 1
	for _, nd := range seq {
		switch {
		case nd.kind == nodeSlash:
			depth++
		case nd.kind == nodeStar && nd.n >= 2:
			depth = -1
		case nd.kind == nodeGroup && depth > 0:
			for _, alt := range nd.alts {
				if _, d := shape(alt); d != 1 {
					depth = -1
				}
			}
		}
		if depth < 0 {
			break
		}
	}
	var lit strings.Builder
	prefix := ""
	if len(seq) > 0 && seq[0].kind == nodeSlash {
		prefix = "/"
	}
	for _, nd := range seq {
		if nd.kind == nodeSlash {
			if lit.Len() > 0 {
				if prefix != "" && prefix != "/" {
					prefix += "/"
				}
				prefix += lit.String()
			}
			lit.Reset()
			continue
		}
		if nd.kind != nodeLiteral {
			break
		}
		lit.WriteRune(nd.r)
	}
	return prefix, depth
}
