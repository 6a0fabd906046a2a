package migrate

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/filestamp"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// fileState is what a destination file was when a rerun found it to hold
// only what a migration of this source writes: the rerun removes it only
// if it is still that file, not written, replaced or stamped since.
type fileState = filestamp.Stamp

// stateOf returns the state of the file st describes; ok is false where
// the platform does not tell a file's identity (device and inode), as on
// Windows.
func stateOf(st os.FileInfo) (fileState, bool) {
	s := filestamp.Of(st)
	return s, s.Dev != 0 || s.Ino != 0
}

// copyOf checks the destination file rel (relative to the destination
// root), which has a counterpart at the same place in the source: it
// returns "" if the file holds only what a migration of this source, killed
// at any point, may have left there, and otherwise why it does not, for the
// error that stops the rerun. What a migration leaves is, read with the
// destination configuration:
//
//   - for a session log, the source's records in order, or the first of
//     them, possibly followed by a torn part of the next (the copy is
//     written in chunks);
//   - for an archive index, the source's readable lines in order, or the
//     first of them, likewise;
//   - for a note, a task or a spilled output, nothing (created, not yet
//     written) or the source's record;
//   - for the mark of a shared task list, an empty file;
//   - for a configuration file of the home, the source's bytes or the
//     first of them.
//
// A file that still has its source's modification time, which a migration
// gives each file it finished and any later write replaces, is the
// migration's whatever it holds: a copy that failed verification, or one
// written with another codec than this run's. Anything else was written by
// someone else after the migration copied the file (an agent appended to a
// log, put into an archive, updated a task), or the source's file changed
// since in a way a rerun cannot tell from that: either way the file may
// hold the only copy of something, and a rerun must not remove it. The
// state of the file as checked is returned with "".
func (m *migration) copyOf(ctx context.Context, dstDir, srcDir *safefs.Dir, rel string) (string, fileState, error) {
	dst, st, why, err := openRegular(dstDir, rel, filepath.Join(m.dstRoot, rel))
	if err != nil || why != "" {
		return why, fileState{}, err
	}
	defer dst.Close()
	state, ok := stateOf(st)
	if !ok {
		return "cannot be compared with what a migration writes on this platform", fileState{}, nil
	}
	src, srcSt, why, err := openRegular(srcDir, rel, filepath.Join(m.srcRoot, rel))
	if err != nil || why != "" {
		return "has a counterpart in the source that " + strings.TrimPrefix(why, "is "), fileState{}, err
	}
	defer src.Close()
	why, err = m.compareCopy(ctx, rel, src, dst, st.Size())
	if err != nil {
		return why, fileState{}, err
	}
	if why != "" && !st.ModTime().Equal(srcSt.ModTime()) {
		return why, fileState{}, nil
	}
	// Otherwise it still has the stamp of a finished copy: the migration's.
	// The file must not have changed while it was read.
	if st, err := dst.Stat(); err != nil {
		return "cannot be read: " + err.Error(), fileState{}, nil
	} else if now, _ := stateOf(st); now != state {
		return "changed while it was compared with the source", fileState{}, nil
	}
	return "", state, nil
}

// openRegular opens the file rel of d, which is p, for reading through
// d's proven handle, without following a symlink or waiting on a FIFO;
// why says what is wrong with p if it is not a regular file.
func openRegular(d *safefs.Dir, rel, p string) (*os.File, os.FileInfo, string, error) {
	f, err := d.OpenFile(rel, os.O_RDONLY, 0)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = &fs.PathError{Op: "open", Path: p, Err: pe.Err} // named as an open of p names it
		}
		return nil, nil, "cannot be read: " + err.Error(), nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, nil, "is not a regular file", nil
	}
	return f, st, "", nil
}

