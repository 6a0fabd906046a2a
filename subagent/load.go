package subagent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

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
	l := loader{ctx: ctx, onInvalid: opts.OnInvalid, index: map[string]int{}}
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
	seen      []os.FileInfo
	defs      []Definition
	index     map[string]int // name -> position in defs
	files     int
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
	// Walk the directory the root names, so that a linked agents
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
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".md") {
			return nil
		}
		if l.files++; l.files > MaxDefinitions {
			return &Error{Path: shown, Detail: fmt.Sprintf("more than %d definition files", MaxDefinitions)}
		}
		def, ok, perr := readDefinition(p, shown, d)
		if perr != nil {
			return l.invalid(perr)
		}
		if ok {
			def.Source = source
			l.add(def)
		}
		return nil
	})
}

// readDefinition reads and parses the definition file at p, reported as
// shown.
func readDefinition(p, shown string, d fs.DirEntry) (Definition, bool, *Error) {
	if d.Type()&fs.ModeSymlink != 0 {
		return Definition{}, false, &Error{Path: shown, Detail: "is a symbolic link"}
	}
	if !d.Type().IsRegular() {
		return Definition{}, false, &Error{Path: shown, Detail: "not a regular file"}
	}
	// No links and no blocking: the entry may have been replaced since it
	// was listed.
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return Definition{}, false, &Error{Path: shown, Detail: "cannot open the file", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return Definition{}, false, &Error{Path: shown, Detail: "cannot stat the file", Err: err}
	}
	if !info.Mode().IsRegular() {
		return Definition{}, false, &Error{Path: shown, Detail: "not a regular file"}
	}
	if info.Size() > MaxFileBytes {
		return Definition{}, false, &Error{Path: shown, Detail: fmt.Sprintf("larger than %d bytes", MaxFileBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return Definition{}, false, &Error{Path: shown, Detail: "cannot read the file", Err: err}
	}
	def, ok, err := Parse(shown, data)
	if err != nil {
		var de *Error
		if errors.As(err, &de) {
			return Definition{}, false, de
		}
		return Definition{}, false, &Error{Path: shown, Detail: err.Error()}
	}
	return def, ok, nil
}
