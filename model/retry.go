package model

import (
	"context"
	"errors"
	"io"
	"iter"
	"math/rand/v2"
	"net"
	"net/url"
	"syscall"
	"time"
)

// ErrNoMessageDone is the cause of the *[Error] (class [ClassStream]) that
// [Checked] and [WithRetry] yield when a provider's stream ends without a
// [ChunkDone] chunk and without an error. Test for it with [errors.Is].
var ErrNoMessageDone = errors.New("provider produced no message_done chunk")

// The defaults of [RetryOptions].
const (
	defaultMaxRetries    = 2
	defaultBaseDelay     = 250 * time.Millisecond
	defaultMaxDelay      = 8 * time.Second
	defaultMaxRetryAfter = 60 * time.Second
)

// RetryOptions configures [WithRetry]. The zero value retries a failed
// request twice, with full-jitter backoff starting from 250 ms and capped at
// 8 s, honours Retry-After up to 60 s, and retries what [IsRetryable]
// accepts.
type RetryOptions struct {
	// MaxRetries is how many times a failed request is sent again, so a
	// call makes at most MaxRetries+1 attempts. Zero means 2; a negative
	// value means no retries.
	MaxRetries int

	// BaseDelay is the backoff ceiling of the first retry; the ceiling
	// doubles with each further retry. Zero (or less) means 250 ms.
	BaseDelay time.Duration

	// MaxDelay caps the backoff ceiling. Zero (or less) means 8 s.
	MaxDelay time.Duration

	// MaxRetryAfter caps the wait a provider may ask for with Retry-After
	// ([Error.RetryAfter]). Zero (or less) means 60 s.
	MaxRetryAfter time.Duration

	// OnRetry, when not nil, is called before each retry's wait with the
	// retry's number (1 for the first retry), the error that caused it and
	// the delay about to be waited. It runs on the goroutine ranging the
	// stream, so it should return quickly. To watch the retries of one
	// request rather than all of them, see [WithRetryObserver].
	OnRetry func(attempt int, err error, delay time.Duration)

	// Retryable decides whether a failure that happened before the first
	// chunk may be retried. Nil means [IsRetryable].
	Retryable func(error) bool
}

// WithRetry returns a Provider that sends a failed request to p again, as
// long as the failure happened before the first chunk reached the caller and
// opts.Retryable accepts it.
//
// Before retry n (n = 1, 2, …) it waits a delay drawn uniformly from
// [0, min(BaseDelay·2^(n−1), MaxDelay)] ("full jitter"), or the failure's
// [Error.RetryAfter] (capped at MaxRetryAfter) when that is longer. Before
// each wait it calls opts.OnRetry and the observer of the request's context
// ([WithRetryObserver]). When ctx is done, retrying stops: a wait in
// progress ends at once and the stream ends with ctx.Err().
//
// Once a chunk has been yielded, a later error passes through unretried; an
// *[Error] is then reported with Started set. When all attempts fail, the
// stream ends with the last attempt's error as the provider reported it.
//
// Streams of the returned Provider also keep the promises [Checked] makes,
// so there is no need to wrap it again.
//
// The returned Provider is safe for concurrent use if p is. Its
// Unwrap() Provider method returns p, so callers can look for optional
// interfaces of the underlying provider.
func WithRetry(p Provider, opts RetryOptions) Provider {
	return newRetrier(p, opts)
}

// newRetrier returns WithRetry's provider with the default random source;
// in-package tests replace randN.
func newRetrier(p Provider, opts RetryOptions) *retrier {
	r := &retrier{
		p:          p,
		maxRetries: opts.MaxRetries,
		base:       opts.BaseDelay,
		maxDelay:   opts.MaxDelay,
		maxAfter:   opts.MaxRetryAfter,
		onRetry:    opts.OnRetry,
		retryable:  opts.Retryable,
		randN:      rand.Int64N,
	}
	switch {
	case r.maxRetries == 0:
		r.maxRetries = defaultMaxRetries
	case r.maxRetries < 0:
		r.maxRetries = 0
	}
	if r.base <= 0 {
		r.base = defaultBaseDelay
	}
	if r.maxDelay <= 0 {
		r.maxDelay = defaultMaxDelay
	}
	if r.maxAfter <= 0 {
		r.maxAfter = defaultMaxRetryAfter
	}
	if r.retryable == nil {
		r.retryable = IsRetryable
	}
	return r
}

// retrier is the Provider WithRetry returns. Its fields are fixed at
// construction.
type retrier struct {
	p          Provider
	maxRetries int
	base       time.Duration
	maxDelay   time.Duration
	maxAfter   time.Duration
	onRetry    func(attempt int, err error, delay time.Duration)
	retryable  func(error) bool
	// randN returns a uniform random value in [0, n); n > 0.
	randN func(n int64) int64
}

var _ Provider = (*retrier)(nil)

// Unwrap returns the wrapped provider.
func (r *retrier) Unwrap() Provider { return r.p }

