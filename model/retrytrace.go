package model

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// A Retry describes one retry of a model request that [WithRetry] is about
// to make.
type Retry struct {
	// Attempt is the retry's number: 1 for the first retry.
	Attempt int
	// Err is the failure that caused the retry.
	Err error
	// Wait is the delay before the request is sent again: the backoff, or
	// the provider's Retry-After (capped) when that is longer.
	Wait time.Duration
}

// Reason returns why the request is retried, in a few words for a person:
// "rate limited (429)", "overloaded (529)", "server error (500)",
// "network error".
func (r Retry) Reason() string {
	var e *Error
	if !errors.As(r.Err, &e) {
		if r.Err == nil {
			return "unknown error"
		}
		return "network error"
	}
	var what string
	switch e.Class {
	case ClassRateLimit:
		what = "rate limited"
	case ClassOverloaded:
		what = "overloaded"
	case ClassServer:
		what = "server error"
	case ClassNetwork:
		what = "network error"
	case ClassContextOverflow:
		what = "context overflow"
	case ClassStream:
		what = "stream broke"
	default:
		what = string(e.Class)
	}
	if e.Status != 0 {
		what = fmt.Sprintf("%s (%d)", what, e.Status)
	}
	return what
}

// retryObserverKey is the context key of WithRetryObserver.
type retryObserverKey struct{}

// WithRetryObserver returns a copy of ctx under which the streams of
// [WithRetry] providers call f before each retry's wait, after
// [RetryOptions.OnRetry]. It lets whoever makes a request (an engine
// reporting retry events for its turn) watch that request's retries, the
// way net/http/httptrace lets a caller watch one HTTP request. f runs on
// the goroutine ranging the stream, so it should return quickly. A nil f
// returns ctx unchanged; an observer already in ctx is called too, before
// f.
func WithRetryObserver(ctx context.Context, f func(Retry)) context.Context {
	if f == nil {
		return ctx
	}
	if outer := retryObserver(ctx); outer != nil {
		inner := f
		f = func(r Retry) {
			outer(r)
			inner(r)
		}
	}
	return context.WithValue(ctx, retryObserverKey{}, f)
}

// retryObserver returns the observer of ctx, or nil.
func retryObserver(ctx context.Context) func(Retry) {
	f, _ := ctx.Value(retryObserverKey{}).(func(Retry))
	return f
}
