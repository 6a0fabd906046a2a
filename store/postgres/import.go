package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/spill"

	"github.com/lite-agent/lite-agent-go/storage"
)

// The methods in this file copy records that are already encoded, as a
// file store of the same namespace, project and codec keeps them, into an
// empty project: a record's storage.Context names no path, so its encoded
// bytes are the same in a file and in a row. lite-agent migrate
// --to-store uses them and then reads every record back through both
// stores.

// Empty reports whether the project holds no session, archive, task list
// or spilled body.
func (p *Project) Empty(ctx context.Context) (bool, error) {
	var n int64
	err := p.s.db().scan(ctx, p.s.q.sql(`SELECT
		(SELECT count(*) FROM {sessions} WHERE namespace = $1 AND project = $2) +
		(SELECT count(*) FROM {archives} WHERE namespace = $1 AND project = $2) +
		(SELECT count(*) FROM {task_lists} WHERE namespace = $1 AND project = $2) +
		(SELECT count(*) FROM {tasks} WHERE namespace = $1 AND project = $2) +
		(SELECT count(*) FROM {spill} WHERE namespace = $1 AND project = $2)`), []any{p.ns, p.project}, &n)
	return n == 0, err
}

// Clear deletes every row of the project: its sessions, archives, task
// lists, spilled bodies, and the marks of imports and forks. A migration
// that failed part-way uses it to leave the destination as empty as it
// found it. The sessions' lease rows go too, live ones included (their
// holders' writes fail, as after a takeover), once the project's
// high-water mark is raised to their tokens, so that the next acquisition
// of a session starts above every token a holder from before the Clear
// could still carry (see leaseTokensRow). It waits for the project's
// writes under way, and writes that come meanwhile wait for it: a session
// written while it runs is deleted whole or kept whole.
func (p *Project) Clear(ctx context.Context) error {
	return p.s.tx(ctx, func(tx db) error {
		// The rows every writer locks, in the order they lock them (see
		// leaseTokensRow), each table in key order: the project's high-water
		// row, the sessions' lease rows (not the marks, which a fork's
		// sweep locks after the session's row), the sessions', the
		// archives' and the task lists'. A write in flight is waited for;
		// one that comes after waits for the Clear.
		if err := p.lockTokens(ctx, tx); err != nil {
			return err
		}
		for _, l := range []struct{ table, key, and string }{
			{"leases", "session", ` AND session NOT LIKE '.%'`},
			{"sessions", "session", ""},
			{"archives", "session", ""},
			{"task_lists", "list", ""},
		} {
			if _, err := tx.exec(ctx, p.s.q.sql(`SELECT 1 FROM {`+l.table+`} WHERE namespace = $1 AND project = $2`+l.and+`
				ORDER BY `+l.key+` FOR UPDATE`), p.ns, p.project); err != nil {
				return err
			}
		}
		// Then one statement, so one snapshot, taken after the locks: a
		// session written meanwhile goes whole or stays whole (with a
		// statement per table, an append committing between the records'
		// delete and the row's left records without a row). Marks of
		// imports and forks have token 0.
		var del string
		for _, table := range []string{"events", "sessions", "archive_index", "archive_notes", "archives", "tasks", "task_lists", "spill"} {
			del += "del_" + table + ` AS (DELETE FROM {` + table + `} WHERE namespace = $1 AND project = $2), `
		}
		_, err := tx.exec(ctx, p.s.q.sql(`WITH `+del+`d AS (
				DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session <> $3 RETURNING token
			)
			UPDATE {leases} SET token = greatest(token, (SELECT max(token) FROM d))
			WHERE namespace = $1 AND project = $2 AND session = $3 AND EXISTS (SELECT 1 FROM d)`), p.ns, p.project, leaseTokensRow)
		return err
	})
}

// imported is what one ImportFiles inserted: each Import* call that
// succeeded created its rows, as they refuse to add to existing ones.
type imported struct {
	sessions, archives, lists []string
	spill                     []importedBody
	// firsts holds the first record, as stored, of each session copied
	// that had one: what tells the log copied from a new one of the same
	// id (see sessionsKept).
	firsts map[string][]byte
}

