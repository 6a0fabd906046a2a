package archive

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// MemoryArchive is an [Archive] held in memory, for tests and for agents
// that keep no state between runs. It applies the rules of [FileArchive]
// (refs, previews, idempotent puts, the wrapper, paging, the read budget of
// [DefaultMaxReadBytes] per generation) and encodes nothing. It is safe for
// concurrent use by multiple goroutines; the zero value is not ready, use
// [NewMemoryArchive].
type MemoryArchive struct {
	pages *pager

	mu      sync.Mutex        // guards entries and notes
	entries []indexEntry      // in put order
	notes   map[string]string // ref -> content
}

var _ Archive = (*MemoryArchive)(nil)

// NewMemoryArchive returns an empty MemoryArchive.
func NewMemoryArchive() *MemoryArchive {
	return &MemoryArchive{pages: newPager(DefaultMaxReadBytes), notes: make(map[string]string)}
}

// Put stores content and returns its ref and preview, as [FileArchive.Put]
// does: content already in the archive adds nothing and keeps its first
// metadata.
func (a *MemoryArchive) Put(ctx context.Context, content string, metadata map[string]any) (Entry, error) {
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
	// Keep the entry as the file archive reads it back from its index.
	ie, ok := parseIndexLine(line)
	if !ok {
		return Entry{}, fmt.Errorf("archive: put %s: index line does not read back", ref)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.notes[ref]; !ok {
		a.notes[ref] = content
		a.entries = append(a.entries, ie)
	}
	return e, nil
}

// Search returns the entries matching q, as [FileArchive.Search] does.
func (a *MemoryArchive) Search(ctx context.Context, q Query) (string, error) {
	if err := checkQuery(q); err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pages.search(q, func() ([]indexEntry, error) { return a.entries, nil },
		func(ref string) (string, error) { return a.notes[ref], nil })
}

// Read returns one page of the content of req.Ref, as [FileArchive.Read]
// does.
func (a *MemoryArchive) Read(ctx context.Context, req ReadRequest) (string, error) {
	if err := checkReadRequest(req); err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pages.read(req, func() (string, bool, error) {
		c, ok := a.notes[req.Ref]
		return c, ok, nil
	})
}
