package task

import (
	"context"
	"errors"
	"fmt"
)

// ErrNotEmpty is matched (with [errors.Is]) by the error of an import into
// a list that already has tasks.
var ErrNotEmpty = errors.New("task list is not empty")

// An Importer is a [Store] that can take tasks as they are, ids, edges,
// times and execution records included, as a copy of another list needs.
// Every store of this package is an Importer.
type Importer interface {
	Store
	// Import stores tasks unchanged into the list, which must have no
	// task yet (ErrNotEmpty otherwise). Every task is checked before
	// anything is written: an empty id, an id given twice, or a task whose record does
	// not read back, is an *InputError and nothing is stored.
	Import(ctx context.Context, tasks []Task) error
}

var (
	_ Importer = (*FileStore)(nil)
	_ Importer = (*MemoryStore)(nil)
	_ Importer = (*backendStore)(nil)
)

// Copy copies every task of src into dst, an empty list, with its id and
// every field unchanged, and returns how many it copied. A src without
// tasks writes nothing. dst must be an [Importer].
func Copy(ctx context.Context, dst, src Store) (int, error) {
	tasks, err := src.List(ctx)
	if err != nil || len(tasks) == 0 {
		return 0, err
	}
	im, ok := dst.(Importer)
	if !ok {
		return 0, fmt.Errorf("task: copy: the destination (%T) cannot import tasks", dst)
	}
	if err := im.Import(ctx, tasks); err != nil {
		return 0, err
	}
	return len(tasks), nil
}

// importTasks is Import on the records of one list, its lock held.
func importTasks(ctx context.Context, r records, tasks []Task) error {
	seen := make(map[string]bool, len(tasks))
	out := make([]Task, 0, len(tasks))
	for _, t := range tasks {
		if t.ID == "" {
			return &InputError{Field: "id", Err: errors.New("empty")}
		}
		if seen[t.ID] {
			return &InputError{ID: t.ID, Field: "id", Err: errors.New("given twice")}
		}
		seen[t.ID] = true
		b, err := Marshal(t)
		if err == nil {
			t, err = decodeRecord(t.ID, b)
		}
		if err != nil {
			return &InputError{ID: t.ID, Field: "record", Err: err}
		}
		out = append(out, t)
	}
	have, err := r.loadAll(ctx)
	if err != nil {
		return err
	}
	if len(have) > 0 {
		return fmt.Errorf("task: import: %w (%d tasks)", ErrNotEmpty, len(have))
	}
	if len(out) == 0 {
		return nil
	}
	return r.commit(ctx, out)
}

// Import stores tasks unchanged into the empty list; see [Importer]. Ids
// whose record files' names differ only in case ("A" and "a") are an
// *InputError too: on a case-insensitive file system (macOS's, where a
// data home may be copied) they are one file, and the second record would
// replace the first.
func (s *FileStore) Import(ctx context.Context, tasks []Task) error {
	stems := make(map[string]string, len(tasks))
	for _, t := range tasks {
		stem := fileStem(t.ID)
		folded := FoldedRecordName(t.ID)
		if other, ok := stems[folded]; ok && fileStem(other) != stem {
			return &InputError{ID: t.ID, Field: "id", Err: fmt.Errorf("it and task '%s' are stored in files whose names differ only in case, one file on a case-insensitive file system", other)}
		}
		stems[folded] = t.ID
	}
	return s.locked(ctx, len(tasks) > 0, func(r *fileRecords) error { return importTasks(ctx, r, tasks) })
}

// Import stores tasks unchanged into the empty list; see [Importer].
func (s *MemoryStore) Import(ctx context.Context, tasks []Task) error {
	return s.locked(ctx, func(r memoryRecords) error { return importTasks(ctx, r, tasks) })
}

// Import stores tasks unchanged into the empty list; see [Importer].
func (s *backendStore) Import(ctx context.Context, tasks []Task) error {
	return s.locked(ctx, true, func(r backendRecords) error { return importTasks(ctx, r, tasks) })
}