// importedBody is a spilled body ImportFiles inserted: its ref and the
// creation time it gave the row. A Put that reuses the body since has
// moved that time on, and the row is no longer the import's alone.
type importedBody struct {
	ref     string
	created time.Time
}

// removeImported deletes, in one transaction, the rows of what imp names:
// a failed ImportFiles's own copy, and nothing an agent of the project
// wrote beside it. Unless keepMarker is set, the import's marker goes too.
func (p *Project) removeImported(ctx context.Context, imp imported, keepMarker bool) error {
	return p.s.tx(ctx, func(tx db) error {
		// The project's high-water row first, as Clear takes it (see
		// leaseTokensRow): the removal deletes the import's marker and the
		// sessions' records before their rows, Clear locks the rows before
		// deleting the records and the marker, and in the other order each
		// waited for the other (40P01). The two are serialized instead.
		if err := p.lockTokens(ctx, tx); err != nil {
			return err
		}
		if !keepMarker {
			if err := p.clearImportMarker(ctx, tx); err != nil {
				return err
			}
		}
		for _, d := range []struct {
			table, key string
			ids        []string
		}{
			{"events", "session", imp.sessions},
			{"sessions", "session", imp.sessions},
			{"archive_index", "session", imp.archives},
			{"archive_notes", "session", imp.archives},
			{"archives", "session", imp.archives},
			{"tasks", "list", imp.lists},
			{"task_lists", "list", imp.lists},
		} {
			if len(d.ids) == 0 {
				continue
			}
			if _, err := tx.exec(ctx, p.s.q.sql(`DELETE FROM {`+d.table+`} WHERE namespace = $1 AND project = $2 AND `+d.key+` = ANY($3)`), p.ns, p.project, d.ids); err != nil {
				return err
			}
		}
		if len(imp.lists) > 0 {
			// The marks of forks' leftover lists the copy wrote.
			if _, err := tx.exec(ctx, p.s.q.sql(`DELETE FROM {leases} WHERE namespace = $1 AND project = $2
				AND session IN (SELECT $3 || l FROM unnest($4::text[]) AS l)`), p.ns, p.project, forkMarkerPrefix, imp.lists); err != nil {
				return err
			}
		}
		if len(imp.spill) == 0 {
			return nil
		}
		refs := make([]string, len(imp.spill))
		created := make([]time.Time, len(imp.spill))
		for i, b := range imp.spill {
			refs[i], created[i] = b.ref, b.created
		}
		_, err := tx.exec(ctx, p.s.q.sql(`DELETE FROM {spill} WHERE namespace = $1 AND project = $2
			AND (ref, created) IN (SELECT * FROM unnest($3::text[], $4::timestamptz[]))`), p.ns, p.project, refs, created)
		return err
	})
}

