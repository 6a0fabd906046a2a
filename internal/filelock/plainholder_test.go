//go:build unix

package filelock_test

import (
	"bufio"
	"fmt"
	"os"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
)

// childPlainHolder holds the lock of target as a TypeScript SDK process
// does (proper-lockfile), one refresh step at a time as told on stdin: it
// makes the lock directory with mkdir and stamps it by path with a time in
// milliseconds, which it remembers; "look" is the first half of its
// refresh, which compares the directory's mtime at the lock path with the
// remembered one (answering "mine" or "lost"); "stamp" is the second half,
// which stamps whatever is at the lock path, by path, and remembers that
// time. Between the two halves a real process may stall (its event loop
// blocked): the test lets the lock go stale there. It answers "locked"
// once it holds the lock.
func childPlainHolder(target string) int {
	path := target + filelock.Suffix
	if err := os.Mkdir(path, 0o700); err != nil {
		fmt.Fprintln(os.Stderr, "mkdir:", err)
		return 1
	}
	var mine time.Time
	stamp := func() error {
		mine = time.Now().Truncate(time.Millisecond)
		return os.Chtimes(path, mine, mine)
	}
	if err := stamp(); err != nil {
		fmt.Fprintln(os.Stderr, "stamp:", err)
		return 1
	}
	fmt.Println("locked")
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		switch in.Text() {
		case "look":
			st, err := os.Stat(path)
			if err == nil && st.ModTime().Truncate(time.Millisecond).Equal(mine) {
				fmt.Println("mine")
			} else {
				fmt.Println("lost")
			}
		case "stamp":
			if err := stamp(); err != nil {
				fmt.Fprintln(os.Stderr, "stamp:", err)
				return 1
			}
			fmt.Println("stamped")
		default:
			fmt.Fprintf(os.Stderr, "unknown command %q\n", in.Text())
			return 2
		}
	}
	return 0
}
