package archive

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A Note is one entry of an archive with its whole content, as
// [Lister.Notes] gives it back.
type Note struct {
	// Ref is the entry's ref: the SHA-256 of Content.
	Ref string
	// Content is the decoded, verified content.
	Content string
	// Metadata is the compact JSON of the metadata Put was given, or nil
	// when it was given none.
	Metadata json.RawMessage
}

// A Lister is an [Archive] that can give back every entry it holds, as a
// copy of the archive into another one needs. Every archive of this
// package is a Lister.
type Lister interface {
	Archive
	// Notes returns every entry in the order it was put, each decoded
	// with the archive's own codec context and checked against its ref.
	// It charges no read budget. An entry whose note is missing or does
	// not match its ref is a *storage.Error, as for Read.
	Notes(ctx context.Context) ([]Note, error)
}

var (
	_ Lister = (*FileArchive)(nil)
	_ Lister = (*MemoryArchive)(nil)
	_ Lister = (*backed)(nil)
)

// Copy puts every entry of src into dst, in src's order and with its
// metadata, and returns how many it put. Each content is decoded with
// src's codec context and encoded again by dst's Put, so that an archive
// whose records are bound to one session's id is copied into another
// session's archive under that session's id; refs, being content
// addresses, stay the same. Entries dst already holds add nothing. Copy
// stops at the first error, leaving dst with the entries put before it.
func Copy(ctx context.Context, dst Archive, src Lister) (int, error) {
	notes, err := src.Notes(ctx)
	if err != nil {
		return 0, err
	}
	for i, n := range notes {
		var meta map[string]any
		if n.Metadata != nil {
			dec := json.NewDecoder(bytes.NewReader(n.Metadata))
			dec.UseNumber() // numbers are written back as they were
			if err := dec.Decode(&meta); err != nil || meta == nil {
				return i, fmt.Errorf("archive: copy %s: metadata is not a JSON object", n.Ref)
			}
		}
		e, err := dst.Put(ctx, n.Content, meta)
		if err != nil {
			return i, err
		}
		if e.Ref != n.Ref {
			return i, fmt.Errorf("archive: copy %s: the copy's ref is %s", n.Ref, e.Ref)
		}
	}
	return len(notes), nil
}

// Notes returns every entry of the archive with its content; see [Lister].
func (a *FileArchive) Notes(ctx context.Context) ([]Note, error) {
	var out []Note
	err := a.locked(ctx, func(*filelock.Lock) error {
		entries, err := a.loadIndex(ctx)
		if err != nil {
			return err
		}
		out, err = notesOf(entries, func(ref string) (string, bool, error) { return a.loadNote(ctx, ref) },
			func(ref string) string { _, abs := a.notePath(ref); return abs })
		return err
	})
	return out, err
}

// Notes returns every entry of the archive with its content; see [Lister].
func (a *backed) Notes(ctx context.Context) ([]Note, error) {
	var out []Note
	err := a.b.Locked(ctx, func(tx BackendTx) error {
		entries, err := a.index(ctx, tx)
		if err != nil {
			return err
		}
		out, err = notesOf(entries, func(ref string) (string, bool, error) { return a.note(ctx, tx, ref) },
			func(ref string) string { return a.b.Locator(storage.KindArchive, ref) })
		return err
	})
	return out, err
}

// Notes returns every entry of the archive with its content; see [Lister].
func (a *MemoryArchive) Notes(ctx context.Context) ([]Note, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return notesOf(a.entries, func(ref string) (string, bool, error) {
		c, ok := a.notes[ref]
		return c, ok, nil
	}, func(ref string) string { return ref })
}

// notesOf pairs each entry with its note, loaded by load and named by
// locate in errors; one missing or not matching its ref is an error.
func notesOf(entries []indexEntry, load func(ref string) (string, bool, error), locate func(ref string) string) ([]Note, error) {
	out := make([]Note, 0, len(entries))
	for _, e := range entries {
		content, found, err := load(e.ref)
		if err != nil {
			return nil, err
		}
		if !found {
			return nil, &storage.Error{Op: "read", Kind: storage.KindArchive, File: locate(e.ref), Record: e.ref, Message: "Archive note missing"}
		}
		if refOf(content) != e.ref {
			return nil, integrityError(locate(e.ref), e.ref)
		}
		out = append(out, Note{Ref: e.ref, Content: content, Metadata: bytes.Clone(e.metadata)})
	}
	return out, nil
}
