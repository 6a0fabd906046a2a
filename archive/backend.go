package archive

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lite-agent/lite-agent-go/storage"
)

// A Backend keeps an archive's records for a store other than the file one,
// such as a database. [NewArchive] builds an [Archive] on it with the rules
// of [FileArchive] (refs, previews, idempotent puts, integrity checks, the
// wrapper, paging and read budgets), so a backend only stores bytes.
//
// Records reach the backend encoded, with the same storage.Context as the
// file archive binds: notes as kind archive with the ref as record id,
// index records as kind archive-index with their position (0, 1, …) as
// record id, both in the scope of the archive's session id.
type Backend interface {
	// Locked calls fn with the archive locked against every other user of
	// it, in this process or any other, and returns fn's error. If fn
	// fails, nothing it put is kept.
	Locked(ctx context.Context, fn func(tx BackendTx) error) error
	// Locator names a record in errors, in place of a file path: the
	// note of ref for kind storage.KindArchive, the index for
	// storage.KindArchiveIndex.
	Locator(kind storage.Kind, record string) string
}

// A BackendTx reads and writes an archive while its lock is held.
type BackendTx interface {
	// Index returns the stored index records in the order they were put.
	// An empty record reads as a corrupt index.
	Index(ctx context.Context) ([][]byte, error)
	// Note returns the stored note of ref, or false if there is none.
	Note(ctx context.Context, ref string) ([]byte, bool, error)
	// Put stores, all or nothing, the note of ref unless note is nil and
	// the index record at position pos unless index is nil.
	Put(ctx context.Context, ref string, note []byte, pos int, index []byte) error
}

// NewArchive returns an [Archive] over b. opts.Encoding encodes every
// record and opts.SessionID is their codec scope, as for [NewFileArchive];
// read budgets belong to the returned value. It fails with a
// *storage.Error for an invalid namespace or codec, and with
// ErrMaxReadBytes for a MaxReadBytes below MinReadBytes.
func NewArchive(b Backend, opts Options) (Archive, error) {
	maxRead, err := readBudget(opts.MaxReadBytes)
	if err != nil {
		return nil, err
	}
	enc, err := opts.Encoding.Frozen()
	if err != nil {
		return nil, err
	}
	scope := opts.SessionID
	if scope == "" {
		scope = StandaloneScope
	}
	return &backed{b: b, cs: codecScope{enc: enc, scope: scope}, pages: newPager(maxRead)}, nil
}

// backed is the Archive NewArchive returns: Put's rules here, Search and
// Read by the pager every archive of this package shares.
type backed struct {
	b     Backend
	cs    codecScope
	pages *pager
}

func (a *backed) index(ctx context.Context, tx BackendTx) ([]indexEntry, error) {
	recs, err := tx.Index(ctx)
	if err != nil {
		return nil, err
	}
	return decodeIndexRecords(ctx, a.cs, a.b.Locator(storage.KindArchiveIndex, ""), recs)
}

func (a *backed) note(ctx context.Context, tx BackendTx, ref string) (string, bool, error) {
	data, ok, err := tx.Note(ctx, ref)
	if err != nil || !ok {
		return "", false, err
	}
	plain, err := a.cs.enc.Decode(ctx, storage.KindArchive, a.cs.scope, ref, data)
	if err != nil {
		return "", false, atFile(err, a.b.Locator(storage.KindArchive, ref), ref)
	}
	return string(plain), true, nil
}

// Put stores content as [FileArchive.Put] does: content already in the
// archive adds nothing (after its stored copy is decoded and compared), and
// every record is encoded before anything is written.
func (a *backed) Put(ctx context.Context, content string, metadata map[string]any) (Entry, error) {
	if err := ctx.Err(); err != nil {
		return Entry{}, err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	ref := refOf(content)
	e := Entry{Ref: ref, Preview: previewOf(content)}
	line, err := marshalIndexLine(e.Ref, e.Preview, metadata)
	if err != nil {
		return Entry{}, fmt.Errorf("archive: put %s: metadata: %w", ref, err)
	}
	err = a.b.Locked(ctx, func(tx BackendTx) error {
		entries, err := a.index(ctx, tx)
		if err != nil {
			return err
		}
		indexed := false
		for _, ie := range entries {
			if ie.ref == ref {
				indexed = true
				break
			}
		}
		stored, found, err := a.note(ctx, tx, ref)
		if err != nil {
			return err
		}
		if found && stored != content {
			return integrityError(a.b.Locator(storage.KindArchive, ref), ref)
		}
		var encNote, encLine []byte
		if !found {
			if encNote, err = a.cs.enc.Encode(ctx, storage.KindArchive, a.cs.scope, ref, []byte(content)); err != nil {
				return atFile(err, a.b.Locator(storage.KindArchive, ref), ref)
			}
		}
		if !indexed {
			record := strconv.Itoa(len(entries))
			if encLine, err = a.cs.enc.Encode(ctx, storage.KindArchiveIndex, a.cs.scope, record, line); err != nil {
				return atFile(err, a.b.Locator(storage.KindArchiveIndex, record), record)
			}
		}
		if encNote == nil && encLine == nil {
			return nil
		}
		return tx.Put(ctx, ref, encNote, len(entries), encLine)
	})
	if err != nil {
		return Entry{}, err
	}
	return e, nil
}

// Search returns matching entries as [FileArchive.Search] does.
func (a *backed) Search(ctx context.Context, q Query) (string, error) {
	if err := checkQuery(q); err != nil {
		return "", err
	}
	var out string
	err := a.b.Locked(ctx, func(tx BackendTx) error {
		var err error
		out, err = a.pages.search(q, func() ([]indexEntry, error) { return a.index(ctx, tx) },
			func(ref string) (string, error) {
				content, _, err := a.note(ctx, tx, ref)
				return content, err
			})
		return err
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// Read returns one page as [FileArchive.Read] does.
func (a *backed) Read(ctx context.Context, req ReadRequest) (string, error) {
	if err := checkReadRequest(req); err != nil {
		return "", err
	}
	var out string
	err := a.b.Locked(ctx, func(tx BackendTx) error {
		var err error
		out, err = a.pages.read(req, func() (string, bool, error) { return a.lookup(ctx, tx, req.Ref) })
		return err
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// lookup returns the verified content of ref if this archive holds it.
func (a *backed) lookup(ctx context.Context, tx BackendTx, ref string) (string, bool, error) {
	if !validRef(ref) {
		return "", false, nil
	}
	entries, err := a.index(ctx, tx)
	if err != nil {
		return "", false, err
	}
	indexed := false
	for _, e := range entries {
		if e.ref == ref {
			indexed = true
			break
		}
	}
	if !indexed {
		return "", false, nil
	}
	content, found, err := a.note(ctx, tx, ref)
	if err != nil || !found {
		return "", false, err
	}
	if refOf(content) != ref || !utf8.ValidString(content) {
		return "", false, integrityError(a.b.Locator(storage.KindArchive, ref), ref)
	}
	return content, true, nil
}
