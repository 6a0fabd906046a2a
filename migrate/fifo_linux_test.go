//go:build linux

package migrate

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// TestPrefetchLeavesAFIFOAlone plants a FIFO under a log's name, with a
// writer waiting in open(2) on it: prefetch, which runs before the worker
// takes the log's lock, must not open it (that would let the writer
// through, and closing it would break the writer's pipe).
func TestPrefetchLeavesAFIFOAlone(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "b.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	res := make(chan error, 1)
	go func() {
		fd, err := unix.Open(fifo, unix.O_WRONLY|unix.O_CLOEXEC, 0) // blocks until a reader opens it
		if err != nil {
			res <- err
			return
		}
		defer unix.Close(fd)
		time.Sleep(200 * time.Millisecond) // the prefetch has closed its end by now
		_, err = unix.Write(fd, []byte("x"))
		res <- err
	}()
	time.Sleep(100 * time.Millisecond)
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := &migration{}
	pair := &dirPair{src: d, units: 1}
	defer pair.close()
	m.prefetch(&unit{kind: unitSession, id: "b", files: pair})
	select {
	case err := <-res:
		if errors.Is(err, unix.EPIPE) {
			t.Errorf("prefetch let a FIFO's writer through and broke its pipe: %v", err)
		} else {
			t.Logf("writer: %v", err)
		}
	case <-time.After(500 * time.Millisecond):
		// The writer still waits: prefetch did not open the FIFO. Let it go.
		if fd, err := unix.Open(fifo, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err == nil {
			<-res
			unix.Close(fd)
		}
	}
}

// TestWorkerRefusesAFIFO puts a FIFO where the plan saw a log: the
// worker's open (under the log's lock) must refuse it at once as
// ErrUnrecognized rather than wait for a writer.
func TestWorkerRefusesAFIFO(t *testing.T) {
	dir, d := fifoSource(t)
	pair := &dirPair{src: d, units: 1}
	defer pair.close()
	src, _, err := pair.handles(&migration{})
	if err != nil {
		t.Fatal(err)
	}
	refusedAtOnce(t, filepath.Join(dir, "b.jsonl"), ErrUnrecognized, "the worker's open of a FIFO", func() error {
		f, _, _, err := src.open("b.jsonl")
		if err == nil {
			_ = f.Close()
		}
		return err
	})
}

// TestCountRefusesAFIFO puts a FIFO where the plan saw a log, before the
// plan counts its lines for the progress totals: the count's open must
// refuse it at once as ErrUnrecognized rather than wait for a writer.
func TestCountRefusesAFIFO(t *testing.T) {
	dir, d := fifoSource(t)
	refusedAtOnce(t, filepath.Join(dir, "b.jsonl"), ErrUnrecognized, "the count's open of a FIFO", func() error {
		_, _, err := (&migration{}).countLines(d, "b.jsonl")
		return err
	})
}

// TestMarkerFIFOIsRefused puts a FIFO under the marker's name in a
// destination: looking at the destination must refuse it at once as a
// marker that cannot be read, rather than wait for a writer.
func TestMarkerFIFOIsRefused(t *testing.T) {
	dst := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dst, MarkerName), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	refusedAtOnce(t, filepath.Join(dst, MarkerName), ErrDestinationNotEmpty, "looking at a FIFO marker", func() error {
		_, _, err := (&migration{srcRoot: "/nowhere", dstRoot: dst}).inspectDestination(t.Context())
		return err
	})
}

// refusedAtOnce runs open, which meets the FIFO fifo, and fails the test
// unless it returns an error matching want without a writer: an open that
// waits for one waits forever, so the bound (10s) only ends the test and
// is generous for a loaded machine running -race; if open still waits
// then, a writer's open and close of the FIFO let it end.
func refusedAtOnce(t *testing.T, fifo string, want error, what string, open func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- open() }()
	select {
	case err := <-done:
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("%s still waits after 10s", what)
		if fd, err := unix.Open(fifo, unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			unix.Close(fd)
			<-done
		}
	}
}

// fifoSource returns a source directory holding a FIFO named b.jsonl, and
// its handle.
func fifoSource(t *testing.T) (string, *safefs.Dir) {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "b.jsonl"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, d
}
