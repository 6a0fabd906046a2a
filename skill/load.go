package skill

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

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
	l := loader{ctx: ctx, onInvalid: opts.OnInvalid, index: map[string]int{}}
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
	seen      []os.FileInfo
	skills    []Skill
	index     map[string]int // name -> position in skills
	files     int
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
	info, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &Error{Path: root, Detail: "cannot read the directory", Err: err}
	}
	if !info.IsDir() {
		return &Error{Path: root, Detail: "not a directory"}
	}
	for _, s := range l.seen {
		if os.SameFile(s, info) {
			return nil
		}
	}
	l.seen = append(l.seen, info)
	// Walk the directory the root names, so that a linked skills
	// directory works; links below it are not followed.
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return &Error{Path: root, Detail: "cannot resolve the directory", Err: err}
	}
	entries := 0
	return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		shown := root
		if rel, rerr := filepath.Rel(real, p); rerr == nil && rel != "." {
			shown = filepath.Join(root, rel)
		}
		if err != nil {
			if p == real {
				return &Error{Path: root, Detail: "cannot read the directory", Err: err}
			}
			if ierr := l.invalid(&Error{Path: shown, Detail: "cannot read", Err: err}); ierr != nil {
				return ierr
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if err := l.ctx.Err(); err != nil {
			return err
		}
		if entries++; entries > MaxEntries {
			return &Error{Path: root, Detail: fmt.Sprintf("more than %d entries", MaxEntries)}
		}
		if d.IsDir() || d.Name() != FileName {
			return nil
		}
		if l.files++; l.files > MaxSkills {
			return &Error{Path: shown, Detail: fmt.Sprintf("more than %d skill files", MaxSkills)}
		}
		s, perr := readSkill(p, shown, d)
		if perr != nil {
			return l.invalid(perr)
		}
		s.Source = source
		if i, ok := l.index[s.Name]; ok {
			l.skills[i] = s
		} else {
			l.index[s.Name] = len(l.skills)
			l.skills = append(l.skills, s)
		}
		return nil
	})
}

// readSkill reads and parses the SKILL.md at p, reported as shown.
func readSkill(p, shown string, d fs.DirEntry) (Skill, *Error) {
	if d.Type()&fs.ModeSymlink != 0 {
		return Skill{}, &Error{Path: shown, Detail: "is a symbolic link"}
	}
	if !d.Type().IsRegular() {
		return Skill{}, &Error{Path: shown, Detail: "not a regular file"}
	}
	// No links and no blocking: the entry may have been replaced since it
	// was listed.
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return Skill{}, &Error{Path: shown, Detail: "cannot open the file", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Skill{}, &Error{Path: shown, Detail: "cannot stat the file", Err: err}
	}
	if !info.Mode().IsRegular() {
		return Skill{}, &Error{Path: shown, Detail: "not a regular file"}
	}
	if info.Size() > MaxFileBytes {
		return Skill{}, &Error{Path: shown, Detail: fmt.Sprintf("larger than %d bytes", MaxFileBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return Skill{}, &Error{Path: shown, Detail: "cannot read the file", Err: err}
	}
	s, err := Parse(shown, data)
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			return Skill{}, se
		}
		return Skill{}, &Error{Path: shown, Detail: err.Error()}
	}
	return s, nil
}
