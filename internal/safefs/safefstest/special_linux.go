// Package safefstest holds what the stores' tests share about the files
// internal/safefs refuses.
package safefstest

import (
	"os"
	"syscall"
	"testing"
)

// A Special is a kind of file a store must refuse, at once and without
// changing it, where it expects a regular file.
type Special struct {
	Name string
	// Plant makes one at p, or skips the test where it cannot.
	Plant func(t testing.TB, p string)
}

// Specials returns a FIFO with no peer, a FIFO whose two ends a file of
// the test holds open (so that opening it does not wait), and a character
// device with /dev/null's numbers (which swallows writes).
func Specials() []Special {
	return []Special{
		{"fifo", func(t testing.TB, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
		}},
		{"fifo with both ends open", func(t testing.TB, p string) {
			if err := syscall.Mkfifo(p, 0o600); err != nil {
				t.Skip("no FIFOs here:", err)
			}
			f, err := os.OpenFile(p, os.O_RDWR, 0) // both ends, without waiting (Linux)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { f.Close() })
		}},
		{"device", func(t testing.TB, p string) {
			if err := syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|3); err != nil {
				t.Skip("cannot make a device here:", err)
			}
		}},
	}
}
