package model

import "time"

// WithRetryRand is WithRetry with its random source replaced: randN must
// return a value in [0, n).
func WithRetryRand(p Provider, opts RetryOptions, randN func(n int64) int64) Provider {
	r := newRetrier(p, opts)
	r.randN = randN
	return r
}

// RetryCeiling returns the backoff ceiling of retry n under opts.
func RetryCeiling(opts RetryOptions, n int) time.Duration {
	return newRetrier(nil, opts).ceiling(n)
}