// compareCopy is copyOf once both files are open: src the source's, dst
// the destination's, size bytes long.
func (m *migration) compareCopy(ctx context.Context, rel string, src, dst *os.File, size int64) (string, error) {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	srcEnc := storage.Encoding{Codec: m.srcCodec, Namespace: m.srcNS, ProjectID: m.srcHash}
	dstEnc := storage.Encoding{Codec: m.dstCodec, Namespace: m.dstNS, ProjectID: m.dstHash}
	if m.all {
		switch {
		case contains(configFiles, parts[0]) || contains(configDirs, parts[0]):
			return prefixOf(src, dst)
		case len(parts) > 2 && parts[0] == projectsName && storage.IsProjectHash(parts[1]):
			srcEnc.ProjectID, dstEnc.ProjectID = parts[1], parts[1]
			parts = parts[2:]
		default:
			return "is not a file a migration writes", nil
		}
	}
	single := func(kind storage.Kind, scope, record string) (string, error) {
		if size == 0 {
			return "", nil // created, not yet written
		}
		return sameRecord(ctx, src, dst, srcEnc, dstEnc, kind, scope, record)
	}
	switch {
	case len(parts) == 2 && parts[0] == sessionsName:
		if sid, ok := session.LogID(parts[1]); ok {
			return logPrefix(ctx, src, dst, srcEnc, dstEnc, sid)
		}
	case len(parts) >= 3 && parts[0] == sessionsName:
		sid, _, ok := storage.ParseContextDirName(parts[1])
		if !ok {
			break
		}
		if len(parts) == 3 && parts[2] == archive.IndexFile {
			return indexPrefix(ctx, src, dst, srcEnc, dstEnc, sid)
		}
		if ref, ok := archive.NoteRef(parts[len(parts)-1]); ok && len(parts) == 4 && parts[2] == archive.NotesDir {
			return single(storage.KindArchive, sid, ref)
		}
	case len(parts) == 3 && parts[0] == tasksName:
		if parts[2] == task.SharedMarker || parts[2] == task.ForkMarker {
			if size != 0 {
				return "is not empty, as the mark of a list that a migration writes is", nil
			}
			return "", nil
		}
		if stem, ok := task.RecordStem(parts[2]); ok {
			return single(storage.KindTask, parts[1], stem)
		}
	case len(parts) == 2 && parts[0] == spillName:
		if ref, ok := spill.FileRef(parts[1]); ok {
			return single(storage.KindSpill, spill.Scope, ref)
		}
	}
	return "is not a file a migration writes", nil
}

// prefixOf reports whether dst holds the bytes of src or the first of them.
func prefixOf(src, dst io.Reader) (string, error) {
	a, b := bufio.NewReader(src), bufio.NewReader(dst)
	for n := int64(0); ; n++ {
		y, err := b.ReadByte()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "cannot be read: " + err.Error(), nil
		}
		x, err := a.ReadByte()
		if err != nil || x != y {
			return "differs from the source's file at byte " + strconv.FormatInt(n, 10), nil
		}
	}
}

// sameRecord reports whether dst, one record of the destination, decodes to
// what src, the source's, decodes to.
func sameRecord(ctx context.Context, src, dst io.Reader, srcEnc, dstEnc storage.Encoding, kind storage.Kind, scope, record string) (string, error) {
	d, err := io.ReadAll(dst)
	if err != nil {
		return "cannot be read: " + err.Error(), nil
	}
	s, err := io.ReadAll(src)
	if err != nil {
		return "has a counterpart in the source that cannot be read", nil
	}
	dp, err := dstEnc.Decode(ctx, kind, scope, record, d)
	if err != nil {
		return "does not decode with the destination's configuration", ctx.Err()
	}
	sp, err := srcEnc.Decode(ctx, kind, scope, record, s)
	if err != nil {
		return "has a counterpart in the source that does not decode, which a migration does not copy", ctx.Err()
	}
	if !bytes.Equal(dp, sp) {
		return "differs from the source's record", nil
	}
	return "", nil
}

