package tool

import "context"

// A PathCheck decides whether the tool call whose context carries it may
// read or change the file at path: the absolute path, with no symbolic
// link left in it, of the file the tool has opened, before it reads or
// writes a byte. A non-nil error refuses the use; its text is for the
// model.
//
// A wrapper that authorized the call by the path the model named (such
// as the permission gate) adds one with [WithPathCheck], because that
// name may lead elsewhere by the time the tool opens it: a symbolic link
// made or replaced in between.
type PathCheck func(ctx context.Context, path string) error

type pathChecksKey struct{}

// pathChecks is a list of checks in a context, outermost first.
type pathChecks struct {
	prev  *pathChecks
	check PathCheck
}

// WithPathCheck returns a copy of ctx that carries check, after the
// checks ctx carries already. A nil check returns ctx.
func WithPathCheck(ctx context.Context, check PathCheck) context.Context {
	if check == nil {
		return ctx
	}
	prev, _ := ctx.Value(pathChecksKey{}).(*pathChecks)
	return context.WithValue(ctx, pathChecksKey{}, &pathChecks{prev: prev, check: check})
}

// CheckPath runs the checks ctx carries (see [WithPathCheck]) on path,
// innermost first, and returns the first error. A tool that opens files
// by a name its caller authorized calls it with what it opened; nil when
// ctx carries no check.
func CheckPath(ctx context.Context, path string) error {
	for c, _ := ctx.Value(pathChecksKey{}).(*pathChecks); c != nil; c = c.prev {
		if err := c.check(ctx, path); err != nil {
			return err
		}
	}
	return nil
}
