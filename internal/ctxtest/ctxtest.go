// Package ctxtest holds contexts for tests of code that looks at its
// context.Context while it works.
package ctxtest

import (
	"context"
	"sync/atomic"
)

// DoneAfter returns a context that is parent, except that its Err returns
// nil for its first n calls and context.Canceled from then on: a ctx
// cancelled part-way through work that looks at it, at a point a test
// chooses by counting the looks. Done is parent's and is never closed by
// the countdown: code under test must look at Err.
func DoneAfter(parent context.Context, n int) context.Context {
	c := &doneAfter{Context: parent}
	c.left.Store(int64(n))
	return c
}

type doneAfter struct {
	context.Context
	left atomic.Int64
}

func (c *doneAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return c.Context.Err()
}
