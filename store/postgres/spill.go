package postgres

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A Spill is the [spill.Store] of a project: one row per body, keyed by
// (namespace, project, ref), holding the body encoded with the project's
// storage.Encoding under the same storage.Context as a spill file (kind
// spill, scope spill.Scope, record id the ref).
type Spill struct {
	p *Project
}

var _ spill.Store = (*Spill)(nil)

// Spill returns the project's spill store.
func (p *Project) Spill() *Spill { return &Spill{p: p} }

const spillMismatch = "Spilled content does not match its ref"

// Put stores content and returns its ref, as spill.FileStore.Put does: a
// body already stored under the ref is kept and its age starts again (its
// created time is now); a row that does not decode is an error and is left
// as it is; a row holding a different body with the same ref is a
// *storage.Error wrapping spill.ErrRefCollision and is left as it is. A
// row is only ever inserted where there was none, or replaced where it
// still holds the damaged bytes Put read, so that two Puts of colliding
// bodies cannot replace each other's.
func (s *Spill) Put(ctx context.Context, content string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	ref := spill.Ref(content)
	p := s.p
	loc := p.locator("spill", spill.Scope)
	// Each pass that does not return met a row written by another Put
	// since its look, which is progress: the next look sees that row.
	for range maxSpillPuts {
		data, got, found, err := s.read(ctx, ref)
		var se *storage.Error
		damaged := err != nil
		switch {
		case damaged && !(errors.As(err, &se) && se.Message == spillMismatch):
			return "", err
		case err == nil && found && got != content:
			return "", spill.CollisionError(loc, ref)
		case err == nil && found:
			// Reused: its age starts again, as spill.FileStore.Put
			// refreshes a reused body's modification time, so that
			// neither the sweep nor a failed import's clean-up (which
			// deletes only rows still as it inserted them) removes a
			// body whose ref was just handed out. A row deleted since
			// the read is written again below.
			n, err := p.s.db().exec(ctx, p.s.q.sql(`UPDATE {spill} SET created = now() WHERE namespace = $1 AND project = $2 AND ref = $3`),
				p.ns, p.project, ref)
			if err != nil {
				return "", err
			}
			if n > 0 {
				return ref, nil
			}
		}
		stored, err := p.enc.Encode(ctx, storage.KindSpill, spill.Scope, ref, []byte(content))
		if err != nil {
			return "", atLocator(err, loc, ref)
		}
		var n int64
		if !damaged {
			n, err = p.s.db().exec(ctx, p.s.q.sql(`INSERT INTO {spill} (namespace, project, ref, data, created) VALUES ($1, $2, $3, $4, now())
				ON CONFLICT (namespace, project, ref) DO NOTHING`), p.ns, p.project, ref, stored)
		} else {
			// The row held something else than the body its ref names
			// (damaged or replaced): rewriting it restores the only
			// value the ref can have, if it is still what was read.
			n, err = p.s.db().exec(ctx, p.s.q.sql(`UPDATE {spill} SET data = $4, created = now()
				WHERE namespace = $1 AND project = $2 AND ref = $3 AND data = $5`), p.ns, p.project, ref, stored, data)
		}
		if err != nil {
			return "", err
		}
		if n > 0 {
			return ref, nil
		}
	}
	return "", &storage.Error{Op: "write", Kind: storage.KindSpill, File: loc, Record: ref,
		Message: "Spilled body kept changing while it was stored"}
}

// maxSpillPuts bounds the looks of one Put at a row that other Puts keep
// writing between its look and its write.
const maxSpillPuts = 8

// Get returns the content stored under ref, as spill.FileStore.Get does: a
// malformed or unknown ref is ("", false, nil); a row that does not decode
// or hash to its ref is a *storage.Error.
func (s *Spill) Get(ctx context.Context, ref string) (string, bool, error) {
	_, content, ok, err := s.read(ctx, ref)
	return content, ok, err
}

// read is Get that also returns the row's stored bytes, which it returns
// with the error of a row that does not decode or hash to its ref (nil
// when there is no row).
func (s *Spill) read(ctx context.Context, ref string) (data []byte, content string, ok bool, err error) {
	if err := ctx.Err(); err != nil {
		return nil, "", false, err
	}
	if !spill.ValidRef(ref) {
		return nil, "", false, nil
	}
	p := s.p
	err = p.s.db().scan(ctx, p.s.q.sql(`SELECT data FROM {spill} WHERE namespace = $1 AND project = $2 AND ref = $3`),
		[]any{p.ns, p.project, ref}, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, err
	}
	loc := p.locator("spill", spill.Scope)
	plain, err := p.enc.Decode(ctx, storage.KindSpill, spill.Scope, ref, data)
	if err != nil {
		return data, "", false, atLocator(err, loc, ref)
	}
	if spill.Ref(string(plain)) != ref {
		return data, "", false, &storage.Error{Op: "read", Kind: storage.KindSpill, File: loc, Record: ref, Message: spillMismatch}
	}
	return data, string(plain), true, nil
}
