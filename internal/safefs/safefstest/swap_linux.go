package safefstest

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// SwapWithLink plays the other local user of the swap races: it makes a
// symbolic link to target beside dir (named .swap-<dir's name>) and,
// until the returned stop is called or the test ends, exchanges dir and
// the link (renameat2 RENAME_EXCHANGE) in a tight loop, so that at any
// moment dir's path may lead to target. It skips t when the file system
// cannot exchange names. When it returns, dir is in its place and the
// loop is running.
func SwapWithLink(t testing.TB, dir, target string) (stop func()) {
	t.Helper()
	link := filepath.Join(filepath.Dir(dir), ".swap-"+filepath.Base(dir))
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	exchange := func() error {
		return unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE)
	}
	if err := exchange(); err != nil {
		t.Skipf("the file system cannot exchange names (%v)", err)
	}
	if err := exchange(); err != nil {
		t.Fatal(err)
	}
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !done.Load() {
			_ = exchange()
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			done.Store(true)
			wg.Wait()
			// An even number of exchanges leaves dir in place; put it
			// back if the loop stopped after an odd one.
			if fi, err := os.Lstat(dir); err == nil && fi.Mode()&os.ModeSymlink != 0 {
				_ = exchange()
			}
		})
	}
	t.Cleanup(stop)
	return stop
}
