package postgres

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/storage"
)

// Projects returns the ids of the projects of namespace ns ("" means
// storage.DefaultNamespace) that hold any row, sorted, for tools that walk a
// whole store (migrate, verify).
func (s *Store) Projects(ctx context.Context, ns string) ([]string, error) {
	if !s.open() {
		return nil, ErrNotOpen
	}
	if ns == "" {
		ns = storage.DefaultNamespace
	}
	var out []string
	err := s.db().each(ctx, s.q.sql(`SELECT project FROM {sessions} WHERE namespace = $1
		UNION SELECT project FROM {task_lists} WHERE namespace = $1
		UNION SELECT project FROM {archives} WHERE namespace = $1
		UNION SELECT project FROM {spill} WHERE namespace = $1
		ORDER BY 1`), []any{ns}, func(r pgx.Rows) error {
		var p string
		err := r.Scan(&p)
		out = append(out, p)
		return err
	})
	return out, err
}

// TaskListInfo describes one task list of a project.
type TaskListInfo struct {
	// ID is the list's id.
	ID string
	// Shared reports that the list was marked shared, so that deleting
	// the session of the same id keeps it.
	Shared bool
}

// TaskLists returns the project's task lists, sorted by id.
func (p *Project) TaskLists(ctx context.Context) ([]TaskListInfo, error) {
	var out []TaskListInfo
	err := p.s.db().each(ctx, p.s.q.sql(`SELECT list, shared FROM {task_lists} WHERE namespace = $1 AND project = $2 ORDER BY list`),
		[]any{p.ns, p.project}, func(r pgx.Rows) error {
			var in TaskListInfo
			err := r.Scan(&in.ID, &in.Shared)
			out = append(out, in)
			return err
		})
	return out, err
}

// Archives returns the ids of the sessions of the project that have an
// archive, sorted.
func (p *Project) Archives(ctx context.Context) ([]string, error) {
	var out []string
	err := p.s.db().each(ctx, p.s.q.sql(`SELECT session FROM {archives} WHERE namespace = $1 AND project = $2 ORDER BY session`),
		[]any{p.ns, p.project}, func(r pgx.Rows) error {
			var id string
			err := r.Scan(&id)
			out = append(out, id)
			return err
		})
	return out, err
}

// SpillRefs returns the refs of the project's spilled bodies, sorted.
func (p *Project) SpillRefs(ctx context.Context) ([]string, error) {
	var out []string
	err := p.s.db().each(ctx, p.s.q.sql(`SELECT ref FROM {spill} WHERE namespace = $1 AND project = $2 ORDER BY ref`),
		[]any{p.ns, p.project}, func(r pgx.Rows) error {
			var ref string
			err := r.Scan(&ref)
			out = append(out, ref)
			return err
		})
	return out, err
}

// ArchivedEntry is one decoded entry of an archive, as
// [Project.ArchiveEntries] returns it for copying to another store: putting
// Content with Metadata into an empty archive recreates the entry.
type ArchivedEntry struct {
	// Ref is the entry's ref, Content its decoded content.
	Ref, Content string
	// Metadata is the entry's metadata, nil if it had none.
	Metadata map[string]any
}

// ArchiveEntries returns every entry of the archive of session id in the
// order they were put, decoded and checked against their refs. A record
// that does not decode is a *storage.Error.
func (p *Project) ArchiveEntries(ctx context.Context, id string) ([]ArchivedEntry, error) {
	if err := validID(id); err != nil {
		return nil, err
	}
	b := &archiveBackend{p: p, session: id}
	loc := p.locator("archive", id)
	var out []ArchivedEntry
	err := p.s.tx(ctx, func(tx db) error {
		at := &archiveTx{b: b, tx: tx}
		recs, err := at.Index(ctx)
		if err != nil {
			return err
		}
		for n, rec := range recs {
			pos := strconv.Itoa(n)
			plain, err := p.enc.Decode(ctx, storage.KindArchiveIndex, id, pos, rec)
			if err != nil {
				return atLocator(err, loc, pos)
			}
			var line struct {
				Ref      string         `json:"ref"`
				Metadata map[string]any `json:"metadata"`
			}
			if err := json.Unmarshal(plain, &line); err != nil {
				return &storage.Error{Op: "read", Kind: storage.KindArchiveIndex, File: loc, Record: pos, Message: "Corrupt archive index"}
			}
			note, ok, err := at.Note(ctx, line.Ref)
			if err != nil {
				return err
			}
			if !ok {
				return &storage.Error{Op: "read", Kind: storage.KindArchive, File: loc, Record: line.Ref, Message: "Archive note missing"}
			}
			content, err := p.enc.Decode(ctx, storage.KindArchive, id, line.Ref, note)
			if err != nil {
				return atLocator(err, loc, line.Ref)
			}
			if !archive.NoteMatches(line.Ref, content) {
				return &storage.Error{Op: "read", Kind: storage.KindArchive, File: loc, Record: line.Ref, Message: "Archive integrity mismatch"}
			}
			out = append(out, ArchivedEntry{Ref: line.Ref, Content: string(content), Metadata: line.Metadata})
		}
		return nil
	})
	return out, err
}
