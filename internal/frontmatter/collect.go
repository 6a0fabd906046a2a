package frontmatter

import (
	"context"
	"errors"
	"path/filepath"
)

// A Root is one directory [Collect] searches, with the source its items
// are tagged with.
type Root[S any] struct {
	// Dir is the directory; "" is skipped. With Abs set, a relative Dir
	// is taken from the process's working directory.
	Dir string
	// Abs says to resolve Dir to an absolute path before the walk.
	Abs bool
	// Source is passed to Parse for every file found under Dir.
	Source S
	// Within, when not "", is the directory Dir must resolve into: a Dir
	// that is (or passes through) a link leading elsewhere fails Collect.
	Within string
}

// CollectOptions configures [Collect]. E is the caller's error type (a
// pointer with a path, a detail and an underlying error).
type CollectOptions[T, S any, E error] struct {
	// Walk options of the one [Walker] all roots share.
	Walk WalkOptions
	// Roots are searched in order.
	Roots []Root[S]
	// Seed items come first, as if found before the roots.
	Seed []T
	// Name is an item's name: a later item of a name replaces the
	// earlier one and keeps its place.
	Name func(T) string
	// Parse makes the item of one file, shown as it is reported; ok false
	// means the file defines nothing. An error that is not an E becomes
	// NewError(shown, its text, nil).
	Parse func(shown string, data []byte, source S) (item T, ok bool, err error)
	// NewError makes the caller's error for a path.
	NewError func(path, detail string, err error) E
	// OnInvalid, when set, receives each file or subdirectory that cannot
	// be used, which is then skipped; nil makes the first one fail.
	OnInvalid func(E)
}

// Collect walks the roots of opts with one Walker and returns the items
// of the files it finds, by name, after the seed items: a later item with
// the name of an earlier one replaces it in its place. Every problem is
// an E: one the walk reports about a file or subdirectory goes to
// OnInvalid (or fails Collect without it), one about a whole root fails
// Collect. A done ctx stops the walk with ctx.Err().
func Collect[T, S any, E error](ctx context.Context, opts CollectOptions[T, S, E]) ([]T, error) {
	var (
		items []T
		index = map[string]int{}
	)
	add := func(item T) {
		name := opts.Name(item)
		if i, ok := index[name]; ok {
			items[i] = item
			return
		}
		index[name] = len(items)
		items = append(items, item)
	}
	for _, item := range opts.Seed {
		add(item)
	}
	invalid := func(e E) error {
		if opts.OnInvalid == nil {
			return e
		}
		opts.OnInvalid(e)
		return nil
	}
	problem := func(p *Problem) E { return opts.NewError(p.Path, p.Detail, p.Err) }
	w := NewWalker(opts.Walk)
	for _, root := range opts.Roots {
		dir := root.Dir
		if dir == "" {
			continue
		}
		if root.Abs {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return nil, opts.NewError(dir, "cannot resolve the directory", err)
			}
			dir = abs
		}
		err := w.Walk(ctx, dir, root.Within, func(shown string, data []byte) error {
			item, ok, err := opts.Parse(shown, data, root.Source)
			if err != nil {
				var e E
				if !errors.As(err, &e) {
					e = opts.NewError(shown, err.Error(), nil)
				}
				return invalid(e)
			}
			if ok {
				add(item)
			}
			return nil
		}, func(p *Problem) error { return invalid(problem(p)) })
		if p, ok := err.(*Problem); ok {
			return nil, problem(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return items, nil
}

// ProjectWorkdir returns the workdir of a project skills or agents
// directory (<workdir>/.<namespace>/<dir>), the directory it must resolve
// into, or "" for "".
func ProjectWorkdir(dir string) string {
	if dir == "" {
		return ""
	}
	return filepath.Dir(filepath.Dir(filepath.Clean(dir)))
}
