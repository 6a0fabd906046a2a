package glob

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// oracle compiles pattern a second, independent way: as an RE2 regular
// expression that the automaton must agree with on every name.
func oracle(pattern string, opts Options) (*regexp.Regexp, error) {
	p := parser{src: pattern, lenient: opts.LiteralUnbalanced}
	seq, err := p.parseSeq(0, false)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(`(?s)^(?:`)
	emitRegexp(&b, seq, true, true)
	b.WriteString(`)$`)
	return regexp.Compile(b.String())
}

func emitRegexp(b *strings.Builder, seq []node, segStart, segEnd bool) {
	for i := 0; i < len(seq); i++ {
		nd := seq[i]
		start := segStart
		if i > 0 {
			start = seq[i-1].kind == nodeSlash
		}
		end := segEnd
		if i+1 < len(seq) {
			end = seq[i+1].kind == nodeSlash
		}
		switch nd.kind {
		case nodeLiteral:
			b.WriteString(regexp.QuoteMeta(string(nd.r)))
		case nodeSlash:
			if i+2 == len(seq) && seq[i+1].kind == nodeStar && seq[i+1].n >= 2 && segEnd {
				b.WriteString(`(?:/.*)?`)
				return
			}
			b.WriteByte('/')
		case nodeStar:
			switch {
			case nd.n >= 2 && start && end && i+1 < len(seq):
				b.WriteString(`(?:.*/)?`)
				i++
			case nd.n >= 2 && start && end:
				b.WriteString(`.*`)
			default:
				b.WriteString(`[^/]*`)
			}
		case nodeQuestion:
			b.WriteString(`[^/]`)
		case nodeClass:
			b.WriteByte('[')
			if nd.cls.negate {
				b.WriteByte('^')
			}
			for _, it := range nd.cls.items {
				b.WriteString(quoteClassRune(it.lo))
				if it.hi != it.lo {
					b.WriteByte('-')
					b.WriteString(quoteClassRune(it.hi))
				}
			}
			b.WriteByte(']')
		case nodeGroup:
			b.WriteString(`(?:`)
			for j, alt := range nd.alts {
				if j > 0 {
					b.WriteByte('|')
				}
				emitRegexp(b, alt, start, end)
			}
			b.WriteByte(')')
		}
	}
}

func quoteClassRune(r rune) string {
	if r == utf8.RuneError {
		return `\x{FFFD}`
	}
	if r < utf8.RuneSelf && strings.ContainsRune(`\[]^-`, r) {
		return `\` + string(r)
	}
	return string(r)
}
