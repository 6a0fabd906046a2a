package hook

import (
	"errors"

	"github.com/lite-agent/lite-agent-go/internal/glob"
)

const (
	maxGlobLen          = 256 // bytes in a match pattern
	maxGlobAlternatives = 64  // names a pattern's braces may stand for
)

// compileMatch compiles a match glob with the project's glob engine (see
// [Hook.Match]). Unbalanced brackets and braces and a trailing backslash
// are errors, as are negation, groups and extglobs.
func compileMatch(pattern string) (*glob.Pattern, error) {
	if pattern == "" {
		return nil, errors.New("empty pattern")
	}
	return glob.Compile(pattern, glob.Options{MaxLen: maxGlobLen, MaxAlternatives: maxGlobAlternatives})
}

// validGlob reports whether pattern is a usable match glob.
func validGlob(pattern string) error {
	_, err := compileMatch(pattern)
	return err
}

// matchOf returns the compiled match glob of h, which validate accepted;
// nil for a hook without one.
func matchOf(h Hook) *glob.Pattern {
	if h.Match == "" {
		return nil
	}
	p, err := compileMatch(h.Match)
	if err != nil {
		// validate ran first; a pattern that compiled once compiles again.
		panic("hook: match glob: " + err.Error())
	}
	return p
}
