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
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "b.jsonl"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	pair := &dirPair{src: d, units: 1}
	defer pair.close()
	src, _, err := pair.handles(&migration{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		f, _, err := src.open("b.jsonl")
		if err == nil {
			_ = f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrUnrecognized) {
			t.Errorf("the worker's open of a FIFO: %v, want ErrUnrecognized", err)
		}
	case <-time.After(time.Second):
		t.Errorf("the worker's open of a FIFO still waits after 1s")
		// unblock it
		if fd, err := unix.Open(filepath.Join(dir, "b.jsonl"), unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			<-done
			unix.Close(fd)
		}
	}
}

// TestCountRefusesAFIFO puts a FIFO where the plan saw a log, before the
// plan counts its lines for the progress totals: the count's open must
// refuse it at once as ErrUnrecognized rather than wait for a writer.
func TestCountRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "b.jsonl"), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, _, err := (&migration{}).countLines(d, "b.jsonl")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrUnrecognized) {
			t.Errorf("the count's open of a FIFO: %v, want ErrUnrecognized", err)
		}
	case <-time.After(time.Second):
		t.Errorf("the count's open of a FIFO still waits after 1s")
		// Unblock it: a writer lets the open return, and its close ends
		// the read.
		if fd, err := unix.Open(filepath.Join(dir, "b.jsonl"), unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			unix.Close(fd)
			<-done
		}
	}
}

// TestMarkerFIFOIsRefused puts a FIFO under the marker's name in a
// destination: looking at the destination must refuse it at once as a
// marker that cannot be read, rather than wait for a writer.
func TestMarkerFIFOIsRefused(t *testing.T) {
	dst := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dst, MarkerName), 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := (&migration{srcRoot: "/nowhere", dstRoot: dst}).inspectDestination()
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrDestinationNotEmpty) {
			t.Errorf("a FIFO marker: %v, want ErrDestinationNotEmpty", err)
		}
	case <-time.After(time.Second):
		t.Errorf("looking at a FIFO marker still waits after 1s")
		if fd, err := unix.Open(filepath.Join(dst, MarkerName), unix.O_WRONLY|unix.O_NONBLOCK, 0); err == nil {
			unix.Close(fd)
			<-done
		}
	}
}