// ImportSession stores records, the encoded records of session id in seq
// order (records[i] is seq i+1), as its log, last modified at modified. The
// session must have no log: one that has is a *storage.Error (Op "import")
// that matches fs.ErrExist, as a file that exists does, and nothing is
// written (so do ImportArchive, ImportTaskList and ImportSpill, for an
// archive, a task list and a spilled body). It is one transaction; one
// whose connection is lost once its COMMIT went out succeeds if it
// committed, and fails with an *OutcomeUnknownError if the database cannot
// tell (so do the other three).
func (p *Project) ImportSession(ctx context.Context, id string, records [][]byte, modified time.Time) error {
	if err := validID(id); err != nil {
		return err
	}
	seqs := make([]int64, len(records))
	var total int64
	for i, r := range records {
		seqs[i] = int64(i + 1)
		total += int64(len(r))
	}
	unknown := func(err, check error) error {
		return &OutcomeUnknownError{Op: "session import", SessionID: id, Err: err, Check: check}
	}
	return p.s.txLanded(ctx, func(tx db) error {
		n, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {sessions} (namespace, project, session, head, bytes, modified)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`), p.ns, p.project, id, int64(len(records)), total, modified)
		if err != nil {
			return err
		}
		if n == 0 {
			return (&storage.Error{Op: "import", Kind: storage.KindCheckpoint, File: p.locator("events", id), Message: "The session already exists"}).WithCause(fs.ErrExist)
		}
		_, err = tx.exec(ctx, p.s.q.sql(`INSERT INTO {events} (namespace, project, session, seq, data)
			SELECT $1, $2, $3, s, d FROM unnest($4::bigint[], $5::bytea[]) AS b(s, d)`), p.ns, p.project, id, seqs, records)
		return err
	}, unknown)
}

// ImportArchive stores the context archive of session id: index holds its
// encoded index records in order, notes its encoded notes by ref. Each
// index record must decode to an entry naming a ref. The archive must be
// empty. A lost reply: see ImportSession.
func (p *Project) ImportArchive(ctx context.Context, id string, index [][]byte, notes map[string][]byte) error {
	if err := validID(id); err != nil {
		return err
	}
	refs := make([]string, len(index))
	for i, rec := range index {
		plain, err := p.enc.Decode(ctx, storage.KindArchiveIndex, id, strconv.Itoa(i), rec)
		if err != nil {
			return atLocator(err, p.locator("archive", id), strconv.Itoa(i))
		}
		var e struct {
			Ref string `json:"ref"`
		}
		if json.Unmarshal(plain, &e) != nil || e.Ref == "" {
			return &storage.Error{Op: "import", Kind: storage.KindArchiveIndex, File: p.locator("archive", id), Record: strconv.Itoa(i), Message: "Corrupt archive index"}
		}
		refs[i] = e.Ref
	}
	b := &archiveBackend{p: p, session: id}
	unknown := func(err, check error) error {
		return &OutcomeUnknownError{Op: "archive import", SessionID: id, Err: err, Check: check}
	}
	return p.s.txLanded(ctx, func(tx db) error {
		n, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {archives} (namespace, project, session, entries, bytes, modified)
			VALUES ($1, $2, $3, 0, 0, now()) ON CONFLICT DO NOTHING`), p.ns, p.project, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return (&storage.Error{Op: "import", Kind: storage.KindArchive, File: p.locator("archive", id), Message: "The archive already exists"}).WithCause(fs.ErrExist)
		}
		at := &archiveTx{b: b, tx: tx}
		indexed := map[string]bool{}
		for i, rec := range index {
			indexed[refs[i]] = true
			if err := at.Put(ctx, refs[i], notes[refs[i]], i, rec); err != nil {
				return err
			}
		}
		for ref, note := range notes {
			if !indexed[ref] { // a note an interrupted put left unindexed
				if err := at.Put(ctx, ref, note, 0, nil); err != nil {
					return err
				}
			}
		}
		return nil
	}, unknown)
}

// ImportTaskList stores the task list listID: records holds its encoded
// task records by task id, and shared whether it is marked shared. The
// list must have no task. A lost reply: see ImportSession.
func (p *Project) ImportTaskList(ctx context.Context, listID string, records map[string][]byte, shared bool) error {
	if err := validID(listID); err != nil {
		return err
	}
	unknown := func(err, check error) error {
		return &OutcomeUnknownError{Op: "task list import", ListID: listID, Err: err, Check: check}
	}
	return p.s.txLanded(ctx, func(tx db) error {
		n, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {task_lists} (namespace, project, list, shared, modified)
			VALUES ($1, $2, $3, $4, now()) ON CONFLICT DO NOTHING`), p.ns, p.project, listID, shared)
		if err != nil {
			return err
		}
		if n == 0 {
			return (&storage.Error{Op: "import", Kind: storage.KindTask, File: p.locator("tasks", listID), Message: "The task list already exists"}).WithCause(fs.ErrExist)
		}
		for id, rec := range records {
			if _, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {tasks} (namespace, project, list, id, data) VALUES ($1, $2, $3, $4, $5)`),
				p.ns, p.project, listID, id, rec); err != nil {
				return err
			}
		}
		return nil
	}, unknown)
}

// ImportSpill stores the encoded spilled body of ref, created at created.
// One already stored is a *storage.Error matching fs.ErrExist, and a lost
// reply an *OutcomeUnknownError when the database cannot tell: see
// ImportSession.
func (p *Project) ImportSpill(ctx context.Context, ref string, body []byte, created time.Time) error {
	return p.s.txLanded(ctx, func(tx db) error {
		n, err := tx.exec(ctx, p.s.q.sql(`INSERT INTO {spill} (namespace, project, ref, data, created)
			VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`), p.ns, p.project, ref, body, created)
		if err == nil && n == 0 {
			err = (&storage.Error{Op: "import", Kind: storage.KindSpill, File: p.locator("spill", ref), Message: "The spilled body already exists"}).WithCause(fs.ErrExist)
		}
		return err
	}, func(err, check error) error {
		return &OutcomeUnknownError{Op: "spilled body import " + ref, Err: err, Check: check}
	})
}

