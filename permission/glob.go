package permission

import (
	"errors"
	"regexp"
	"strings"
	"unicode/utf8"
)

// maxGlobAlternatives bounds the patterns one glob's braces expand to.
const maxGlobAlternatives = 256

// maxPatternLen bounds the length of a glob or regex in bytes.
const maxPatternLen = 4096

// compileGlob compiles a glob (see [Glob]) into a regular expression
// anchored to the whole string.
func compileGlob(pattern string) (*regexp.Regexp, error) {
	if len(pattern) > maxPatternLen {
		return nil, errors.New("glob is too long")
	}
	if strings.HasPrefix(pattern, "!") {
		return nil, errors.New("negated globs are not supported; use not")
	}
	if err := checkNoGroups(pattern); err != nil {
		return nil, err
	}
	alts, err := expandBraces(pattern, 0)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString(`^(?:`)
	for i, alt := range alts {
		if i > 0 {
			b.WriteByte('|')
		}
		globSegment(&b, alt)
	}
	b.WriteString(`)$`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, errors.New("invalid glob: " + regexCode(err))
	}
	return re, nil
}

// checkNoGroups rejects a glob with an unescaped '(', ')' or '|' outside a
// bracket expression. In the reference's globs (picomatch) these make
// groups and extglobs such as "**/*.@(pem|key)", which this matcher does
// not implement; read as literal characters, such a deny rule would
// silently match nothing, so it fails to load instead.
func checkNoGroups(p string) error {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			if end := classEnd(p, i); end >= 0 {
				i = end
			}
		case '(', ')', '|':
			return errors.New("glob groups and extglobs such as @(a|b) are not supported; use {a,b}, or escape the character with \\")
		}
	}
	return nil
}

// checkToolGlob rejects a tool glob with characters no tool name has, such
// as "Bash(git:*)", so that a rule in another tool's syntax fails instead of
// silently matching nothing.
func checkToolGlob(g string) error {
	for _, r := range g {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
		case strings.ContainsRune(`*?[]{},!^\`, r):
		default:
			return errors.New("not a tool name glob: tool names have only letters, digits, '_' and '-'")
		}
	}
	return nil
}

// expandBraces expands the first {a,b} group of p that holds a top-level
// comma, recursively. Braces without a comma, and unbalanced ones, are
// literal.
func expandBraces(p string, depth int) ([]string, error) {
	if depth > 16 {
		return nil, errors.New("glob braces nest too deeply")
	}
	open, close, commas := findBraceGroup(p)
	if open < 0 {
		return []string{p}, nil
	}
	prefix, suffix := p[:open], p[close+1:]
	var out []string
	start := open + 1
	for _, c := range append(commas, close) {
		alt := prefix + p[start:c] + suffix
		more, err := expandBraces(alt, depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
		if len(out) > maxGlobAlternatives {
			return nil, errors.New("glob has too many alternatives")
		}
		start = c + 1
	}
	return out, nil
}

// findBraceGroup returns the offsets of the first balanced brace group of p
// with a top-level comma, and of those commas; open is -1 when there is
// none. Escaped characters and bracket expressions are skipped.
func findBraceGroup(p string) (open, close int, commas []int) {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			if j := classEnd(p, i); j > 0 {
				i = j
			}
		case '{':
			depth := 0
			var cs []int
			for j := i; j < len(p); j++ {
				switch p[j] {
				case '\\':
					j++
				case '{':
					depth++
				case '}':
					depth--
					if depth == 0 {
						if len(cs) > 0 {
							return i, j, cs
						}
						j = len(p)
					}
				case ',':
					if depth == 1 {
						cs = append(cs, j)
					}
				}
			}
		}
	}
	return -1, -1, nil
}

// classEnd returns the offset of the ']' closing the bracket expression
// that starts at p[i], or -1.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		}
	}
	return -1
}

// globSegment writes the regular expression of a brace-free glob.
func globSegment(b *strings.Builder, p string) {
	segStart := true
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 < len(p) {
				i++
				b.WriteString(regexp.QuoteMeta(p[i : i+1]))
			} else {
				b.WriteString(`\\`)
			}
			segStart = false
		case c == '/' && p[i+1:] == "**" && i+1 < len(p):
			// "dir/**" matches dir itself and everything below it.
			b.WriteString(`(?:/.*)?`)
			return
		case c == '/':
			b.WriteByte('/')
			segStart = true
			continue
		case c == '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			segEnd := j == len(p) || p[j] == '/'
			switch {
			case j-i >= 2 && segStart && segEnd && j < len(p): // "**/" matches zero or more segments
				b.WriteString(`(?:.*/)?`)
				j++ // the slash
				i = j - 1
				segStart = true
				continue
			case j-i >= 2 && segStart && segEnd:
				b.WriteString(`.*`)
			default:
				b.WriteString(`[^/]*`)
			}
			i = j - 1
		case c == '?':
			b.WriteString(`[^/]`)
		case c == '[':
			end := classEnd(p, i)
			if end < 0 {
				b.WriteString(`\[`)
				break
			}
			b.WriteByte('[')
			k := i + 1
			if p[k] == '!' || p[k] == '^' {
				b.WriteByte('^')
				k++
			}
			for ; k < end; k++ {
				switch {
				case p[k] == '\\' && k+1 < end:
					k++
					b.WriteString(regexp.QuoteMeta(p[k : k+1]))
				case p[k] == '-':
					b.WriteByte('-')
				default:
					_, size := utf8.DecodeRuneInString(p[k:end])
					b.WriteString(regexp.QuoteMeta(p[k : k+size]))
					k += size - 1
				}
			}
			b.WriteByte(']')
			i = end
		default:
			b.WriteString(regexp.QuoteMeta(p[i : i+1]))
		}
		segStart = false
	}
}
