package skill

import (
	"context"

	front "github.com/lite-agent/lite-agent-go/internal/frontmatter"
	"github.com/lite-agent/lite-agent-go/storage"
)

const (
	// MaxEntries is the most directory entries Load looks at under one
	// skills directory.
	MaxEntries = 20000

	// MaxSkills is the most SKILL.md files Load reads in all.
	MaxSkills = 1000
)

// LoadOptions says where [Load] looks.
type LoadOptions struct {
	// Paths is the resolved layout; its GlobalSkillsDir (<home>/skills)
	// and ProjectSkillsDir (<workdir>/.<namespace>/skills) are searched,
	// in that order. Empty fields are skipped.
	Paths storage.ProjectPaths

	// ExtraDir is one more directory, searched last. "" means none; a
	// relative path is taken from the process's working directory.
	ExtraDir string

	// OnInvalid, when set, receives each SKILL.md (or subdirectory) that
	// cannot be used, and Load skips it and goes on. nil makes the first
	// such problem fail Load.
	OnInvalid func(err *Error)
}

// Load finds the skills of a layout. It walks each directory of
// [LoadOptions] recursively, in lexical order, and parses every file named
// exactly SKILL.md with [Parse]. A later skill with the same name as an
// earlier one replaces it (a project skill shadows a global one, the extra
// directory shadows both) and keeps the earlier one's place in the list.
//
// A directory that does not exist is skipped; the same directory reached
// twice (by a link, or because the data home is inside the project) is read
// once. A skills directory may itself be a symbolic link (the project one
// only to a directory inside the workdir, or to the global one), but nothing
// inside it is followed: a SKILL.md that is a link, or not a regular file,
// is invalid, and linked directories are not entered. A skills path that is
// not a directory, more than MaxEntries entries under one directory or more
// than MaxSkills files fail Load. Errors are *[Error] naming the path; a
// done ctx stops the walk with ctx.Err().
func Load(ctx context.Context, opts LoadOptions) ([]Skill, error) {
	return front.Collect(ctx, front.CollectOptions[Skill, Source, *Error]{
		Walk: front.WalkOptions{
			Match:        func(name string) bool { return name == FileName },
			MaxEntries:   MaxEntries,
			MaxFiles:     MaxSkills,
			Files:        "skill files",
			MaxFileBytes: MaxFileBytes,
		},
		Roots: []front.Root[Source]{
			{Dir: opts.Paths.GlobalSkillsDir, Source: SourceGlobal},
			{Dir: opts.Paths.ProjectSkillsDir, Source: SourceProject, Within: front.ProjectWorkdir(opts.Paths.ProjectSkillsDir)},
			{Dir: opts.ExtraDir, Abs: true, Source: SourceExtra},
		},
		Name: func(s Skill) string { return s.Name },
		Parse: func(shown string, data []byte, source Source) (Skill, bool, error) {
			s, err := Parse(shown, data)
			s.Source = source
			return s, err == nil, err
		},
		NewError:  func(path, detail string, err error) *Error { return &Error{Path: path, Detail: detail, Err: err} },
		OnInvalid: opts.OnInvalid,
	})
}
