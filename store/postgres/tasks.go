package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// A TaskList is the [task.Store] of one task list of a project. Its rules
// are package task's (see [task.NewStore]); this type stores the records:
// one row per task, keyed by (namespace, project, list, id), holding the
// task's JSON encoded with the project's storage.Encoding under the same
// storage.Context as a file record (kind task, scope the list id, record
// id the task id). Every operation locks the list's row in task_lists
// (SELECT … FOR UPDATE for writes, FOR SHARE for reads), so updates from
// any number of processes and hosts are serialized and none is lost.
type TaskList struct {
	task.Store
	b *taskBackend
}

// TaskList returns the task list listID of the project. The list is
// private to the session of the same id unless [TaskList.MarkShared] is
// called; [Project.DeleteSession] deletes a private list with its session
// and never a shared one. It fails with a *storage.Error for an invalid id.
func (p *Project) TaskList(listID string) (*TaskList, error) {
	if err := validID(listID); err != nil {
		return nil, err
	}
	b := &taskBackend{p: p, list: listID}
	return &TaskList{Store: task.NewStore(b), b: b}, nil
}

// MarkShared records that the list is shared by several sessions, so that
// deleting the session of the same id keeps it.
func (l *TaskList) MarkShared(ctx context.Context) error {
	p := l.b.p
	_, err := p.s.db().exec(ctx, p.s.q.sql(`INSERT INTO {task_lists} (namespace, project, list, shared, modified)
		VALUES ($1, $2, $3, true, now())
		ON CONFLICT (namespace, project, list) DO UPDATE SET shared = true`), p.ns, p.project, l.b.list)
	return err
}

// Import stores tasks, ids and records unchanged, into the list, which
// must have no task yet; see [task.Importer]. A fork copies a session's
// private list with it.
func (l *TaskList) Import(ctx context.Context, tasks []task.Task) error {
	return l.Store.(task.Importer).Import(ctx, tasks)
}

var _ task.Importer = (*TaskList)(nil)

// taskBackend stores one list's records for task.NewStore.
type taskBackend struct {
	p    *Project
	list string
}

// Locked runs fn on the list in one transaction. A write (Create,
// Update, Import) is not retried harmlessly (a task created twice), so one
// whose connection is lost once its COMMIT went out succeeds if it
// committed, and fails with an *OutcomeUnknownError if the database
// cannot tell (see Store.txLanded).
func (b *taskBackend) Locked(ctx context.Context, write bool, fn func(task.BackendTx) error) error {
	p := b.p
	q := p.s.q
	run := p.s.tx
	if write {
		run = func(ctx context.Context, fn func(db) error) error {
			return p.s.txLanded(ctx, fn, func(err, check error) error {
				return &OutcomeUnknownError{Op: "task list write", ListID: b.list, Err: err, Check: check}
			})
		}
	}
	return run(ctx, func(tx db) error {
		var shared bool
		if write {
			// Create and lock the list's row in one statement: the no-op
			// update locks an existing row against every other writer
			// and reader, as SELECT … FOR UPDATE would.
			if err := tx.scan(ctx, q.sql(`INSERT INTO {task_lists} AS l (namespace, project, list, modified)
				VALUES ($1, $2, $3, now())
				ON CONFLICT (namespace, project, list) DO UPDATE SET shared = l.shared
				RETURNING shared`), []any{p.ns, p.project, b.list}, &shared); err != nil {
				return err
			}
		} else {
			err := tx.scan(ctx, q.sql(`SELECT shared FROM {task_lists}
				WHERE namespace = $1 AND project = $2 AND list = $3 FOR SHARE`), []any{p.ns, p.project, b.list}, &shared)
			if errors.Is(err, pgx.ErrNoRows) {
				return fn(emptyList{})
			}
			if err != nil {
				return err
			}
		}
		return fn(&taskTx{b: b, tx: tx, write: write})
	})
}

// emptyList is a list that has no row yet.
type emptyList struct{}

func (emptyList) Get(context.Context, string) ([]byte, bool, error) { return nil, false, nil }
func (emptyList) All(context.Context) (map[string][]byte, error)    { return map[string][]byte{}, nil }
func (emptyList) Put(context.Context, map[string][]byte) error {
	return errors.New("postgres: task list is read-only here")
}

// taskTx is one list inside a transaction holding its row lock.
type taskTx struct {
	b     *taskBackend
	tx    db
	write bool
}

func (t *taskTx) decode(ctx context.Context, id string, data []byte) ([]byte, error) {
	p := t.b.p
	plain, err := p.enc.Decode(ctx, storage.KindTask, t.b.list, id, data)
	if err != nil {
		return nil, atLocator(err, p.locator("tasks", t.b.list), id)
	}
	return plain, nil
}

func (t *taskTx) Get(ctx context.Context, id string) ([]byte, bool, error) {
	p := t.b.p
	var data []byte
	err := t.tx.scan(ctx, p.s.q.sql(`SELECT data FROM {tasks} WHERE namespace = $1 AND project = $2 AND list = $3 AND id = $4`),
		[]any{p.ns, p.project, t.b.list, id}, &data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	plain, err := t.decode(ctx, id, data)
	return plain, err == nil, err
}

func (t *taskTx) All(ctx context.Context) (map[string][]byte, error) {
	p := t.b.p
	out := map[string][]byte{}
	err := t.tx.each(ctx, p.s.q.sql(`SELECT id, data FROM {tasks} WHERE namespace = $1 AND project = $2 AND list = $3`),
		[]any{p.ns, p.project, t.b.list}, func(r pgx.Rows) error {
			var id string
			var data []byte
			if err := r.Scan(&id, &data); err != nil {
				return err
			}
			plain, err := t.decode(ctx, id, data)
			if err != nil {
				return err
			}
			out[id] = plain
			return nil
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Put encodes every record first, then writes them all in the transaction.
func (t *taskTx) Put(ctx context.Context, records map[string][]byte) error {
	if !t.write {
		return errors.New("postgres: task list locked for reading")
	}
	p := t.b.p
	ids := make([]string, 0, len(records))
	data := make([][]byte, 0, len(records))
	for id, plain := range records {
		stored, err := p.enc.Encode(ctx, storage.KindTask, t.b.list, id, plain)
		if err != nil {
			return atLocator(err, p.locator("tasks", t.b.list), id)
		}
		ids = append(ids, id)
		data = append(data, stored)
	}
	q := p.s.q
	// One statement (one round trip while the list is locked) writes the
	// records and stamps the list.
	_, err := t.tx.exec(ctx, q.sql(`WITH m AS (
			UPDATE {task_lists} SET modified = now() WHERE namespace = $1 AND project = $2 AND list = $3
		)
		INSERT INTO {tasks} (namespace, project, list, id, data)
		SELECT $1, $2, $3, i, d FROM unnest($4::text[], $5::bytea[]) AS b(i, d)
		ON CONFLICT (namespace, project, list, id) DO UPDATE SET data = excluded.data`),
		p.ns, p.project, t.b.list, ids, data)
	return err
}
