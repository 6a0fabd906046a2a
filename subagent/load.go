package subagent

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	front "github.com/lite-agent/lite-agent-go/internal/frontmatter"
	"github.com/lite-agent/lite-agent-go/storage"
)

const (
	// MaxEntries is the most directory entries Load looks at under one
	// agents directory.
	MaxEntries = 20000

	// MaxDefinitions is the most definition files Load reads in all.
	MaxDefinitions = 1000
)

// LoadOptions says where [Load] looks.
type LoadOptions struct {
	// Paths is the resolved layout; its GlobalAgentsDir (<home>/agents)
	// and ProjectAgentsDir (<workdir>/.<namespace>/agents) are searched,
	// in that order. Empty fields are skipped.
	Paths storage.ProjectPaths

	// ExtraDir is one more directory, searched last. "" means none; a
	// relative path is taken from the process's working directory.
	ExtraDir string

	// OnInvalid, when set, receives each definition file (or
	// subdirectory) that cannot be used, and Load skips it and goes on.
	// nil makes the first such problem fail Load.
	OnInvalid func(err *Error)
}

// Load returns the agent definitions of a layout: [GeneralPurpose] first,
// then the definitions found by walking each directory of [LoadOptions]
// recursively, in lexical order, and parsing every file whose name ends in
// ".md" with [Parse]. Files without frontmatter keys define nothing and are
// skipped. A later definition with the same name as an earlier one
// replaces it and keeps the earlier one's place in the list, so a file
// named general-purpose replaces the built-in, a project definition
// shadows a global one and the extra directory shadows both.
//
// A directory that does not exist is skipped; the same directory reached
// twice (by a link, or because the data home is inside the project) is
// read once. An agents directory may itself be a symbolic link, but nothing
// inside it is followed: a definition file that is a link, or not a regular
// file, is invalid, and linked directories are not entered. An agents path
// that is not a directory, more than MaxEntries entries under one directory
// or more than MaxDefinitions files fail Load. Errors are *[Error] naming
// the path; a done ctx stops the walk with ctx.Err().
func Load(ctx context.Context, opts LoadOptions) ([]Definition, error) {
	l := loader{ctx: ctx, onInvalid: opts.OnInvalid, index: map[string]int{}, walker: front.NewWalker(front.WalkOptions{
		Match:        func(name string) bool { return strings.HasSuffix(name, ".md") },
		MaxEntries:   MaxEntries,
		MaxFiles:     MaxDefinitions,
		Files:        "definition files",
		MaxFileBytes: MaxFileBytes,
	})}
	l.add(GeneralPurpose())
	extra := opts.ExtraDir
	if extra != "" {
		abs, err := filepath.Abs(extra)
		if err != nil {
			return nil, &Error{Path: extra, Detail: "cannot resolve the directory", Err: err}
		}
		extra = abs
	}
	for _, root := range []struct {
		dir    string
		source Source
	}{
		{opts.Paths.GlobalAgentsDir, SourceGlobal},
		{opts.Paths.ProjectAgentsDir, SourceProject},
		{extra, SourceExtra},
	} {
		if root.dir == "" {
			continue
		}
		if err := l.walk(root.dir, root.source); err != nil {
			return nil, err
		}
	}
	return l.defs, nil
}

// loader collects definitions across directories.
type loader struct {
	ctx       context.Context // the Load call's; checked at every entry
	onInvalid func(*Error)
	walker    *front.Walker
	defs      []Definition
	index     map[string]int // name -> position in defs
}

// add appends d, or replaces the definition of the same name in place.
func (l *loader) add(d Definition) {
	if i, ok := l.index[d.Name]; ok {
		l.defs[i] = d
		return
	}
	l.index[d.Name] = len(l.defs)
	l.defs = append(l.defs, d)
}

// invalid reports a problem with one file or subdirectory: it fails the
// load unless the caller asked to skip such problems.
func (l *loader) invalid(err *Error) error {
	if l.onInvalid == nil {
		return err
	}
	l.onInvalid(err)
	return nil
}

func (l *loader) walk(root string, source Source) error {
	err := l.walker.Walk(l.ctx, root, func(shown string, data []byte) error {
		def, ok, err := Parse(shown, data)
		if err != nil {
			var de *Error
			if !errors.As(err, &de) {
				de = &Error{Path: shown, Detail: err.Error()}
			}
			return l.invalid(de)
		}
		if ok {
			def.Source = source
			l.add(def)
		}
		return nil
	}, func(p *front.Problem) error {
		return l.invalid(problemError(p))
	})
	if p, ok := err.(*front.Problem); ok {
		return problemError(p)
	}
	return err
}

// problemError turns a problem the walker found into an *Error.
func problemError(p *front.Problem) *Error {
	return &Error{Path: p.Path, Detail: p.Detail, Err: p.Err}
}
