package task

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// records is the storage a list's operations run against, with the list's
// lock already held. Both stores implement it, so that every rule below is
// written once.
type records interface {
	// load returns the validated task id, or false if there is none.
	load(ctx context.Context, id string) (Task, bool, error)
	// loadAll returns every validated task, sorted by id.
	loadAll(ctx context.Context) ([]Task, error)
	// commit stores tasks: it prepares (encodes) every one of them before
	// it changes anything, so a failure to prepare commits nothing.
	commit(ctx context.Context, tasks []Task) error
}

// create adds a pending task with the next id: one more than the largest
// numeric id in the list. Every record is read and validated first, so a
// list with a corrupt record, or records of another encoding, is refused
// rather than extended.
func create(ctx context.Context, r records, in CreateInput, now int64) (Task, error) {
	meta, err := normalizeMetadata(in.Metadata)
	if err != nil {
		return Task{}, &InputError{Field: "metadata", Err: err}
	}
	all, err := r.loadAll(ctx)
	if err != nil {
		return Task{}, err
	}
	var top uint64
	for _, t := range all {
		if n, ok := numericID(t.ID); ok && n > top {
			top = n
		}
	}
	t := Task{
		ID:          strconv.FormatUint(top+1, 10),
		Subject:     in.Subject,
		Description: in.Description,
		ActiveForm:  in.ActiveForm,
		Status:      Pending,
		BlockedBy:   []string{},
		Blocks:      []string{},
		Metadata:    meta,
		CreatedAt:   now,
		UpdatedAt:   now,
	}
	if err := r.commit(ctx, []Task{t}); err != nil {
		return Task{}, err
	}
	return t, nil
}

// workingSet holds the tasks an update has read, with its changes applied,
// and remembers which of them it changed, in order.
type workingSet struct {
	r       records
	tasks   map[string]*Task
	missing map[string]bool
	touched []string
}

func (w *workingSet) get(ctx context.Context, id string) (*Task, bool, error) {
	if t, ok := w.tasks[id]; ok {
		return t, true, nil
	}
	if w.missing[id] {
		return nil, false, nil
	}
	t, ok, err := w.r.load(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		w.missing[id] = true
		return nil, false, nil
	}
	t = cloneTask(t)
	w.tasks[id] = &t
	return &t, true, nil
}

func (w *workingSet) touch(id string) {
	if !slices.Contains(w.touched, id) {
		w.touched = append(w.touched, id)
	}
}

// update applies in to task id, checking in this order (the TypeScript
// SDK's, so both report the same first error):
// existence, execution guards, input validity, edges (whose other ends must
// exist), cycles, readiness. Only then are the touched tasks stamped and
// committed, all or none.
func update(ctx context.Context, r records, id string, in UpdateInput, now int64) (Task, error) {
	w := &workingSet{r: r, tasks: map[string]*Task{}, missing: map[string]bool{}}
	t, ok, err := w.get(ctx, id)
	if err != nil {
		return Task{}, err
	}
	if !ok {
		return Task{}, &NotFoundError{ID: id}
	}
	if err := checkExecution(t, in); err != nil {
		return Task{}, err
	}
	meta, err := validateInput(id, in)
	if err != nil {
		return Task{}, err
	}
	w.touch(id)
	applyScalars(t, in, meta)

	for _, o := range in.AddBlockedBy {
		if err := addEdge(ctx, w, id, o); err != nil {
			return Task{}, err
		}
	}
	for _, o := range in.AddBlocks {
		if err := addEdge(ctx, w, o, id); err != nil {
			return Task{}, err
		}
	}
	if len(in.AddBlockedBy)+len(in.AddBlocks) > 0 {
		if err := checkCycles(ctx, w, id); err != nil {
			return Task{}, err
		}
	}
	for _, tid := range w.touched {
		if err := checkReady(ctx, w, w.tasks[tid]); err != nil {
			return Task{}, err
		}
	}

	out := make([]Task, 0, len(w.touched))
	for _, tid := range w.touched {
		tt := w.tasks[tid]
		tt.UpdatedAt = now
		out = append(out, *tt)
	}
	if err := r.commit(ctx, out); err != nil {
		return Task{}, err
	}
	return cloneTask(out[0]), nil
}

// checkExecution applies the guards of a task whose agent is running, and
// refuses to dispatch an agent to a completed task.
func checkExecution(t *Task, in UpdateInput) error {
	dispatch := in.Execution != nil && in.Execution.Status == ExecRunning
	if cur := t.Execution; cur != nil && cur.Status == ExecRunning {
		switch {
		case dispatch:
			return &ExecutionError{ID: t.ID, Err: ErrAgentRunning}
		case in.Execution != nil && in.Execution.AgentID != cur.AgentID:
			return &ExecutionError{ID: t.ID, Err: ErrOtherAgent}
		case in.Execution == nil && (in.Status != nil || in.Owner != nil):
			return &ExecutionError{ID: t.ID, Err: ErrManaged}
		}
	}
	if dispatch && t.Status == Completed {
		return &ExecutionError{ID: t.ID, Err: ErrReopenFirst}
	}
	return nil
}

