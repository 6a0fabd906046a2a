package permission

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lite-agent/lite-agent-go/internal/glob"
)

// maxGlobAlternatives bounds the names one glob's braces stand for.
const maxGlobAlternatives = 256

// maxPatternLen bounds the length of a glob or regex in bytes.
const maxPatternLen = 4096

// compileGlob compiles a glob (see [Glob]) with the project's glob
// engine, anchored to the whole string. Unbalanced brackets and braces
// are literal characters; negation, groups and extglobs are errors.
func compileGlob(pattern string) (*glob.Pattern, error) {
	if strings.HasPrefix(pattern, "!") {
		return nil, errors.New("negated globs are not supported; use not")
	}
	p, err := glob.Compile(pattern, glob.Options{
		MaxLen:            maxPatternLen,
		MaxAlternatives:   maxGlobAlternatives,
		LiteralUnbalanced: true,
	})
	if err != nil {
		return nil, fmt.Errorf("invalid glob: %w", err)
	}
	return p, nil
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