// ExportArchive returns the stored records of the context archive of
// session id, as ImportArchive takes them: its encoded index records in
// order and its encoded notes by ref. An unknown archive is empty. A note
// whose ref is not a well-formed ref (archive.ValidRef: never one this
// package wrote) is a *storage.Error naming the row.
func (p *Project) ExportArchive(ctx context.Context, id string) (index [][]byte, notes map[string][]byte, err error) {
	if err := validID(id); err != nil {
		return nil, nil, err
	}
	if index, err = (&archiveTx{b: &archiveBackend{p: p, session: id}, tx: p.s.db()}).Index(ctx); err != nil {
		return nil, nil, err
	}
	notes = map[string][]byte{}
	err = p.s.db().each(ctx, p.s.q.sql(`SELECT ref, data FROM {archive_notes} WHERE namespace = $1 AND project = $2 AND session = $3`),
		[]any{p.ns, p.project, id}, func(r pgx.Rows) error {
			var ref string
			var data []byte
			if err := r.Scan(&ref, &data); err != nil {
				return err
			}
			if !archive.ValidRef(ref) {
				// Not written by this package: a file named after it could
				// be anywhere.
				return &storage.Error{Op: "read", Kind: storage.KindArchive, File: p.locator("archive_notes", id), Record: ref, Message: "Archive note ref is not a ref"}
			}
			notes[ref] = data
			return nil
		})
	return index, notes, err
}

// ExportSession returns the stored records of session id in seq order, as
// ImportSession takes them, and when the log last changed. An unknown
// session has no records.
func (p *Project) ExportSession(ctx context.Context, id string) (records [][]byte, modified time.Time, err error) {
	if err := validID(id); err != nil {
		return nil, time.Time{}, err
	}
	err = p.s.db().scan(ctx, p.s.q.sql(`SELECT modified FROM {sessions} WHERE namespace = $1 AND project = $2 AND session = $3`),
		[]any{p.ns, p.project, id}, &modified)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	err = p.s.db().each(ctx, p.s.q.sql(`SELECT data FROM {events} WHERE namespace = $1 AND project = $2 AND session = $3 ORDER BY seq`),
		[]any{p.ns, p.project, id}, func(r pgx.Rows) error {
			var data []byte
			if err := r.Scan(&data); err != nil {
				return err
			}
			records = append(records, data)
			return nil
		})
	return records, modified, err
}

// ExportTaskList returns the stored records of the task list listID by
// task id, as ImportTaskList takes them, and whether it is marked shared.
func (p *Project) ExportTaskList(ctx context.Context, listID string) (records map[string][]byte, shared bool, err error) {
	if err := validID(listID); err != nil {
		return nil, false, err
	}
	err = p.s.db().scan(ctx, p.s.q.sql(`SELECT shared FROM {task_lists} WHERE namespace = $1 AND project = $2 AND list = $3`),
		[]any{p.ns, p.project, listID}, &shared)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return nil, false, err
	}
	records = map[string][]byte{}
	err = p.s.db().each(ctx, p.s.q.sql(`SELECT id, data FROM {tasks} WHERE namespace = $1 AND project = $2 AND list = $3`),
		[]any{p.ns, p.project, listID}, func(r pgx.Rows) error {
			var id string
			var data []byte
			if err := r.Scan(&id, &data); err != nil {
				return err
			}
			records[id] = data
			return nil
		})
	return records, shared, err
}

