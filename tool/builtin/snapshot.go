package builtin

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/tool"
)

// DefaultMaxSnapshotBytes is the largest file whose previous content a
// snapshot keeps when [FileOptions.MaxSnapshotBytes] is zero: 1 MiB.
const DefaultMaxSnapshotBytes = 1 << 20

// A SnapshotRecorder records what a file held before a tool changes it, so
// that the change can be undone. The file tools call RecordSnapshot before
// every write, edit and delete, and change nothing when it fails: the call's
// result is then an error.
//
// The event's Path is the file's path relative to the workspace with "/"
// separators; Before, Truncated, Encoding, After and Deleted are set as
// [session.FileSnapshotEvent] describes, and Turn is left zero for the
// recorder to fill in. The engine implements it by appending the event to
// the session log, which puts the snapshot before the tool's result.
//
// c is the call that makes the change, as the tool received it; the engine
// finds the call's turn through it. RecordSnapshot may be called
// concurrently, for different files.
type SnapshotRecorder interface {
	RecordSnapshot(ctx context.Context, c *tool.Call, ev session.FileSnapshotEvent) error
}

// snapshotBefore fills in ev.Before, ev.Truncated and ev.Encoding from the
// previous content of a file: content, all of it, when have is set; size
// is the file's size and exists says whether there was a file at all.
// Without content, a file small enough to keep is read from open.
func snapshotBefore(ev *session.FileSnapshotEvent, exists bool, size int64, content []byte, have bool, max int64, open func() (*os.File, error)) error {
	if !exists {
		return nil
	}
	if have {
		size = int64(len(content))
	}
	if size > max {
		ev.Truncated = true
		return nil
	}
	if !have {
		f, err := open()
		if err != nil {
			return err
		}
		defer f.Close()
		content, err = io.ReadAll(io.LimitReader(f, max+1))
		if err != nil {
			return err
		}
		if int64(len(content)) > max {
			ev.Truncated = true
			return nil
		}
	}
	var before string
	if utf8.Valid(content) {
		before, ev.Encoding = string(content), "utf8"
	} else {
		before, ev.Encoding = base64.StdEncoding.EncodeToString(content), "base64"
	}
	ev.Before = &before
	return nil
}

// sha256Hex returns the lowercase hex SHA-256 of b.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// record hands ev to the recorder, if there is one.
func (ft *fileTools) record(ctx context.Context, c *tool.Call, ev session.FileSnapshotEvent) error {
	if ft.snapshots == nil {
		return nil
	}
	if err := ft.snapshots.RecordSnapshot(ctx, c, ev); err != nil {
		return fmt.Errorf("record snapshot of %s: %w", ev.Path, err)
	}
	return nil
}
