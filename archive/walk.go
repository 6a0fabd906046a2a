package archive

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"iter"
	"path/filepath"
	"strconv"
	"time"

	"github.com/lite-agent/lite-agent-go/storage"
)

// DirFS is read access to a directory holding archive directories, by
// relative name, as a migration's anchored source directory gives it.
// Errors are returned as the implementation reports them; a missing file
// or directory must match fs.ErrNotExist.
type DirFS interface {
	ReadFile(name string) ([]byte, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Lstat(name string) (fs.FileInfo, error)
}

// A Record is one record of an archive directory as stored: an index line
// or a note. Tools that copy archives record by record, such as a
// migration, read them with [List] and write each at its Name, so that
// only this package knows the directory's layout.
type Record struct {
	// Kind is storage.KindArchiveIndex for an index line and
	// storage.KindArchive for a note: the kind of its codec context.
	Kind storage.Kind
	// ID is the record id of its codec context: the index line's 0-based
	// number as a decimal string, or the note's ref.
	ID string
	// Stored is the record as stored: an index line without its newline,
	// or a note file's content.
	Stored []byte
	// Torn reports the torn tail of an index: the bytes after its last
	// newline, which a Put killed while appending leaves. It is not a
	// record (readers ignore it, the next Put sets it aside), so a copy
	// leaves it out.
	Torn bool
	// Name is the file holding the record, relative to the archive
	// directory.
	Name string
	// ModTime is the modification time of that file.
	ModTime time.Time
}

// A Listing is what one archive directory holds, as [List] found it.
type Listing struct {
	// HasIndex reports that the directory holds an index file, and
	// IndexTime is its modification time.
	HasIndex  bool
	IndexTime time.Time
	// HasNotes reports that the directory holds a notes directory, and
	// NotesTime is its modification time.
	HasNotes  bool
	NotesTime time.Time

	fsys  DirFS
	dir   string
	index []byte
	notes []fs.DirEntry
}

// NotesDirName is the name of the notes directory, relative to the archive
// directory, for a copy to create before writing notes into it when
// HasNotes is set.
func (l *Listing) NotesDirName() string { return NotesDir }

// List reads the index of the archive directory dir of fsys and lists its
// notes. A missing index or notes directory is not an error: HasIndex or
// HasNotes is false. Other errors of fsys are returned unchanged.
func List(fsys DirFS, dir string) (*Listing, error) {
	l := &Listing{fsys: fsys, dir: dir}
	var err error
	idx := filepath.Join(dir, IndexFile)
	if l.index, err = fsys.ReadFile(idx); err == nil {
		l.HasIndex = true
		if l.IndexTime, err = modTime(fsys, idx); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	notes := filepath.Join(dir, NotesDir)
	if l.notes, err = fsys.ReadDir(notes); err == nil {
		l.HasNotes = true
		if l.NotesTime, err = modTime(fsys, notes); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return l, nil
}

func modTime(fsys DirFS, name string) (time.Time, error) {
	st, err := fsys.Lstat(name)
	if err != nil {
		return time.Time{}, err
	}
	return st.ModTime(), nil
}

// IndexLines yields the index's lines in order, each with its 0-based
// number as ID. An empty line is yielded too (a reader refuses it); the
// bytes after the last newline, if any, are yielded last as Torn: not a
// record.
func (l *Listing) IndexLines() iter.Seq[Record] {
	return func(yield func(Record) bool) {
		for rec := range IndexLines(l.index) {
			rec.ModTime = l.IndexTime
			if !yield(rec) {
				return
			}
		}
	}
}

// Notes yields the notes in name order, reading each when it is reached.
// Entries of the notes directory that are not notes, such as the temp
// files an interrupted write leaves, are not yielded. An error reading a
// note is yielded with its name and ends the walk.
func (l *Listing) Notes() iter.Seq2[Record, error] {
	return func(yield func(Record, error) bool) {
		for _, e := range l.notes {
			ref, ok := NoteRef(e.Name())
			if !ok {
				continue
			}
			rec := Record{Kind: storage.KindArchive, ID: ref, Name: filepath.Join(NotesDir, e.Name())}
			name := filepath.Join(l.dir, rec.Name)
			var err error
			if rec.Stored, err = l.fsys.ReadFile(name); err == nil {
				rec.ModTime, err = modTime(l.fsys, name)
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// IndexLines yields the lines of data, the stored bytes of an index file,
// as index records (see [Listing.IndexLines]), without ModTime. A copy
// reads its written index back with it.
func IndexLines(data []byte) iter.Seq[Record] {
	return func(yield func(Record) bool) {
		for n := 0; len(data) > 0; n++ {
			rec := Record{Kind: storage.KindArchiveIndex, ID: strconv.Itoa(n), Name: IndexFile}
			i := bytes.IndexByte(data, '\n')
			if i < 0 {
				rec.Stored, rec.Torn, data = data, true, nil
			} else {
				rec.Stored, data = data[:i], data[i+1:]
			}
			if !yield(rec) {
				return
			}
		}
	}
}

// AppendIndexLine appends stored, one index record as stored, to b, the
// stored bytes of an index file being written.
func AppendIndexLine(b, stored []byte) []byte {
	return append(append(b, stored...), '\n')
}

// ValidIndexLine reports whether plain, the plaintext of one index line,
// is an index entry a reader accepts: a JSON object with a "ref" of 64
// lowercase hex digits and a string "preview".
func ValidIndexLine(plain []byte) bool {
	_, ok := parseIndexLine(plain)
	return ok
}

// NoteMatches reports whether plain, the plaintext of the note of ref, is
// the content ref names.
func NoteMatches(ref string, plain []byte) bool {
	sum := sha256.Sum256(plain)
	return hex.EncodeToString(sum[:]) == ref
}
