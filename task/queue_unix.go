//go:build unix

package task

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// queue makes the callers on one machine that use a list, goroutines and
// processes alike, wait their turn for it in the kernel: it takes a blocking
// flock on its own descriptor of the list directory before the list's lock
// directory is tried. Waiters are woken the moment the holder releases,
// instead of polling the lock directory with backoff, which lets a caller
// that releases and immediately re-locks starve the others.
//
// The queue only orders access; exclusion is the lock directory's job, which
// programs that do not queue honour too. Where flock is unavailable (some
// network file systems), queue returns a no-op release and the lock
// directory alone applies. When the deadline passes first, queue gives up
// its place and returns a no-op release, leaving the decision to the lock
// directory, whose wait then fails if the holder is stuck. When ctx is done
// first, queue returns ctx.Err(). A flock given up is released as soon as
// the kernel grants it.
func queue(ctx context.Context, dir string, deadline time.Time) (release func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return func() {}, nil // the lock directory will report the problem
	}
	done := make(chan error, 1)
	go func() {
		fd := int(f.Fd())
		for {
			err := syscall.Flock(fd, syscall.LOCK_EX)
			if !errors.Is(err, syscall.EINTR) {
				done <- err
				return
			}
		}
	}()
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			f.Close()
			return func() {}, nil
		}
		return func() { f.Close() }, nil // closing the descriptor unlocks it
	case <-timer.C:
		go giveUp(f, done)
		return func() {}, nil
	case <-ctx.Done():
		go giveUp(f, done)
		return nil, ctx.Err()
	}
}

// giveUp releases a flock that was abandoned while pending, once the kernel
// grants it.
func giveUp(f *os.File, done <-chan error) {
	<-done
	f.Close()
}
