package archive

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
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
	maxRead := opts.MaxReadBytes
	if maxRead == 0 {
		maxRead = DefaultMaxReadBytes
	}
	if maxRead < MinReadBytes {
		return nil, fmt.Errorf("archive: MaxReadBytes %d: %w", opts.MaxReadBytes, ErrMaxReadBytes)
	}
	enc, err := opts.Encoding.Frozen()
	if err != nil {
		return nil, err
	}
	scope := opts.SessionID
	if scope == "" {
		scope = StandaloneScope
	}
	return newBacked(b, codecScope{enc: enc, scope: scope}, maxRead), nil
}

func newBacked(b Backend, cs codecScope, maxRead int) *backed {
	return &backed{b: b, cs: cs, maxRead: maxRead, generations: map[int64]*genBudget{}}
}

// backed is the Archive NewArchive returns, and the core of a FileArchive.
type backed struct {
	b       Backend
	cs      codecScope
	maxRead int

	mu          sync.Mutex           // guards generations
	generations map[int64]*genBudget // read budget and repeats per generation
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

// Put stores content as [FileArchive.Put] does.
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
	if q.Limit < 0 {
		return "", fmt.Errorf("archive: search limit %d: %w", q.Limit, ErrSearchLimit)
	}
	limit := q.Limit
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	var out string
	err := a.b.Locked(ctx, func(tx BackendTx) error {
		if a.remaining(q.Generation) < MinReadBytes {
			out = exhausted(q.Generation)
			return nil
		}
		entries, err := a.index(ctx, tx)
		if err != nil {
			return err
		}
		needle := strings.ToLower(q.Text)
		var body []byte
		matches := 0
		for _, e := range entries {
			if matches >= limit {
				break
			}
			content, _, err := a.note(ctx, tx, e.ref)
			if err != nil {
				return err
			}
			meta := "undefined"
			if e.metadata != nil {
				meta = string(e.metadata)
			}
			hay := e.ref + "\n" + e.preview + "\n" + meta + "\n" + content
			if !strings.Contains(strings.ToLower(hay), needle) {
				continue
			}
			if matches > 0 {
				body = append(body, '\n')
			}
			body = appendEntryJSON(body, e)
			matches++
		}
		out, err = a.charge(q.Generation, openSearch(q.Text), string(body))
		return err
	})
	if err != nil {
		return "", err
	}
	return out, nil
}

// Read returns one page as [FileArchive.Read] does.
func (a *backed) Read(ctx context.Context, req ReadRequest) (string, error) {
	if req.Offset < 0 || req.Limit < 0 || req.Offset > maxSafeInteger || req.Limit > maxSafeInteger {
		return "", fmt.Errorf("archive: read offset %d limit %d: %w", req.Offset, req.Limit, ErrPageRange)
	}
	limit := req.Limit
	if limit == 0 {
		limit = a.maxRead
	}
	var out string
	err := a.b.Locked(ctx, func(tx BackendTx) error {
		remaining := a.remaining(req.Generation)
		if remaining < MinReadBytes {
			out = exhausted(req.Generation)
			return nil
		}
		open := openRead(req.Ref, req.Generation)
		content, found, err := a.lookup(ctx, tx, req.Ref)
		if err != nil {
			return err
		}
		if !found {
			out, err = a.charge(req.Generation, open, noContentBody)
			return err
		}
		from, splits, ok := byteOffset(content, req.Offset)
		if !ok {
			return fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrOffsetBeyondEnd)
		}
		if splits {
			return fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrOffsetSplitsCharacter)
		}
		total := unitLen(content)
		capUnits := min(limit, total-req.Offset)
		key := pageKey{req.Ref, req.Offset}
		if a.seen(req.Generation, key) {
			capUnits = min(capUnits, repeatCapUnits)
		}
		bodyBudget := remaining - len(open) - len("\n"+warningLine+"\n") - pageSlackBytes
		end, units := page(content, from, capUnits, max(bodyBudget, 0))
		if units == 0 && req.Offset < total {
			return fmt.Errorf("archive: read %s offset %d: %w", req.Ref, req.Offset, ErrPageBudget)
		}
		next := req.Offset + units
		var body strings.Builder
		body.WriteString("offset=" + strconv.Itoa(req.Offset) + "; nextOffset=")
		if next >= total {
			body.WriteString("end")
		} else {
			body.WriteString(strconv.Itoa(next))
		}
		body.WriteString("; totalChars=" + strconv.Itoa(total) + "\n")
		body.WriteString(content[from:end])
		if next < total {
			body.WriteString(continueMark)
		}
		out, err = a.charge(req.Generation, open, body.String())
		if err == nil {
			a.markSeen(req.Generation, key)
		}
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

// The read budgets of a backed archive work as those of a FileArchive.

func (a *backed) budget(g int64) *genBudget {
	b, ok := a.generations[g]
	if !ok {
		if len(a.generations) >= maxGenerations {
			clear(a.generations)
		}
		b = &genBudget{remaining: a.maxRead, seen: make(map[pageKey]bool)}
		a.generations[g] = b
	}
	return b
}

func (a *backed) remaining(g int64) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.budget(g).remaining
}

func (a *backed) seen(g int64, k pageKey) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.budget(g).seen[k]
}

func (a *backed) markSeen(g int64, k pageKey) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.budget(g).seen[k] = true
}

func (a *backed) charge(g int64, open, body string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b := a.budget(g)
	out, err := wrap(open, body, b.remaining)
	if err != nil {
		return "", err
	}
	b.remaining -= len(out)
	return out, nil
}
