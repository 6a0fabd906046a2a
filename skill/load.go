package skill

import (
	"context"
	"errors"
	"path/filepath"

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
// once. A skills directory may itself be a symbolic link, but nothing
// inside it is followed: a SKILL.md that is a link, or not a regular file,
// is invalid, and linked directories are not entered. A skills path that is
// not a directory, more than MaxEntries entries under one directory or more
// than MaxSkills files fail Load. Errors are *[Error] naming the path; a
// done ctx stops the walk with ctx.Err().
func Load(ctx context.Context, opts LoadOptions) ([]Skill, error) {
	l := loader{ctx: ctx, onInvalid: opts.OnInvalid, index: map[string]int{}, walker: front.NewWalker(front.WalkOptions{
		Match:        func(name string) bool { return name == FileName },
		MaxEntries:   MaxEntries,
		MaxFiles:     MaxSkills,
		Files:        "skill files",
		MaxFileBytes: MaxFileBytes,
	})}
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
		{opts.Paths.GlobalSkillsDir, SourceGlobal},
		{opts.Paths.ProjectSkillsDir, SourceProject},
		{extra, SourceExtra},
	} {
		if root.dir == "" {
			continue
		}
		if err := l.walk(root.dir, root.source); err != nil {
			return nil, err
		}
	}
	return l.skills, nil
}

// loader collects skills across directories.
type loader struct {
	ctx       context.Context // the Load call's; checked at every entry
	onInvalid func(*Error)
	walker    *front.Walker
	skills    []Skill
	index     map[string]int // name -> position in skills
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
		s, err := Parse(shown, data)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) {
				se = &Error{Path: shown, Detail: err.Error()}
			}
			return l.invalid(se)
		}
		s.Source = source
		if i, ok := l.index[s.Name]; ok {
			l.skills[i] = s
		} else {
			l.index[s.Name] = len(l.skills)
			l.skills = append(l.skills, s)
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
