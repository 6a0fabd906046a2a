package frontmatter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is the Err of a [Problem] about a root that resolves outside
// the directory it must stay within.
var ErrOutside = errors.New("directory leads outside its project")

// A Problem reports a file or directory that cannot be used, naming its
// path. Callers turn it into their own error type.
type Problem struct {
	// Path is the file or directory, as the caller named it.
	Path string
	// Detail says what is wrong.
	Detail string
	// Err is the underlying I/O error, if any.
	Err error
}

func (p *Problem) Error() string { return p.Path + ": " + p.Detail }

// Unwrap returns the underlying I/O error, if any.
func (p *Problem) Unwrap() error { return p.Err }

// WalkOptions configures a [Walker].
type WalkOptions struct {
	// Match says whether a file name (without directory) is one to read.
	Match func(name string) bool
	// MaxEntries is the most directory entries one Walk looks at.
	MaxEntries int
	// MaxFiles is the most matching files all Walks of one Walker read.
	MaxFiles int
	// Files names the matching files in the MaxFiles problem, as in
	// "more than 1000 skill files".
	Files string
	// MaxFileBytes is the largest file read.
	MaxFileBytes int64
}

// A Walker walks directories of definition files strictly: a root may be
// a symbolic link, but nothing inside it is followed. It remembers the
// roots it walked, so a directory reached twice is read once, and counts
// files across walks. A Walker is not safe for concurrent use.
type Walker struct {
	opts  WalkOptions
	seen  []os.FileInfo
	files int
}

// NewWalker returns a Walker with opts.
func NewWalker(opts WalkOptions) *Walker { return &Walker{opts: opts} }

// Walk walks root recursively, in lexical order, and calls file with the
// contents of every regular file whose name matches, reported as shown
// (root joined with its path below the resolved root). An error from file
// stops the walk and is returned as is.
//
// A root that does not exist, or that an earlier Walk read, is skipped. A
// root that cannot be read or resolved or is not a directory, a root that
// resolves outside within (when within is not ""), more than
// MaxEntries entries or more than MaxFiles files stop the walk with a
// *[Problem]. An entry below root that cannot be read, a matching file
// that is a link or not a regular file (also when checked again on the
// opened file) or larger than MaxFileBytes, and a failure to open, stat or
// read it are passed to invalid: a non-nil error from it stops the walk
// and is returned as is, nil skips the entry. Linked directories are not
// entered. A done ctx stops the walk with ctx.Err().
func (w *Walker) Walk(ctx context.Context, root, within string, file func(shown string, data []byte) error, invalid func(*Problem) error) error {
	info, err := os.Stat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return &Problem{Path: root, Detail: "cannot read the directory", Err: err}
	}
	if !info.IsDir() {
		return &Problem{Path: root, Detail: "not a directory"}
	}
	for _, s := range w.seen {
		if os.SameFile(s, info) {
			return nil
		}
	}
	w.seen = append(w.seen, info)
	// Walk the directory the root names, so that a linked root works;
	// links below it are not followed.
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return &Problem{Path: root, Detail: "cannot resolve the directory", Err: err}
	}
	if within != "" {
		if p := outside(root, real, within); p != nil {
			return p
		}
	}
	entries := 0
	return filepath.WalkDir(real, func(p string, d fs.DirEntry, err error) error {
		shown := root
		if rel, rerr := filepath.Rel(real, p); rerr == nil && rel != "." {
			shown = filepath.Join(root, rel)
		}
		if err != nil {
			if p == real {
				return &Problem{Path: root, Detail: "cannot read the directory", Err: err}
			}
			if ierr := invalid(&Problem{Path: shown, Detail: "cannot read", Err: err}); ierr != nil {
				return ierr
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if entries++; entries > w.opts.MaxEntries {
			return &Problem{Path: root, Detail: fmt.Sprintf("more than %d entries", w.opts.MaxEntries)}
		}
		if d.IsDir() || !w.opts.Match(d.Name()) {
			return nil
		}
		if w.files++; w.files > w.opts.MaxFiles {
			return &Problem{Path: shown, Detail: fmt.Sprintf("more than %d %s", w.opts.MaxFiles, w.opts.Files)}
		}
		data, perr := w.read(p, shown, d)
		if perr != nil {
			return invalid(perr)
		}
		return file(shown, data)
	})
}

// read reads the regular file at p, reported as shown.
func (w *Walker) read(p, shown string, d fs.DirEntry) ([]byte, *Problem) {
	if d.Type()&fs.ModeSymlink != 0 {
		return nil, &Problem{Path: shown, Detail: "is a symbolic link"}
	}
	if !d.Type().IsRegular() {
		return nil, &Problem{Path: shown, Detail: "not a regular file"}
	}
	// No links and no blocking: the entry may have been replaced since it
	// was listed.
	f, err := os.OpenFile(p, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, &Problem{Path: shown, Detail: "cannot open the file", Err: err}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, &Problem{Path: shown, Detail: "cannot stat the file", Err: err}
	}
	if !info.Mode().IsRegular() {
		return nil, &Problem{Path: shown, Detail: "not a regular file"}
	}
	if info.Size() > w.opts.MaxFileBytes {
		return nil, &Problem{Path: shown, Detail: fmt.Sprintf("larger than %d bytes", w.opts.MaxFileBytes)}
	}
	data, err := io.ReadAll(io.LimitReader(f, w.opts.MaxFileBytes+1))
	if err != nil {
		return nil, &Problem{Path: shown, Detail: "cannot read the file", Err: err}
	}
	return data, nil
}

// outside returns the problem of a root whose resolved directory real is
// not within (itself resolved), or nil. A root a repository links to a
// directory elsewhere (the user's home, another project) would hand that
// directory's files to the agent, which its file tools may not read.
func outside(root, real, within string) *Problem {
	base, err := filepath.EvalSymlinks(within)
	if err == nil {
		base, err = filepath.Abs(base)
	}
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return &Problem{Path: root, Detail: "cannot resolve " + within, Err: err}
	}
	if rel, err := filepath.Rel(base, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return &Problem{Path: root, Detail: "leads outside " + within + " (to " + real + ")", Err: ErrOutside}
	}
	return nil
}
