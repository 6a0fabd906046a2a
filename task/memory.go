package task

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// MemoryStore is a task list held in memory, for tests and for programs
// that keep no state between runs. It applies the same rules as
// [FileStore] (ids, edges, cycles, readiness, execution guards, rendering)
// and returns the same values: tasks are stored as their plaintext records,
// so metadata reads back as plain JSON values. It is safe for concurrent
// use by multiple goroutines. The zero value is an empty list, ready to
// use, as is the one [NewMemoryStore] returns.
type MemoryStore struct {
	now func() time.Time

	mu      sync.Mutex        // guards records
	records map[string][]byte // task id -> plaintext record
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty in-memory task list.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{now: time.Now, records: map[string][]byte{}}
}

// Create adds a pending task with the next id; see [Store.Create].
func (s *MemoryStore) Create(ctx context.Context, in CreateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, func(r memoryRecords) error {
		var err error
		t, err = create(ctx, r, in, s.clock().UnixMilli())
		return err
	})
	return t, err
}

// Update changes task id; see [Store.Update].
func (s *MemoryStore) Update(ctx context.Context, id string, in UpdateInput) (Task, error) {
	var t Task
	err := s.locked(ctx, func(r memoryRecords) error {
		var err error
		t, err = update(ctx, r, id, in, s.clock().UnixMilli())
		return err
	})
	return t, err
}

// Get returns task id, or false if there is none.
func (s *MemoryStore) Get(ctx context.Context, id string) (Task, bool, error) {
	var (
		t  Task
		ok bool
	)
	err := s.locked(ctx, func(r memoryRecords) error {
		var err error
		t, ok, err = r.load(ctx, id)
		return err
	})
	return t, ok, err
}

// List returns every task sorted by numeric id.
func (s *MemoryStore) List(ctx context.Context) ([]Task, error) {
	var ts []Task
	err := s.locked(ctx, func(r memoryRecords) error {
		var err error
		ts, err = r.loadAll(ctx)
		return err
	})
	return ts, err
}

// Render returns the list in its text form; see the package documentation.
func (s *MemoryStore) Render(ctx context.Context, opts RenderOptions) (string, error) {
	ts, err := s.List(ctx)
	if err != nil {
		return "", err
	}
	return render(ts, opts), nil
}

func (s *MemoryStore) locked(ctx context.Context, fn func(memoryRecords) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.records == nil { // the zero MemoryStore
		s.records = map[string][]byte{}
	}
	return fn(memoryRecords{s.records})
}

// clock returns the time now; time.Now for the zero MemoryStore.
func (s *MemoryStore) clock() time.Time {
	if s.now == nil {
		return time.Now()
	}
	return s.now()
}

// memoryRecords is a MemoryStore seen from inside its mutex.
type memoryRecords struct {
	m map[string][]byte
}

func (r memoryRecords) load(_ context.Context, id string) (Task, bool, error) {
	b, ok := r.m[id]
	if !ok {
		return Task{}, false, nil
	}
	t, err := decodeRecord(id, b)
	if err != nil {
		return Task{}, false, fmt.Errorf("task %s: stored record does not read back: %w", id, err)
	}
	return t, true, nil
}

func (r memoryRecords) loadAll(ctx context.Context) ([]Task, error) {
	ts := make([]Task, 0, len(r.m))
	for id := range r.m {
		t, _, err := r.load(ctx, id)
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	sortTasks(ts)
	return ts, nil
}

func (r memoryRecords) commit(_ context.Context, tasks []Task) error {
	batch := make(map[string][]byte, len(tasks))
	for _, t := range tasks {
		b, err := Marshal(t)
		if err != nil {
			return &InputError{ID: t.ID, Field: "metadata", Err: err}
		}
		batch[t.ID] = b
	}
	for id, b := range batch {
		r.m[id] = b
	}
	return nil
}
