package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Archive returns the context archive of session id, with the rules of
// archive.FileArchive (see [archive.NewArchive]). Its notes are rows of
// archive_notes keyed by ref, its index records rows of archive_index keyed
// by position, all encoded with the project's storage.Encoding in the scope
// of the session, as in a file archive. Every operation locks the
// archive's row in archives. maxReadBytes is archive.Options.MaxReadBytes
// (0 means archive.DefaultMaxReadBytes).
func (p *Project) Archive(sessionID string, maxReadBytes int) (archive.Archive, error) {
	if err := validID(sessionID); err != nil {
		return nil, err
	}
	return archive.NewArchive(&archiveBackend{p: p, session: sessionID}, archive.Options{
		Encoding: p.enc, SessionID: sessionID, MaxReadBytes: maxReadBytes,
	})
}

// archiveBackend stores one session's archive for archive.NewArchive.
type archiveBackend struct {
	p       *Project
	session string
}

func (b *archiveBackend) Locator(storage.Kind, string) string {
	return b.p.locator("archive", b.session)
}

func (b *archiveBackend) Locked(ctx context.Context, fn func(archive.BackendTx) error) error {
	p := b.p
	return p.s.tx(ctx, func(tx db) error {
		// A delete of the session may remove the row between the insert
		// and the lock (the insert found it, the lock does not): insert
		// again until the row is there and locked, as lockSession does.
		for range 10 {
			if _, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {archives} (namespace, project, session, entries, bytes, modified)
				VALUES ($1, $2, $3, 0, 0, now()) ON CONFLICT DO NOTHING`), p.ns, p.project, b.session); err != nil {
				return err
			}
			var n int
			err := tx.scan(ctx, p.s.q.sql(`SELECT entries FROM {archives} WHERE namespace = $1 AND project = $2 AND session = $3 FOR UPDATE`),
				[]any{p.ns, p.project, b.session}, &n)
			if errors.Is(err, pgx.ErrNoRows) {
				continue
			}
			if err != nil {
				return err
			}
			return fn(&archiveTx{b: b, tx: tx})
		}
		return &DatabaseError{target: p.s.target, Err: errors.New("archive row deleted repeatedly during a write")}
	})
}

type archiveTx struct {
	b  *archiveBackend
	tx db
}

func (t *archiveTx) Index(ctx context.Context) ([][]byte, error) {
	p := t.b.p
	var out [][]byte
	err := t.tx.each(ctx, p.s.q.sql(`SELECT data FROM {archive_index} WHERE namespace = $1 AND project = $2 AND session = $3 ORDER BY pos`),
		[]any{p.ns, p.project, t.b.session}, func(r pgx.Rows) error {
			var data []byte
			if err := r.Scan(&data); err != nil {
				return err
			}
			out = append(out, data)
			return nil
		})
	return out, err
}

func (t *archiveTx) Note(ctx context.Context, ref string) ([]byte, bool, error) {
	p := t.b.p
	var data []byte
	err := t.tx.scan(ctx, p.s.q.sql(`SELECT data FROM {archive_notes} WHERE namespace = $1 AND project = $2 AND session = $3 AND ref = $4`),
		[]any{p.ns, p.project, t.b.session, ref}, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	return data, err == nil, err
}

func (t *archiveTx) Put(ctx context.Context, ref string, note []byte, pos int, index []byte) error {
	p := t.b.p
	q := p.s.q
	var added int64
	if note != nil {
		if _, err := t.tx.exec(ctx, q.sql(`INSERT INTO {archive_notes} (namespace, project, session, ref, data) VALUES ($1, $2, $3, $4, $5)`),
			p.ns, p.project, t.b.session, ref, note); err != nil {
			return err
		}
		added += int64(len(note))
	}
	entries := 0
	if index != nil {
		if _, err := t.tx.exec(ctx, q.sql(`INSERT INTO {archive_index} (namespace, project, session, pos, ref, data) VALUES ($1, $2, $3, $4, $5, $6)`),
			p.ns, p.project, t.b.session, pos, ref, index); err != nil {
			return err
		}
		added += int64(len(index))
		entries = 1
	}
	_, err := t.tx.exec(ctx, q.sql(`UPDATE {archives} SET entries = entries + $4, bytes = bytes + $5, modified = now()
		WHERE namespace = $1 AND project = $2 AND session = $3`), p.ns, p.project, t.b.session, entries, added)
	return err
}
