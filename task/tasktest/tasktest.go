// Package tasktest checks that a task.Store keeps the contract, in the
// manner of testing/fstest and testing/slogtest. Every implementation (the
// memory and file stores of package task, a database backend) runs it:
//
//	func TestMyStore(t *testing.T) {
//		tasktest.Run(t, func(t *testing.T) task.Store {
//			return newMyStore(t)
//		})
//	}
//
// A store that encodes its records with a storage.Encoding also runs
// [RunEncoded], which writes under one codec configuration and reads under
// others.
package tasktest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lite-agent/lite-agent-go/internal/testcodec"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/task"
)

// Run runs the conformance suite as subtests of t. newStore is called once
// per subtest and must return an empty task list.
func Run(t *testing.T, newStore func(t *testing.T) task.Store) {
	t.Helper()
	tests := []struct {
		name string
		fn   func(t *testing.T, s task.Store)
	}{
		{"EmptyListReadsEmpty", testEmptyList},
		{"CreateNumbersFromOne", testCreateNumbersFromOne},
		{"CreateReturnsWhatGetReads", testCreateReturnsWhatGetReads},
		{"ListSortsByNumericID", testListSortsByNumericID},
		{"UnknownIDIsNotAnError", testUnknownID},
		{"UpdateSetsFields", testUpdateSetsFields},
		{"MetadataMergesShallowly", testMetadataMerges},
		{"UpdateUnknownTaskIsNotFound", testUpdateUnknown},
		{"EdgesAreSymmetric", testEdgesAreSymmetric},
		{"EdgeToUnknownTaskChangesNothing", testEdgeToUnknown},
		{"CycleIsRefused", testCycle},
		{"ReadinessRule", testReadiness},
		{"ExecutionGuards", testExecutionGuards},
		{"InvalidInputChangesNothing", testInvalidInput},
		{"ReturnedTasksAreCopies", testCopies},
		{"Render", testRender},
		{"CancelledContextChangesNothing", testCancelled},
		{"ConcurrentCreatesGetDistinctIDs", testConcurrentCreates},
		{"ConcurrentUpdatesLoseNothing", testConcurrentUpdates},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.fn(t, newStore(t))
		})
	}
}

// An Opener opens the list under test with enc. Every call of one Opener
// opens the same list, empty before the first write; enc carries the
// codec, namespace and project id to encode with. It returns the
// constructor's error, if any.
type Opener func(enc storage.Encoding) (task.Store, error)

// RunEncoded runs the encoding suite as subtests of t: a list written with
// plaintext, gzip, zstd or authenticated encryption reads back the same
// through a store opened with the same configuration, and a store opened
// with any other configuration (another codec, no codec, the same key id
// with another key) fails every read and write with a *storage.Error and
// changes nothing. newOpener is called once per subtest.
func RunEncoded(t *testing.T, newOpener func(t *testing.T) Opener) {
	t.Helper()
	testcodec.Run(t, newOpener, testEncodedRoundTrip, testEncodedMismatch)
}

func ptr[T any](v T) *T { return &v }

func mustCreate(t *testing.T, s task.Store, subject string) task.Task {
	t.Helper()
	tk, err := s.Create(t.Context(), task.CreateInput{Subject: subject, Description: "about " + subject})
	if err != nil {
		t.Fatalf("Create(%q): %v", subject, err)
	}
	return tk
}

func mustUpdate(t *testing.T, s task.Store, id string, in task.UpdateInput) task.Task {
	t.Helper()
	tk, err := s.Update(t.Context(), id, in)
	if err != nil {
		t.Fatalf("Update(%q): %v", id, err)
	}
	return tk
}

func mustGet(t *testing.T, s task.Store, id string) task.Task {
	t.Helper()
	tk, ok, err := s.Get(t.Context(), id)
	if err != nil || !ok {
		t.Fatalf("Get(%q) = ok %v, %v; want the task", id, ok, err)
	}
	return tk
}

