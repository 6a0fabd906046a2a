//go:build !unix

package task

import "context"

// queue is a no-op where flock does not exist; the list's lock directory
// alone orders access.
func queue(ctx context.Context, dir string) (release func(), err error) {
	return func() {}, ctx.Err()
}
