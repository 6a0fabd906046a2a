//go:build !unix

package task

import (
	"context"
	"time"
)

// queue is a no-op where flock does not exist; the list's lock directory
// alone orders access.
func queue(ctx context.Context, dir string, deadline time.Time) (release func(), err error) {
	return func() {}, ctx.Err()
}
