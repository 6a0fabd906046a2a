package permission

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestR52ReadRecipeFileFIFO: a recipe that becomes a FIFO between the
// gate's look at it and its open (a background command of the session
// may swap it) must not block the gate: readRecipeFile opened it for
// reading, which waits for a writer forever (review52g).
func TestR52ReadRecipeFileFIFO(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "Makefile")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readRecipeFile(p, maxRecipeBytes)
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a FIFO was read as a recipe")
		}
	case <-time.After(10 * time.Second): // a read that waits for a writer waits forever
		// Unblock the reader so the test ends.
		if f, err := openWriteNonblock(p); err == nil {
			f.Close()
		}
		t.Fatal("readRecipeFile blocked on a FIFO")
	}
}

// openWriteNonblock opens the FIFO p for writing without waiting.
func openWriteNonblock(p string) (interface{ Close() error }, error) {
	fd, err := syscall.Open(p, syscall.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	return closer(fd), nil
}

type closer int

func (c closer) Close() error { return syscall.Close(int(c)) }