func mustList(t *testing.T, s task.Store) []task.Task {
	t.Helper()
	ts, err := s.List(t.Context())
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	return ts
}

// ignoreTimes compares tasks without their timestamps.
var ignoreTimes = cmp.FilterPath(func(p cmp.Path) bool {
	switch p.Last().String() {
	case ".CreatedAt", ".UpdatedAt":
		return true
	}
	return false
}, cmp.Ignore())

// unchanged fails t unless the list holds exactly want.
func unchanged(t *testing.T, s task.Store, want []task.Task) {
	t.Helper()
	if diff := cmp.Diff(want, mustList(t, s)); diff != "" {
		t.Errorf("list changed (-before +after):\n%s", diff)
	}
}

func testEmptyList(t *testing.T, s task.Store) {
	if ts := mustList(t, s); len(ts) != 0 {
		t.Errorf("List = %v, want none", ts)
	}
	out, err := s.Render(t.Context(), task.RenderOptions{})
	if err != nil || out != "" {
		t.Errorf("Render = %q, %v; want \"\", nil", out, err)
	}
}

func testCreateNumbersFromOne(t *testing.T, s task.Store) {
	for i := 1; i <= 3; i++ {
		tk := mustCreate(t, s, fmt.Sprintf("t%d", i))
		if tk.ID != strconv.Itoa(i) {
			t.Errorf("create %d: id %q, want %q", i, tk.ID, strconv.Itoa(i))
		}
	}
}

