package migrate

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"testing"
)

// countingFile is a file of data read in reads of at most max bytes, like
// a read system call; reads counts the calls, and a read at the end (which
// tells nothing but the end) is counted in atEnd.
type countingFile struct {
	data         []byte
	off          int
	max          int
	reads, atEnd int
}

func (f *countingFile) Read(p []byte) (int, error) {
	f.reads++
	if f.off == len(f.data) {
		f.atEnd++
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), f.max)], f.data[f.off:])
	f.off += n
	return n, nil
}

// TestALogReadToTheSizeItHadNeedsNoReadAtItsEnd: a log whose last read
// came back short exactly at the size its descriptor had when it was
// opened has been read whole: the read that would only tell its end (one
// system call per log) is not made. A size that is no longer the file's
// (larger or smaller) never cuts the read short.
func TestALogReadToTheSizeItHadNeedsNoReadAtItsEnd(t *testing.T) {
	log := bytes.Repeat([]byte(`{"seq":1,"event":{"type":"user"}}`+"\n"), 3000) // ~100 KB: two reads of 64 KB
	for _, tc := range []struct {
		name      string
		size      int64
		max       int
		wantAtEnd int
	}{
		{"the size it had", int64(len(log)), 64 << 10, 0},
		{"read in small pieces", int64(len(log)), 4 << 10, 0},
		{"grown since", int64(len(log)) - 100, 64 << 10, 1},
		{"shorter since", int64(len(log)) + 100, 64 << 10, 1},
		{"size unknown", -1, 64 << 10, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &countingFile{data: log, max: tc.max}
			got, err := io.ReadAll(bufio.NewReaderSize(endAt(f, tc.size), 64<<10))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, log) {
				t.Fatalf("read %d bytes, want the log's %d", len(got), len(log))
			}
			if f.atEnd != tc.wantAtEnd {
				t.Errorf("%d reads at the end of the log (of %d reads), want %d", f.atEnd, f.reads, tc.wantAtEnd)
			}
		})
	}
}

// TestAnEndReaderPassesErrorsOn: an error from the file is returned as it
// is, and the reader stops only at a short read that reaches the size.
func TestAnEndReaderPassesErrorsOn(t *testing.T) {
	boom := errors.New("boom")
	r := endAt(io.MultiReader(bytes.NewReader([]byte("ab")), errReader{boom}), 2)
	p := make([]byte, 2)
	if n, err := r.Read(p); n != 2 || err != nil {
		t.Fatalf("first read: %d, %v", n, err)
	}
	// Not short: the file may go on.
	if _, err := r.Read(p); !errors.Is(err, boom) {
		t.Fatalf("second read: %v, want the file's error", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
