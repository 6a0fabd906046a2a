package subagent

import (
	"context"
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
// twice (by a link, or because the data home is inside the project) is read
// once. An agents directory may itself be a symbolic link (the project one
// only to a directory inside the workdir, or to the global one), but nothing
// inside it is followed: a definition file that is a link, or not a regular
// file, is invalid, and linked directories are not entered. An agents path
// that is not a directory, more than MaxEntries entries under one directory
// or more than MaxDefinitions files fail Load. Errors are *[Error] naming
// the path; a done ctx stops the walk with ctx.Err().
func Load(ctx context.Context, opts LoadOptions) ([]Definition, error) {
	return front.Collect(ctx, front.CollectOptions[Definition, Source, *Error]{
		Walk: front.WalkOptions{
			Match:        func(name string) bool { return strings.HasSuffix(name, ".md") },
			MaxEntries:   MaxEntries,
			MaxFiles:     MaxDefinitions,
			Files:        "definition files",
			MaxFileBytes: MaxFileBytes,
		},
		Roots: []front.Root[Source]{
			{Dir: opts.Paths.GlobalAgentsDir, Source: SourceGlobal},
			{Dir: opts.Paths.ProjectAgentsDir, Source: SourceProject, Within: front.ProjectWorkdir(opts.Paths.ProjectAgentsDir)},
			{Dir: opts.ExtraDir, Abs: true, Source: SourceExtra},
		},
		Seed: []Definition{GeneralPurpose()},
		Name: func(d Definition) string { return d.Name },
		Parse: func(shown string, data []byte, source Source) (Definition, bool, error) {
			d, ok, err := Parse(shown, data)
			d.Source = source
			return d, ok, err
		},
		NewError:  func(path, detail string, err error) *Error { return &Error{Path: path, Detail: detail, Err: err} },
		OnInvalid: opts.OnInvalid,
	})
}