// Stream streams one response, retrying failures before the first chunk.
func (r *retrier) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		for attempt := 0; ; attempt++ {
			started := false
			var failure error
			for c, err := range check(ctx, r.p.Stream(ctx, req)) {
				if err != nil {
					if started {
						yield(Chunk{}, markStarted(err))
						return
					}
					failure = err
					break
				}
				started = true
				if !yield(c, nil) {
					return
				}
			}
			if failure == nil {
				return // ended with ChunkDone
			}
			if attempt >= r.maxRetries || !r.retryable(failure) {
				yield(Chunk{}, failure)
				return
			}
			if err := ctx.Err(); err != nil {
				yield(Chunk{}, err)
				return
			}
			d := r.delay(attempt+1, failure)
			if r.onRetry != nil {
				r.onRetry(attempt+1, failure, d)
			}
			if observe := retryObserver(ctx); observe != nil {
				observe(Retry{Attempt: attempt + 1, Err: failure, Wait: d})
			}
			if err := wait(ctx, d); err != nil {
				yield(Chunk{}, err)
				return
			}
		}
	}
}

// ceiling returns the backoff ceiling of retry n (n ≥ 1):
// min(base·2^(n−1), maxDelay), without overflowing.
func (r *retrier) ceiling(n int) time.Duration {
	c := r.base
	for i := 1; i < n && c < r.maxDelay; i++ {
		if c > r.maxDelay/2 {
			return r.maxDelay
		}
		c *= 2
	}
	return min(c, r.maxDelay)
}

// delay returns the wait before retry n after err: full jitter in
// [0, ceiling(n)], raised to err's capped RetryAfter.
func (r *retrier) delay(n int, err error) time.Duration {
	d := time.Duration(r.randN(int64(r.ceiling(n)) + 1))
	var e *Error
	if errors.As(err, &e) && e.RetryAfter > 0 {
		d = max(d, min(e.RetryAfter, r.maxAfter))
	}
	return d
}

// wait waits for d or until ctx is done, whichever comes first, and returns
// ctx.Err() in the second case.
func wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// markStarted returns err reporting that the response had already begun: an
// *Error found in err is returned as a copy with Started set (wrapping err
// when the *Error was not err itself). The provider's own value is never
// modified, since it may be shared.
func markStarted(err error) error {
	var e *Error
	if !errors.As(err, &e) || e.Started {
		return err
	}
	c := *e
	c.Started = true
	if error(e) != err {
		c.err = err
	}
	return &c
}

// IsRetryable reports whether a request that failed with err, before any of
// its response arrived, may be sent again. It is the default of
// [RetryOptions.Retryable].
//
// An *[Error] (found with [errors.As]) decides by [Error.Retryable]. Other
// errors are retryable when they are network failures: a connection reset,
// refused or aborted, a broken pipe, [io.ErrUnexpectedEOF], a [*net.OpError],
// a [net.Error] reporting a timeout, or a [*url.Error] whose cause is
// [io.EOF] (the server closed the connection without answering). A cancelled
// context is never retryable; other errors are not either.
func IsRetryable(err error) bool {
	if err == nil {
		return false
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Retryable()
	}
	if errors.Is(err, context.Canceled) {
		return false
	}
	for _, target := range []error{syscall.ECONNRESET, syscall.ECONNREFUSED, syscall.ECONNABORTED, syscall.EPIPE, io.ErrUnexpectedEOF} {
		if errors.Is(err, target) {
			return true
		}
	}
	var op *net.OpError
	if errors.As(err, &op) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	var ue *url.Error
	return errors.As(err, &ue) && errors.Is(ue.Err, io.EOF)
}

// Checked returns a Provider whose streams keep the promises of the
// [Provider] contract even when p's do not:
//
//   - a stream ends right after its first [ChunkDone] chunk (p's stream is
//     stopped there, so nothing after it reaches the caller);
//   - a stream ends right after its first error;
//   - a stream that ends with neither ends with an *[Error] of class
//     [ClassStream] wrapping [ErrNoMessageDone] (Started set when chunks
//     were yielded), or with ctx.Err() when ctx is done.
//
// Consumers such as an engine can therefore rely on every stream ending with
// exactly one ChunkDone or one error. [WithRetry] applies the same checks to
// each attempt, so Checked is only needed for a provider used without
// retries. Checked returns p itself when p already is such a provider.
//
// The returned Provider is safe for concurrent use if p is. Its
// Unwrap() Provider method returns p.
func Checked(p Provider) Provider {
	switch p.(type) {
	case *checked, *retrier:
		return p
	}
	return &checked{p: p}
}

// checked is the Provider Checked returns.
type checked struct {
	p Provider
}

var _ Provider = (*checked)(nil)

// Unwrap returns the wrapped provider.
func (c *checked) Unwrap() Provider { return c.p }

// Stream streams p's response with the checks described at Checked.
func (c *checked) Stream(ctx context.Context, req Request) iter.Seq2[Chunk, error] {
	return check(ctx, c.p.Stream(ctx, req))
}

// check applies Checked's rules to one stream.
func check(ctx context.Context, seq iter.Seq2[Chunk, error]) iter.Seq2[Chunk, error] {
	return func(yield func(Chunk, error) bool) {
		started := false
		for c, err := range seq {
			if err != nil {
				yield(Chunk{}, err)
				return
			}
			if !yield(c, nil) || c.Kind == ChunkDone {
				return
			}
			started = true
		}
		if err := ctx.Err(); err != nil {
			yield(Chunk{}, err)
			return
		}
		e := NewError(ClassStream, 0, ErrNoMessageDone.Error(), ErrNoMessageDone)
		e.Started = started
		yield(Chunk{}, e)
	}
}