func testCreateReturnsWhatGetReads(t *testing.T, s task.Store) {
	tk, err := s.Create(t.Context(), task.CreateInput{
		Subject: "Write the migration", Description: "Add the column", ActiveForm: "Writing the migration",
		Metadata: map[string]any{"estimate": 3, "tags": []any{"db", "x"}, "nested": map[string]any{"ok": true, "none": nil}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := task.Task{
		ID: "1", Subject: "Write the migration", Description: "Add the column", ActiveForm: "Writing the migration",
		Status: task.Pending, BlockedBy: []string{}, Blocks: []string{},
		Metadata: map[string]any{"estimate": float64(3), "tags": []any{"db", "x"}, "nested": map[string]any{"ok": true, "none": nil}},
	}
	if diff := cmp.Diff(want, tk, ignoreTimes); diff != "" {
		t.Errorf("Create returned (-want +got):\n%s", diff)
	}
	if tk.CreatedAt <= 0 || tk.UpdatedAt != tk.CreatedAt {
		t.Errorf("createdAt %d updatedAt %d, want equal positive milliseconds", tk.CreatedAt, tk.UpdatedAt)
	}
	if diff := cmp.Diff(tk, mustGet(t, s, "1")); diff != "" {
		t.Errorf("Get differs from Create (-create +get):\n%s", diff)
	}
	// Text that needs escaping survives.
	odd := "line\nbreak \"quoted\" <tag> & \u2028 \U0001F600 \x00"
	tk2, err := s.Create(t.Context(), task.CreateInput{Subject: odd, Description: odd})
	if err != nil {
		t.Fatal(err)
	}
	if got := mustGet(t, s, tk2.ID); got.Subject != odd || got.Description != odd {
		t.Errorf("subject %q description %q, want %q", got.Subject, got.Description, odd)
	}
}

func testListSortsByNumericID(t *testing.T, s task.Store) {
	for i := range 12 {
		mustCreate(t, s, fmt.Sprintf("t%d", i+1))
	}
	var got []string
	for _, tk := range mustList(t, s) {
		got = append(got, tk.ID)
	}
	want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}
	if !slices.Equal(got, want) {
		t.Errorf("List ids %v, want %v", got, want)
	}
}

func testUnknownID(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	for _, id := range []string{"2", "0", "", "../1", "1.json", "x"} {
		if tk, ok, err := s.Get(t.Context(), id); ok || err != nil {
			t.Errorf("Get(%q) = %v, %v, %v; want not found, no error", id, tk, ok, err)
		}
	}
}

func testUpdateSetsFields(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	got := mustUpdate(t, s, "1", task.UpdateInput{
		Status: ptr(task.InProgress), Subject: ptr("b"), Description: ptr("d2"),
		ActiveForm: ptr("Doing b"), Owner: ptr("alice"),
	})
	want := task.Task{ID: "1", Subject: "b", Description: "d2", ActiveForm: "Doing b", Status: task.InProgress,
		Owner: "alice", BlockedBy: []string{}, Blocks: []string{}}
	if diff := cmp.Diff(want, got, ignoreTimes); diff != "" {
		t.Errorf("Update returned (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(got, mustGet(t, s, "1")); diff != "" {
		t.Errorf("Get differs from Update (-update +get):\n%s", diff)
	}
	if got.UpdatedAt < got.CreatedAt {
		t.Errorf("updatedAt %d before createdAt %d", got.UpdatedAt, got.CreatedAt)
	}
	// "" removes the active form and the owner; nil leaves fields alone.
	got = mustUpdate(t, s, "1", task.UpdateInput{ActiveForm: ptr(""), Owner: ptr("")})
	if got.ActiveForm != "" || got.Owner != "" || got.Subject != "b" || got.Status != task.InProgress {
		t.Errorf("after clearing: %+v", got)
	}
	for _, st := range []task.Status{task.Review, task.Completed, task.Failed, task.Cancelled, task.Pending} {
		if got := mustUpdate(t, s, "1", task.UpdateInput{Status: ptr(st)}); got.Status != st {
			t.Errorf("status %q, want %q", got.Status, st)
		}
	}
	x := task.Execution{AgentID: "agent-1", Status: task.ExecSucceeded, Result: "done"}
	got = mustUpdate(t, s, "1", task.UpdateInput{Execution: &x})
	if got.Execution == nil || *got.Execution != x || *mustGet(t, s, "1").Execution != x {
		t.Errorf("execution %+v, want %+v", got.Execution, x)
	}
}

func testMetadataMerges(t *testing.T, s task.Store) {
	if _, err := s.Create(t.Context(), task.CreateInput{Subject: "a", Metadata: map[string]any{"a": 1, "b": map[string]any{"x": 1}}}); err != nil {
		t.Fatal(err)
	}
	got := mustUpdate(t, s, "1", task.UpdateInput{Metadata: map[string]any{"b": map[string]any{"y": 2}, "c": "z"}})
	want := map[string]any{"a": float64(1), "b": map[string]any{"y": float64(2)}, "c": "z"}
	if diff := cmp.Diff(want, got.Metadata); diff != "" {
		t.Errorf("merged metadata (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, mustGet(t, s, "1").Metadata); diff != "" {
		t.Errorf("stored metadata (-want +got):\n%s", diff)
	}
	// An empty map makes sure metadata exists; nil leaves it alone.
	mustCreate(t, s, "b")
	if got := mustUpdate(t, s, "2", task.UpdateInput{Subject: ptr("b2")}); got.Metadata != nil {
		t.Errorf("metadata %v after an update without it, want nil", got.Metadata)
	}
	if got := mustUpdate(t, s, "2", task.UpdateInput{Metadata: map[string]any{}}); got.Metadata == nil || len(got.Metadata) != 0 {
		t.Errorf("metadata %#v after an empty map, want {}", got.Metadata)
	}
	if got := mustGet(t, s, "2"); got.Metadata == nil {
		t.Errorf("stored metadata nil after an empty map, want {}")
	}
}

func testUpdateUnknown(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	before := mustList(t, s)
	_, err := s.Update(t.Context(), "7", task.UpdateInput{Subject: ptr("x")})
	var nf *task.NotFoundError
	if !errors.As(err, &nf) || nf.ID != "7" || !errors.Is(err, task.ErrNotFound) {
		t.Fatalf("Update(unknown) = %v, want *NotFoundError for 7 matching ErrNotFound", err)
	}
	unchanged(t, s, before)
}

func testEdgesAreSymmetric(t *testing.T, s task.Store) {
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, n)
	}
	got := mustUpdate(t, s, "2", task.UpdateInput{AddBlockedBy: []string{"1"}, AddBlocks: []string{"3"}})
	if !slices.Equal(got.BlockedBy, []string{"1"}) || !slices.Equal(got.Blocks, []string{"3"}) {
		t.Errorf("task 2: blockedBy %v blocks %v, want [1] [3]", got.BlockedBy, got.Blocks)
	}
	if t1 := mustGet(t, s, "1"); !slices.Equal(t1.Blocks, []string{"2"}) || len(t1.BlockedBy) != 0 {
		t.Errorf("task 1: blockedBy %v blocks %v, want [] [2]", t1.BlockedBy, t1.Blocks)
	}
	if t3 := mustGet(t, s, "3"); !slices.Equal(t3.BlockedBy, []string{"2"}) || len(t3.Blocks) != 0 {
		t.Errorf("task 3: blockedBy %v blocks %v, want [2] []", t3.BlockedBy, t3.Blocks)
	}
	// Adding an edge again changes nothing.
	before := mustList(t, s)
	mustUpdate(t, s, "2", task.UpdateInput{AddBlockedBy: []string{"1"}})
	after := mustList(t, s)
	if diff := cmp.Diff(before, after, ignoreTimes); diff != "" {
		t.Errorf("repeated edge changed the list (-before +after):\n%s", diff)
	}
}

func testEdgeToUnknown(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	mustCreate(t, s, "b")
	before := mustList(t, s)
	for _, in := range []task.UpdateInput{
		{Subject: ptr("changed"), AddBlockedBy: []string{"2", "9"}},
		{Subject: ptr("changed"), AddBlocks: []string{"9"}},
	} {
		_, err := s.Update(t.Context(), "1", in)
		var nf *task.NotFoundError
		if !errors.As(err, &nf) || nf.ID != "9" {
			t.Errorf("Update with an edge to 9 = %v, want *NotFoundError for 9", err)
		}
		unchanged(t, s, before)
	}
}

func testCycle(t *testing.T, s task.Store) {
	for _, n := range []string{"a", "b", "c"} {
		mustCreate(t, s, n)
	}
	mustUpdate(t, s, "2", task.UpdateInput{AddBlockedBy: []string{"1"}})
	mustUpdate(t, s, "3", task.UpdateInput{AddBlockedBy: []string{"2"}})
	before := mustList(t, s)
	for name, tc := range map[string]struct {
		id string
		in task.UpdateInput
	}{
		"self":     {"1", task.UpdateInput{AddBlockedBy: []string{"1"}}},
		"two":      {"1", task.UpdateInput{AddBlockedBy: []string{"2"}}},
		"three":    {"1", task.UpdateInput{AddBlockedBy: []string{"3"}, Subject: ptr("x")}},
		"viaBlock": {"3", task.UpdateInput{AddBlocks: []string{"1"}}},
	} {
		if _, err := s.Update(t.Context(), tc.id, tc.in); !errors.Is(err, task.ErrCycle) {
			t.Errorf("%s: Update = %v, want ErrCycle", name, err)
		}
		unchanged(t, s, before)
	}
}

func testReadiness(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	mustCreate(t, s, "b")
	mustUpdate(t, s, "2", task.UpdateInput{AddBlockedBy: []string{"1"}})
	before := mustList(t, s)
	for _, st := range []task.Status{task.InProgress, task.Review, task.Completed} {
		_, err := s.Update(t.Context(), "2", task.UpdateInput{Status: ptr(st)})
		var de *task.DependencyError
		if !errors.As(err, &de) || de.ID != "2" || !errors.Is(err, task.ErrUnfinished) {
			t.Errorf("status %s with task 1 pending: %v, want *DependencyError for 2", st, err)
		}
		unchanged(t, s, before)
	}
	// An edge that would make an in-progress task wait for an unfinished
	// one is refused too.
	mustCreate(t, s, "c")
	mustUpdate(t, s, "3", task.UpdateInput{Status: ptr(task.InProgress)})
	before = mustList(t, s)
	if _, err := s.Update(t.Context(), "3", task.UpdateInput{AddBlockedBy: []string{"1"}}); !errors.Is(err, task.ErrUnfinished) {
		t.Errorf("blocking an in-progress task on a pending one: %v, want ErrUnfinished", err)
	}
	unchanged(t, s, before)
	// Failed and cancelled need nothing; completing the blocker frees it.
	mustUpdate(t, s, "2", task.UpdateInput{Status: ptr(task.Failed)})
	mustUpdate(t, s, "1", task.UpdateInput{Status: ptr(task.Completed)})
	mustUpdate(t, s, "2", task.UpdateInput{Status: ptr(task.Completed)})
}

func testExecutionGuards(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	run := func(agent string) *task.Execution {
		return &task.Execution{AgentID: agent, Status: task.ExecRunning}
	}
	mustUpdate(t, s, "1", task.UpdateInput{Execution: run("A"), Status: ptr(task.InProgress)})
	before := mustList(t, s)
	cases := []struct {
		name string
		in   task.UpdateInput
		want error
	}{
		{"second dispatch", task.UpdateInput{Execution: run("B")}, task.ErrAgentRunning},
		{"other agent reports", task.UpdateInput{Execution: &task.Execution{AgentID: "B", Status: task.ExecSucceeded}}, task.ErrOtherAgent},
		{"status change", task.UpdateInput{Status: ptr(task.Completed)}, task.ErrManaged},
		{"owner change", task.UpdateInput{Owner: ptr("bob")}, task.ErrManaged},
	}
	for _, c := range cases {
		_, err := s.Update(t.Context(), "1", c.in)
		var xe *task.ExecutionError
		if !errors.As(err, &xe) || xe.ID != "1" || !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want *ExecutionError for 1 matching %v", c.name, err, c.want)
		}
		unchanged(t, s, before)
	}
	// The running agent reports through its execution record.
	got := mustUpdate(t, s, "1", task.UpdateInput{
		Execution: &task.Execution{AgentID: "A", Status: task.ExecSucceeded, Result: "ok"},
		Status:    ptr(task.Completed),
	})
	if got.Status != task.Completed || got.Execution.Status != task.ExecSucceeded {
		t.Errorf("after the report: %+v", got)
	}
	before = mustList(t, s)
	if _, err := s.Update(t.Context(), "1", task.UpdateInput{Execution: run("C")}); !errors.Is(err, task.ErrReopenFirst) {
		t.Errorf("dispatch to a completed task: %v, want ErrReopenFirst", err)
	}
	unchanged(t, s, before)
}

func testInvalidInput(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	before := mustList(t, s)
	cases := []struct {
		name  string
		in    task.UpdateInput
		field string
	}{
		{"status", task.UpdateInput{Status: ptr(task.Status("done"))}, "status"},
		{"execution", task.UpdateInput{Execution: &task.Execution{AgentID: "A", Status: "lost"}}, "execution"},
		{"metadata", task.UpdateInput{Metadata: map[string]any{"f": func() {}}}, "metadata"},
	}
	for _, c := range cases {
		_, err := s.Update(t.Context(), "1", c.in)
		var ie *task.InputError
		if !errors.As(err, &ie) || ie.Field != c.field || ie.ID != "1" {
			t.Errorf("%s: %v, want *InputError for field %s of 1", c.name, err, c.field)
		}
		unchanged(t, s, before)
	}
	_, err := s.Create(t.Context(), task.CreateInput{Subject: "b", Metadata: map[string]any{"c": make(chan int)}})
	var ie *task.InputError
	if !errors.As(err, &ie) || ie.Field != "metadata" {
		t.Errorf("Create with bad metadata: %v, want *InputError for metadata", err)
	}
	unchanged(t, s, before)
}

func testCopies(t *testing.T, s task.Store) {
	meta := map[string]any{"k": "v", "list": []any{"x"}}
	tk, err := s.Create(t.Context(), task.CreateInput{Subject: "a", Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	meta["k"] = "changed by caller"
	tk.Metadata["k"] = "changed"
	tk.Metadata["list"].([]any)[0] = "changed"
	tk.BlockedBy = append(tk.BlockedBy, "99")
	got := mustGet(t, s, "1")
	got.Metadata["k"] = "changed again"
	again := mustGet(t, s, "1")
	if again.Metadata["k"] != "v" || again.Metadata["list"].([]any)[0] != "x" || len(again.BlockedBy) != 0 {
		t.Errorf("stored task changed through a returned value or the input: %+v", again)
	}
	for _, tk := range mustList(t, s) {
		tk.Metadata["k"] = "x"
	}
	if mustGet(t, s, "1").Metadata["k"] != "v" {
		t.Errorf("stored task changed through List's result")
	}
}

func testRender(t *testing.T, s task.Store) {
	for _, n := range []string{"Design schema", "Write migration", "Review migration", "Drop table"} {
		mustCreate(t, s, n)
	}
	mustUpdate(t, s, "1", task.UpdateInput{Status: ptr(task.Completed)})
	mustUpdate(t, s, "2", task.UpdateInput{Status: ptr(task.InProgress), Owner: ptr("alice"), AddBlockedBy: []string{"1"}})
	mustUpdate(t, s, "3", task.UpdateInput{AddBlockedBy: []string{"2", "1"}})
	mustUpdate(t, s, "4", task.UpdateInput{Status: ptr(task.Cancelled)})
	cases := []struct {
		opts task.RenderOptions
		want string
	}{
		{task.RenderOptions{}, "[x] #1 Design schema (completed)\n" +
			"[>] #2 Write migration (in_progress) @alice\n" +
			"[ ] #3 Review migration (pending) [blockedBy: 2]\n" +
			"[-] #4 Drop table (cancelled)"},
		{task.RenderOptions{ActiveOnly: true}, "[>] #2 Write migration (in_progress) @alice\n" +
			"[ ] #3 Review migration (pending) [blockedBy: 2]"},
	}
	for _, c := range cases {
		got, err := s.Render(t.Context(), c.opts)
		if err != nil || got != c.want {
			t.Errorf("Render(%+v) = %q, %v\nwant %q", c.opts, got, err, c.want)
		}
	}
}

func testCancelled(t *testing.T, s task.Store) {
	mustCreate(t, s, "a")
	before := mustList(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := s.Create(ctx, task.CreateInput{Subject: "b"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Create: %v, want context.Canceled", err)
	}
	if _, err := s.Update(ctx, "1", task.UpdateInput{Subject: ptr("x")}); !errors.Is(err, context.Canceled) {
		t.Errorf("Update: %v, want context.Canceled", err)
	}
	unchanged(t, s, before)
}

func testConcurrentCreates(t *testing.T, s task.Store) {
	const writers, each = 8, 5
	var (
		mu  sync.Mutex
		ids []string
		wg  sync.WaitGroup
	)
	start := make(chan struct{})
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			<-start
			for i := range each {
				tk, err := s.Create(t.Context(), task.CreateInput{Subject: fmt.Sprintf("w%d-%d", w, i)})
				if err != nil {
					errs <- err
					return
				}
				mu.Lock()
				ids = append(ids, tk.ID)
				mu.Unlock()
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Create: %v", err)
	}
	slices.SortFunc(ids, func(a, b string) int { x, _ := strconv.Atoi(a); y, _ := strconv.Atoi(b); return x - y })
	for i, id := range ids {
		if id != strconv.Itoa(i+1) {
			t.Fatalf("ids %v, want 1..%d each once", ids, writers*each)
		}
	}
	if n := len(mustList(t, s)); n != writers*each {
		t.Errorf("List holds %d tasks, want %d", n, writers*each)
	}
}

func testConcurrentUpdates(t *testing.T, s task.Store) {
	mustCreate(t, s, "shared")
	const writers, each = 8, 5
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Go(func() {
			<-start
			for i := range each {
				key := fmt.Sprintf("w%d-%d", w, i)
				if _, err := s.Update(t.Context(), "1", task.UpdateInput{Metadata: map[string]any{key: true}}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("Update: %v", err)
	}
	if got := len(mustGet(t, s, "1").Metadata); got != writers*each {
		t.Errorf("metadata holds %d keys, want %d: an update was lost", got, writers*each)
	}
}

// writeSample fills a list through s and returns what it holds.
func writeSample(t *testing.T, s task.Store) []task.Task {
	t.Helper()
	for _, n := range []string{"alpha", "beta \u00e9\u2028", "gamma"} {
		if _, err := s.Create(t.Context(), task.CreateInput{Subject: n, Description: "secret " + n,
			Metadata: map[string]any{"n": n}}); err != nil {
			t.Fatalf("Create: %v", err)
		}
	}
	mustUpdate(t, s, "2", task.UpdateInput{AddBlockedBy: []string{"1"}, Owner: ptr("alice")})
	mustUpdate(t, s, "3", task.UpdateInput{Execution: &task.Execution{AgentID: "A", Status: task.ExecRunning}})
	return mustList(t, s)
}

func open(t *testing.T, o Opener, cfg testcodec.Config) task.Store {
	t.Helper()
	s, err := o(cfg.Encoding)
	if err != nil {
		t.Fatalf("open with %s: %v", cfg.Name, err)
	}
	return s
}

func testEncodedRoundTrip(t *testing.T, o Opener, cfg testcodec.Config) {
	want := writeSample(t, open(t, o, cfg))
	s := open(t, o, cfg)
	if diff := cmp.Diff(want, mustList(t, s)); diff != "" {
		t.Errorf("reopened list differs (-written +read):\n%s", diff)
	}
	if diff := cmp.Diff(want[1], mustGet(t, s, "2")); diff != "" {
		t.Errorf("Get differs (-written +read):\n%s", diff)
	}
	mustUpdate(t, s, "1", task.UpdateInput{Status: ptr(task.Completed)})
	if got := mustGet(t, open(t, o, cfg), "1"); got.Status != task.Completed {
		t.Errorf("status %q after an update through the reopened store", got.Status)
	}
}

// isStorageError reports whether err is a *storage.Error.
func isStorageError(err error) bool {
	var se *storage.Error
	return errors.As(err, &se)
}

func testEncodedMismatch(t *testing.T, o Opener, written, other testcodec.Config) {
	want := writeSample(t, open(t, o, written))
	s, err := o(other.Encoding)
	if err != nil {
		if !isStorageError(err) {
			t.Fatalf("open with %s: %v, want success or a *storage.Error", other.Name, err)
		}
	} else {
		if ts, err := s.List(t.Context()); !isStorageError(err) {
			t.Errorf("List under %s = %d tasks, %v; want a *storage.Error", other.Name, len(ts), err)
		}
		if _, _, err := s.Get(t.Context(), "2"); !isStorageError(err) {
			t.Errorf("Get under %s: %v, want a *storage.Error", other.Name, err)
		}
		if tk, err := s.Create(t.Context(), task.CreateInput{Subject: "new"}); !isStorageError(err) {
			t.Errorf("Create under %s = %+v, %v; want a *storage.Error", other.Name, tk, err)
		}
		if _, err := s.Update(t.Context(), "1", task.UpdateInput{Subject: ptr("x")}); !isStorageError(err) {
			t.Errorf("Update under %s: %v, want a *storage.Error", other.Name, err)
		}
		if _, err := s.Render(t.Context(), task.RenderOptions{}); !isStorageError(err) {
			t.Errorf("Render under %s: %v, want a *storage.Error", other.Name, err)
		}
	}
	if diff := cmp.Diff(want, mustList(t, open(t, o, written))); diff != "" {
		t.Errorf("list changed after access under %s (-before +after):\n%s", other.Name, diff)
	}
}