// logPrefix reports whether dst, a destination session log of sid, holds
// the records of src, the source's, in order, or the first of them,
// possibly followed by a torn part of the next one.
func logPrefix(ctx context.Context, src, dst io.Reader, srcEnc, dstEnc storage.Encoding, sid string) (string, error) {
	sl := &lineReader{br: bufio.NewReaderSize(src, 64<<10), max: session.MaxLineBytes}
	dl := &lineReader{br: bufio.NewReaderSize(dst, 64<<10), max: session.MaxLineBytes}
	// next returns the next record of the source, nil after the last.
	next := func() ([]byte, bool) {
		for {
			l, err := sl.next()
			if err != nil || l.torn {
				return nil, false
			}
			if l.tooLong {
				return nil, true // a migration stops there
			}
			if text := bytes.Trim(l.text, " \t\r\n"); len(text) > 0 {
				return text, true
			}
		}
	}
	for pos := int64(1); ; pos++ {
		l, err := dl.next()
		if err == io.EOF {
			return "", nil
		}
		if err != nil {
			return "cannot be read: " + err.Error(), nil
		}
		text, more := next()
		if l.torn {
			if more {
				return "", nil // a chunk the migration was writing
			}
			return "ends in a torn line after the source's last record", nil
		}
		rec := strconv.FormatInt(pos, 10)
		switch {
		case !more:
			return "holds more records than the source's log (record " + rec + " and on)", nil
		case l.tooLong || text == nil:
			return "record " + rec + " differs from the source's", nil
		}
		dp, err := dstEnc.Decode(ctx, storage.KindCheckpoint, sid, rec, l.text)
		if err != nil {
			return "record " + rec + " does not decode with the destination's configuration", ctx.Err()
		}
		// dp is a fresh slice or, for plaintext, l.text: the source's
		// reader does not touch it.
		sp, err := srcEnc.Decode(ctx, storage.KindCheckpoint, sid, rec, text)
		if err != nil {
			return "record " + rec + " of the source's log does not decode, which a migration does not copy", ctx.Err()
		}
		if !bytes.Equal(dp, sp) {
			return "record " + rec + " differs from the source's", nil
		}
	}
}

// indexPrefix reports whether dst, a destination archive index of sid,
// holds the readable lines of src, the source's, in order, or the first of
// them, possibly followed by a torn part of the next one. A migration
// leaves out a line that does not decode or is not an index entry
// (SkipUnreadable), so the source's readable lines are what it copies.
func indexPrefix(ctx context.Context, src, dst io.Reader, srcEnc, dstEnc storage.Encoding, sid string) (string, error) {
	d, err := io.ReadAll(dst)
	if err != nil {
		return "cannot be read: " + err.Error(), nil
	}
	s, err := io.ReadAll(src)
	if err != nil {
		return "has a counterpart in the source that cannot be read", nil
	}
	var want [][]byte
	for rec := range archive.IndexLines(s) {
		if rec.Torn {
			break
		}
		plain, err := srcEnc.Decode(ctx, storage.KindArchiveIndex, sid, rec.ID, rec.Stored)
		if err != nil && ctx.Err() != nil {
			return "", ctx.Err()
		}
		if err == nil && archive.ValidIndexLine(plain) {
			want = append(want, plain)
		}
	}
	n := 0
	for rec := range archive.IndexLines(d) {
		switch {
		case rec.Torn && n < len(want):
			return "", nil // the write the migration was making
		case rec.Torn:
			return "ends in a torn line after the source's last entry", nil
		case n >= len(want):
			return fmt.Sprintf("holds more entries than the source's index (line %d and on)", n+1), nil
		}
		plain, err := dstEnc.Decode(ctx, storage.KindArchiveIndex, sid, rec.ID, rec.Stored)
		if err != nil {
			return fmt.Sprintf("line %d does not decode with the destination's configuration", n+1), ctx.Err()
		}
		if !bytes.Equal(plain, want[n]) {
			return fmt.Sprintf("line %d differs from the source's", n+1), nil
		}
		n++
	}
	return "", nil
}
