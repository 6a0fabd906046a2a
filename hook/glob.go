package hook

import (
	"errors"
	"path"
	"strings"
)

const (
	maxGlobLen          = 256 // bytes in a match pattern
	maxGlobAlternatives = 64  // patterns a brace expansion may produce
)

// validGlob reports whether pattern is a usable match glob.
func validGlob(pattern string) error {
	if pattern == "" {
		return errors.New("empty pattern")
	}
	if len(pattern) > maxGlobLen {
		return errors.New("pattern longer than 256 bytes")
	}
	if strings.HasPrefix(pattern, "!") {
		return errors.New("negated patterns are not supported")
	}
	alts, err := expandBraces(pattern)
	if err != nil {
		return err
	}
	for _, a := range alts {
		if _, err := path.Match(bangClasses(a), ""); err != nil {
			return errors.New("malformed pattern")
		}
	}
	return nil
}

// matchGlob reports whether name matches pattern, which validGlob
// accepted. The whole name must match.
func matchGlob(pattern, name string) bool {
	alts, err := expandBraces(pattern)
	if err != nil {
		return false
	}
	for _, a := range alts {
		if ok, err := path.Match(bangClasses(a), name); err == nil && ok {
			return true
		}
	}
	return false
}

// expandBraces expands "{a,b}" groups, nested ones included, into the
// plain patterns they stand for. A backslash escapes the next byte and
// brackets are copied as they are. Unbalanced braces are an error, and so
// is an expansion of more than maxGlobAlternatives patterns.
func expandBraces(p string) ([]string, error) {
	open := -1
	depth := 0
	var commas []int
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
				commas = commas[:0]
			}
			depth++
		case ',':
			if depth == 1 {
				commas = append(commas, i)
			}
		case '}':
			if depth == 0 {
				return nil, errors.New("unbalanced braces")
			}
			depth--
			if depth > 0 {
				continue
			}
			prefix, suffix := p[:open], p[i+1:]
			var parts []string
			start := open + 1
			for _, c := range commas {
				parts = append(parts, p[start:c])
				start = c + 1
			}
			parts = append(parts, p[start:i])
			rest, err := expandBraces(suffix)
			if err != nil {
				return nil, err
			}
			var out []string
			for _, part := range parts {
				inner, err := expandBraces(prefix + part)
				if err != nil {
					return nil, err
				}
				for _, in := range inner {
					for _, r := range rest {
						out = append(out, in+r)
						if len(out) > maxGlobAlternatives {
							return nil, errors.New("too many brace alternatives")
						}
					}
				}
			}
			return out, nil
		}
	}
	if depth != 0 {
		return nil, errors.New("unbalanced braces")
	}
	return []string{p}, nil
}

// bangClasses rewrites the class negation "[!" of shell globs as the "[^"
// that path.Match understands.
func bangClasses(p string) string {
	b := []byte(p)
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '[':
			if i+1 < len(b) && b[i+1] == '!' {
				b[i+1] = '^'
			}
			// Skip to the end of the class, so that a "[" inside it is
			// not taken for a new class.
			for i++; i < len(b) && b[i] != ']'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		}
	}
	return string(b)
}
