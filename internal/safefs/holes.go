package safefs

import (
	"fmt"
	"os"

	"github.com/lite-agent/lite-agent-go/storage"
)

// MaxHoleBytes is the most of a record file that may lie in holes, ranges
// of a sparse file that the file system stores no blocks for and that read
// as zeros: 64 MiB. The stores never make one: they append, or write a
// whole record and rename it into place, and the bytes they write (JSON,
// or an envelope of base64) hold no zeros, so even a copy made with
// cp --sparse or rsync -S has none. A crash may leave a short run of
// unwritten blocks at the end of a log; a planted file (truncate -s 1T,
// 4 KiB on disk) is a hole of any size, whose reading as zeros cost a
// listing minutes of processor time per file and a reader of whole
// records its size in memory.
const MaxHoleBytes = 64 << 20

// HoleBytes returns how many of the first size bytes of the open regular
// file f lie in holes, counting no further than just past limit (a result
// over limit means "more than limit"). A file system that cannot tell
// holes counts none. f's offset is left where it was.
func HoleBytes(f *os.File, size, limit int64) (int64, error) {
	return holeBytes(f, size, limit)
}

// CheckHoles refuses, as a *storage.Error of op naming p, an open record
// file f of size bytes whose holes add up to more than MaxHoleBytes, before
// it is read.
func CheckHoles(op, p string, f *os.File, size int64) error {
	if size <= MaxHoleBytes {
		return nil
	}
	n, err := HoleBytes(f, size, MaxHoleBytes)
	if err != nil {
		return fileError(op, p, err)
	}
	if n > MaxHoleBytes {
		return SparseError(op, p)
	}
	return nil
}

// SparseError is CheckHoles' refusal of the file at p.
func SparseError(op, p string) error {
	return &storage.Error{Op: op, File: p, Message: fmt.Sprintf("Storage file is sparse: more than %d MiB of it are holes, which no store writes (a planted or damaged file); refusing to read it", MaxHoleBytes>>20)}
}