// ExportSpill calls fn with each stored spilled body of the project, its
// ref and when it was stored. A row whose ref is not a well-formed ref
// (spill.ValidRef: never one this package wrote) stops it with a
// *storage.Error naming the row.
func (p *Project) ExportSpill(ctx context.Context, fn func(ref string, body []byte, created time.Time) error) error {
	return p.s.db().each(ctx, p.s.q.sql(`SELECT ref, data, created FROM {spill} WHERE namespace = $1 AND project = $2 ORDER BY ref`),
		[]any{p.ns, p.project}, func(r pgx.Rows) error {
			var ref string
			var data []byte
			var created time.Time
			if err := r.Scan(&ref, &data, &created); err != nil {
				return err
			}
			if !spill.ValidRef(ref) {
				// Not written by this package: a file named after it could
				// be anywhere.
				return &storage.Error{Op: "read", Kind: storage.KindSpill, File: p.locator("spill", spill.Scope), Record: ref, Message: "Spilled body ref is not a ref"}
			}
			return fn(ref, data, created)
		})
}

// importMarker is the session column of the row that marks a project
// ImportFiles is copying into: a row of the leases table (which no store
// lists, and whose session column holds only valid ids otherwise), so that
// the schema stays at its version. It never expires; ImportFiles removes
// it once the copy is verified, or removed again.
const importMarker = ".import-incomplete"

// ErrImportIncomplete is matched by the error of [Project.ExportFiles]
// for a project an import did not finish copying into (see
// [Project.ImportIncomplete]).
var ErrImportIncomplete = errors.New("postgres: an import into the project did not finish: it holds part of the copy; run the import again")

// importLockKey is the first advisory lock key of ImportFiles; the second
// is the hash of the schema, namespace and project.
const importLockKey = 0x696d7074 // "impt"

// ImportIncomplete reports whether p holds the partial copy of an import
// ([Project.ImportFiles]) that did not finish: one killed part-way, or one
// running now. Running ImportFiles again from the same files removes the
// partial copy and completes the import.
func (p *Project) ImportIncomplete(ctx context.Context) (bool, error) {
	return p.importIncomplete(ctx, p.s.db())
}

// importIncomplete is ImportIncomplete in tx.
func (p *Project) importIncomplete(ctx context.Context, tx db) (bool, error) {
	var n int64
	err := tx.scan(ctx, p.s.q.sql(`SELECT count(*) FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3`),
		[]any{p.ns, p.project, importMarker}, &n)
	return n > 0, err
}

// setImportMarker writes the marker of an import into p.
func (p *Project) setImportMarker(ctx context.Context) error {
	_, err := p.s.db().exec(ctx, p.s.q.sql(`INSERT INTO {leases} (namespace, project, session, holder, token, expires)
		VALUES ($1, $2, $3, 'lite-agent import', 0, 'infinity') ON CONFLICT DO NOTHING`), p.ns, p.project, importMarker)
	return err
}

// clearImportMarker removes the marker of an import from p in tx.
func (p *Project) clearImportMarker(ctx context.Context, tx db) error {
	_, err := tx.exec(ctx, p.s.q.sql(`DELETE FROM {leases} WHERE namespace = $1 AND project = $2 AND session = $3`), p.ns, p.project, importMarker)
	return err
}

// An ImportRunningError reports that another import into the same
// project holds the project's import lock, so this one did not start and
// changed nothing. The lock ends with the importing process's database
// session: an import that was killed lets the next one run once the
// server has noticed.
type ImportRunningError struct {
	// Namespace and Project name the project being imported into.
	Namespace, Project string
}

// Error names the project.
func (e *ImportRunningError) Error() string {
	return fmt.Sprintf("postgres: another import into project %s of namespace %s is running", e.Project, e.Namespace)
}

// lockImport takes the advisory lock that one import into p holds while it
// runs, on a connection of its own outside the pool (so that the copy
// never waits for it, whatever the pool's size), so that the server
// releases it when the importing process dies. It returns the function
// that releases it. Another import holding it is an *ImportRunningError.
func (p *Project) lockImport(ctx context.Context) (func(), error) {
	conn, err := pgx.ConnectConfig(ctx, p.s.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, p.s.db().wrap(err)
	}
	done := func() { conn.Close(context.WithoutCancel(ctx)) } // the server drops the lock with the session
	key := p.s.schema + "/" + p.ns + "/" + p.project
	var ok bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, hashtext($2))`, importLockKey, key).Scan(&ok); err != nil {
		done()
		return nil, p.s.db().wrap(err)
	}
	if !ok {
		done()
		return nil, &ImportRunningError{Namespace: p.ns, Project: p.project}
	}
	return done, nil
}
