package model

import (
	"context"
	"iter"
)

// StreamFunc is the shape of [Provider.Stream]: it streams one response for
// req. A [Middleware] wraps one.
type StreamFunc func(ctx context.Context, req Request) iter.Seq2[Chunk, error]

// A Middleware shapes the model calls of a provider; [Use] installs it.
// Either field may be nil.
//
// Request sees every request first and may change it; Stream wraps the call
// itself and sees the (changed) request, each streamed chunk and the final
// message, and may change, drop or add chunks. A Middleware must be safe
// for concurrent use: the calls of several turns and subagents run at once.
type Middleware struct {
	// Request, when set, returns the request to send in place of req. It
	// also rewrites the requests the provider counts ([TokenCounter]), so a
	// change such as masking secrets applies to everything that leaves.
	// An error ends the call with that error before anything is sent.
	// It must not modify req's slices in place: they are the caller's.
	Request func(ctx context.Context, req Request) (Request, error)

	// Stream, when set, returns the function that streams in place of next.
	// It sees the request after Request changed it. The sequence it
	// returns must keep the [Provider] contract: it ends with one
	// [ChunkDone] chunk or one error.
	Stream func(next StreamFunc) StreamFunc
}

// Use returns a Provider that sends each request of p through mws, the first
// outermost: mws[0].Request sees a request first, and mws[0].Stream sees the
// chunks last, on their way to the caller. With no middleware it returns p.
//
// The returned Provider's Unwrap() Provider method returns p, so
// [AsTokenCounter] and [AsWindowReporter] find p's optional interfaces. When
// p (or a provider it wraps) is a [TokenCounter], the returned Provider is
// one too, and counts the request as the Request functions change it. It is
// safe for concurrent use if p and mws are.
func Use(p Provider, mws ...Middleware) Provider {
	if len(mws) == 0 {
		return p
	}
	u := &used{p: p, mws: append([]Middleware(nil), mws...)}
	// Built once: the innermost function is p's Stream, and each layer
	// applies its Request before its Stream.
	s := StreamFunc(p.Stream)
	for i := len(u.mws) - 1; i >= 0; i-- {
		s = layer(u.mws[i], s)
	}
	u.stream = s
	if tc, ok := AsTokenCounter(p); ok {
		return &usedCounter{used: u, tc: tc}
	}
	return u
}

// layer returns the StreamFunc of one middleware over next.
func layer(m Middleware, next StreamFunc) StreamFunc {
	s := next
	if m.Stream != nil {
		s = m.Stream(next)
	}
	if m.Request == nil {
		return s
	}
	return func(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
		req, err := m.Request(ctx, req)
		if err != nil {
			return func(yield func(Chunk, error) bool) { yield(Chunk{}, err) }
		}
		return s(ctx, req)
	}
}

// used is the Provider Use returns. Its fields are fixed at construction.
type used struct {
	p      Provider
	mws    []Middleware
	stream StreamFunc
}

var _ Provider = (*used)(nil)

// Stream streams p's response through the middleware.
func (u *used) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return u.stream(ctx, req)
}

// Unwrap returns the wrapped provider.
func (u *used) Unwrap() Provider { return u.p }

// usedCounter is the Provider Use returns over a TokenCounter.
type usedCounter struct {
	*used
	tc TokenCounter
}

var _ TokenCounter = (*usedCounter)(nil)

// CountTokens counts req as the middleware's Request functions change it.
func (u *usedCounter) CountTokens(ctx context.Context, req Request) (int, error) {
	for _, m := range u.mws {
		if m.Request == nil {
			continue
		}
		var err error
		if req, err = m.Request(ctx, req); err != nil {
			return 0, err
		}
	}
	return u.tc.CountTokens(ctx, req)
}
