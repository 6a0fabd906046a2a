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
// as it is.
func (s *Spill) Put(ctx context.Context, content string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	content = strings.ToValidUTF8(content, "\uFFFD")
	ref := spill.Ref(content)
	got, ok, err := s.Get(ctx, ref)
	var se *storage.Error
	switch {
	case err != nil && !(errors.As(err, &se) && se.Message == spillMismatch):
		return "", err
	case err == nil && ok && got == content:
		// Reused: its age starts again, as spill.FileStore.Put refreshes a
		// reused body's modification time, so that neither the sweep nor a
		// failed import's clean-up (which deletes only rows still as it
		// inserted them) removes a body whose ref was just handed out. A
		// row deleted since the Get is written again below.
		n, err := s.p.s.db().exec(ctx, s.p.s.q.sql(`UPDATE {spill} SET created = now() WHERE namespace = $1 AND project = $2 AND ref = $3`),
			s.p.ns, s.p.project, ref)
		if err != nil {
			return "", err
		}
		if n > 0 {
			return ref, nil
		}
	}
	p := s.p
	stored, err := p.enc.Encode(ctx, storage.KindSpill, spill.Scope, ref, []byte(content))
	if err != nil {
		return "", atLocator(err, p.locator("spill", spill.Scope), ref)
	}
	_, err = p.s.db().exec(ctx, p.s.q.sql(`INSERT INTO {spill} (namespace, project, ref, data, created) VALUES ($1, $2, $3, $4, now())
		ON CONFLICT (namespace, project, ref) DO UPDATE SET data = excluded.data`), p.ns, p.project, ref, stored)
	if err != nil {
		return "", err
	}
	return ref, nil
}

// Get returns the content stored under ref, as spill.FileStore.Get does: a
// malformed or unknown ref is ("", false, nil); a row that does not decode
// or hash to its ref is a *storage.Error.
func (s *Spill) Get(ctx context.Context, ref string) (string, bool, error) {
	if err := ctx.Err(); err != nil {
		return "", false, err
	}
	if !spill.ValidRef(ref) {
		return "", false, nil
	}
	p := s.p
	var data []byte
	err := p.s.db().scan(ctx, p.s.q.sql(`SELECT data FROM {spill} WHERE namespace = $1 AND project = $2 AND ref = $3`),
		[]any{p.ns, p.project, ref}, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	loc := p.locator("spill", spill.Scope)
	plain, err := p.enc.Decode(ctx, storage.KindSpill, spill.Scope, ref, data)
	if err != nil {
		return "", false, atLocator(err, loc, ref)
	}
	if spill.Ref(string(plain)) != ref {
		return "", false, &storage.Error{Op: "read", Kind: storage.KindSpill, File: loc, Record: ref, Message: spillMismatch}
	}
	return string(plain), true, nil
}