// validateInput checks the values of in that a record could not hold and
// returns its metadata as plain JSON values.
func validateInput(id string, in UpdateInput) (map[string]any, error) {
	if in.Status != nil && !in.Status.Valid() {
		return nil, &InputError{ID: id, Field: "status", Err: errors.New("unknown status " + strconv.Quote(string(*in.Status)))}
	}
	if x := in.Execution; x != nil && !x.Status.Valid() {
		return nil, &InputError{ID: id, Field: "execution", Err: errors.New("unknown execution status " + strconv.Quote(string(x.Status)))}
	}
	meta, err := normalizeMetadata(in.Metadata)
	if err != nil {
		return nil, &InputError{ID: id, Field: "metadata", Err: err}
	}
	return meta, nil
}

func applyScalars(t *Task, in UpdateInput, meta map[string]any) {
	if in.Status != nil {
		t.Status = *in.Status
	}
	if in.Subject != nil {
		t.Subject = *in.Subject
	}
	if in.Description != nil {
		t.Description = *in.Description
	}
	if in.ActiveForm != nil {
		t.ActiveForm = *in.ActiveForm
	}
	if in.Owner != nil {
		t.Owner = *in.Owner
	}
	if meta != nil {
		if t.Metadata == nil {
			t.Metadata = make(map[string]any, len(meta))
		}
		for k, v := range meta {
			t.Metadata[k] = v
		}
	}
	if in.Execution != nil {
		x := *in.Execution
		t.Execution = &x
	}
}

// addEdge records that waiter is blocked by blocker, on both tasks. The
// other end must exist; an edge already present is skipped.
func addEdge(ctx context.Context, w *workingSet, waiter, blocker string) error {
	wt, ok, err := w.get(ctx, waiter)
	if err != nil {
		return err
	}
	if !ok {
		return &NotFoundError{ID: waiter}
	}
	bt, ok, err := w.get(ctx, blocker)
	if err != nil {
		return err
	}
	if !ok {
		return &NotFoundError{ID: blocker}
	}
	if !slices.Contains(wt.BlockedBy, blocker) {
		wt.BlockedBy = append(wt.BlockedBy, blocker)
		w.touch(waiter)
	}
	if !slices.Contains(bt.Blocks, waiter) {
		bt.Blocks = append(bt.Blocks, waiter)
		w.touch(blocker)
	}
	return nil
}

// checkCycles walks blockedBy edges depth first from start and reports
// ErrCycle if the walk comes back to a task on its current path. Every new
// edge has start at one end, so every new cycle passes through start.
// Edges to tasks the list does not have are ignored.
func checkCycles(ctx context.Context, w *workingSet, start string) error {
	const (
		onPath = 1
		done   = 2
	)
	state := map[string]int{}
	var visit func(id string) error
	visit = func(id string) error {
		switch state[id] {
		case onPath:
			return ErrCycle
		case done:
			return nil
		}
		t, ok, err := w.get(ctx, id)
		if err != nil || !ok {
			return err
		}
		state[id] = onPath
		for _, dep := range t.BlockedBy {
			if err := visit(dep); err != nil {
				return err
			}
		}
		state[id] = done
		return nil
	}
	return visit(start)
}

// checkReady enforces the readiness rule: a task that is in progress, in
// review or completed must have every task it is blocked by completed.
func checkReady(ctx context.Context, w *workingSet, t *Task) error {
	switch t.Status {
	case InProgress, Review, Completed:
	default:
		return nil
	}
	for _, dep := range t.BlockedBy {
		d, ok, err := w.get(ctx, dep)
		if err != nil {
			return err
		}
		if !ok || d.Status != Completed {
			return &DependencyError{ID: t.ID}
		}
	}
	return nil
}

// render formats tasks (sorted by id) one per line:
//
//	<marker> #<id> <subject> (<status>)[ [blockedBy: a, b]][ @<owner>]
//
// listing only the dependencies that are not completed (a dependency the
// list does not have counts as not completed).
func render(tasks []Task, opts RenderOptions) string {
	completed := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		if t.Status == Completed {
			completed[t.ID] = true
		}
	}
	var b strings.Builder
	first := true
	for _, t := range tasks {
		if opts.ActiveOnly && (t.Status == Completed || t.Status == Cancelled) {
			continue
		}
		if !first {
			b.WriteByte('\n')
		}
		first = false
		b.WriteString(t.Status.Marker())
		b.WriteString(" #")
		b.WriteString(t.ID)
		b.WriteByte(' ')
		b.WriteString(t.Subject)
		b.WriteString(" (")
		b.WriteString(string(t.Status))
		b.WriteByte(')')
		var open []string
		for _, dep := range t.BlockedBy {
			if !completed[dep] {
				open = append(open, dep)
			}
		}
		if len(open) > 0 {
			b.WriteString(" [blockedBy: ")
			b.WriteString(strings.Join(open, ", "))
			b.WriteByte(']')
		}
		if t.Owner != "" {
			b.WriteString(" @")
			b.WriteString(t.Owner)
		}
	}
	return b.String()
}
