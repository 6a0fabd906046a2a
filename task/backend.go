package task

import (
	"context"
	"fmt"
	"time"
)

// A Backend keeps the records of one task list for a store other than the
// built-in ones, such as a database. [NewStore] builds a [Store] on it that
// applies every rule of [FileStore] and [MemoryStore] (ids, edges, cycles,
// readiness, execution guards, rendering), so a backend only stores bytes.
type Backend interface {
	// Locked calls fn with the list locked against every other writer of
	// the list, in this process or any other, and returns fn's error. write
	// reports whether fn may call [BackendTx.Put]; a backend may let
	// readers share the lock. If fn fails, nothing it put is kept.
	Locked(ctx context.Context, write bool, fn func(tx BackendTx) error) error
}

// A BackendTx reads and writes the records of a list while its lock is held.
// Records are plaintext: the JSON form [Marshal] returns. Encoding them for
// storage is the backend's business.
type BackendTx interface {
	// Get returns the record of task id, or false if there is none.
	Get(ctx context.Context, id string) ([]byte, bool, error)
	// All returns every record of the list, keyed by task id.
	All(ctx context.Context) (map[string][]byte, error)
	// Put stores the records, keyed by task id: all of them or none.
	Put(ctx context.Context, records map[string][]byte) error
}

// NewStore returns a [Store] over b. The store is safe for concurrent use if
// b is.
func NewStore(b Backend) Store {
	return &backendStore{b: b, now: time.Now}
}

// backendStore is the Store NewStore returns.
type backendStore struct {
	b   Backend
	now func() time.Time
}

func (s *backendStore) locked(ctx context.Context, write bool, fn func(backendRecords) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.b.Locked(ctx, write, func(tx BackendTx) error { return fn(backendRecords{tx}) })
}

func (s *backendStore) Create(ctx context.Context, in CreateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, true, func(r backendRecords) error {
		var err error
		t, err = create(ctx, r, in, s.now().UnixMilli())
		return err
	})
	return t, err
}

func (s *backendStore) Update(ctx context.Context, id string, in UpdateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, true, func(r backendRecords) error {
		var err error
		t, err = update(ctx, r, id, in, s.now().UnixMilli())
		return err
	})
	return t, err
}

func (s *backendStore) Get(ctx context.Context, id string) (Task, bool, error) {
	var (
		t  Task
		ok bool
	)
	err := s.locked(ctx, false, func(r backendRecords) error {
		var err error
		t, ok, err = r.load(ctx, id)
		return err
	})
	return t, ok, err
}

func (s *backendStore) List(ctx context.Context) ([]Task, error) {
	var ts []Task
	err := s.locked(ctx, false, func(r backendRecords) error {
		var err error
		ts, err = r.loadAll(ctx)
		return err
	})
	return ts, err
}

func (s *backendStore) Render(ctx context.Context, opts RenderOptions) (string, error) {
	ts, err := s.List(ctx)
	if err != nil {
		return "", err
	}
	return render(ts, opts), nil
}

// backendRecords is a Backend's list seen from inside its lock.
type backendRecords struct{ tx BackendTx }

func (r backendRecords) load(ctx context.Context, id string) (Task, bool, error) {
	b, ok, err := r.tx.Get(ctx, id)
	if err != nil || !ok {
		return Task{}, false, err
	}
	t, err := decodeRecord(id, b)
	if err != nil {
		return Task{}, false, fmt.Errorf("task %s: stored record does not read back: %w", id, err)
	}
	return t, true, nil
}

func (r backendRecords) loadAll(ctx context.Context) ([]Task, error) {
	m, err := r.tx.All(ctx)
	if err != nil {
		return nil, err
	}
	ts := make([]Task, 0, len(m))
	for id, b := range m {
		t, err := decodeRecord(id, b)
		if err != nil {
			return nil, fmt.Errorf("task %s: stored record does not read back: %w", id, err)
		}
		ts = append(ts, t)
	}
	sortTasks(ts)
	return ts, nil
}

func (r backendRecords) commit(ctx context.Context, tasks []Task) error {
	batch := make(map[string][]byte, len(tasks))
	for _, t := range tasks {
		b, err := Marshal(t)
		if err != nil {
			return &InputError{ID: t.ID, Field: "metadata", Err: err}
		}
		batch[t.ID] = b
	}
	return r.tx.Put(ctx, batch)
}
