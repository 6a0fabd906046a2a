package tool

import (
	"fmt"
	"slices"
)

// A Set is an ordered list of tools with lookup by name.
//
// Tools may share a name. All of them stay in the list, in order, so the
// model is sent every spec; Lookup returns the last one, so a tool added
// later, such as a host's own tool listed after the built-ins, shadows an
// earlier one of the same name when the model calls it.
//
// A Set is immutable and safe for concurrent use. The zero value is an empty
// set.
type Set struct {
	tools  []Tool
	byName map[string]Tool
}

// NewSet returns a Set of tools, in the order given. It panics if a tool is
// nil.
func NewSet(tools ...Tool) *Set {
	s := &Set{tools: slices.Clone(tools), byName: make(map[string]Tool, len(tools))}
	for i, t := range s.tools {
		if t == nil {
			panic(fmt.Sprintf("tool.NewSet: tool %d is nil", i))
		}
		s.byName[t.Name()] = t
	}
	return s
}

// Tools returns the tools of s in order, shadowed ones included. The caller
// may modify the returned slice.
func (s *Set) Tools() []Tool {
	return slices.Clone(s.tools)
}

// Len returns the number of tools in s, shadowed ones included.
func (s *Set) Len() int {
	return len(s.tools)
}

// Lookup returns the tool that a call named name runs: the last tool of s
// with that name. It reports false if s has none, in which case the call's
// result is [Unknown](name).
func (s *Set) Lookup(name string) (Tool, bool) {
	t, ok := s.byName[name]
	return t, ok
}
