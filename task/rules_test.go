package task

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
)

// The rules every Store must follow, run against both implementations.

type storeMaker struct {
	name string
	make func(t *testing.T) Store
}

func storeMakers() []storeMaker {
	return []storeMaker{
		{"file", func(t *testing.T) Store { return newFile(t, t.TempDir(), "list", storage.Encoding{}) }},
		{"memory", func(t *testing.T) Store {
			s := NewMemoryStore()
			s.now = fixedClock()
			return s
		}},
	}
}

func forEachStore(t *testing.T, fn func(t *testing.T, s Store)) {
	for _, m := range storeMakers() {
		t.Run(m.name, func(t *testing.T) { fn(t, m.make(t)) })
	}
}

func TestIDsAreSequential(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for i, want := range []string{"1", "2", "3"} {
			tk := mustCreate(t, s, "task "+want)
			if tk.ID != want {
				t.Fatalf("create %d got id %q, want %q", i, tk.ID, want)
			}
		}
	})
}

func TestCreateSetsPendingEmptyEdgesAndTimes(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		tk, err := s.Create(t.Context(), CreateInput{
			Subject: "Write docs", Description: "all of them", ActiveForm: "Writing docs",
			Metadata: map[string]any{"n": 1, "tags": []string{"a"}},
		})
		if err != nil {
			t.Fatal(err)
		}
		want := Task{
			ID: "1", Subject: "Write docs", Description: "all of them", ActiveForm: "Writing docs",
			Status: Pending, BlockedBy: []string{}, Blocks: []string{},
			Metadata:  map[string]any{"n": float64(1), "tags": []any{"a"}},
			CreatedAt: tk.CreatedAt, UpdatedAt: tk.CreatedAt,
		}
		if tk.CreatedAt == 0 || !reflect.DeepEqual(tk, want) {
			t.Fatalf("Create returned %+v, want %+v", tk, want)
		}
		if got := mustGet(t, s, "1"); !reflect.DeepEqual(got, want) {
			t.Fatalf("Get returned %+v, want %+v", got, want)
		}
	})
}

func TestUnknownIDIsNotFoundNotAnError(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		mustCreate(t, s, "one")
		for _, id := range []string{"2", "", "../secret", "1 ", "01x"} {
			if _, ok, err := s.Get(t.Context(), id); ok || err != nil {
				t.Errorf("Get(%q) = %v, %v; want not found and no error", id, ok, err)
			}
		}
	})
}

func TestUpdateOfUnknownTaskFails(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		_, err := s.Update(t.Context(), "7", UpdateInput{Status: ptr(Completed)})
		var nf *NotFoundError
		if !errors.As(err, &nf) || nf.ID != "7" || !errors.Is(err, ErrNotFound) || err.Error() != "no task '7'" {
			t.Fatalf("Update(7) error = %v, want no task '7'", err)
		}
	})
}

func TestStatusUpdatesAndMetadataShallowMerge(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		if _, err := s.Create(t.Context(), CreateInput{Subject: "a", Metadata: map[string]any{
			"keep": "yes", "nested": map[string]any{"x": 1, "y": 2}, "replace": 1,
		}}); err != nil {
			t.Fatal(err)
		}
		got := mustUpdate(t, s, "1", UpdateInput{
			Status:   ptr(InProgress),
			Owner:    ptr("alice"),
			Subject:  ptr("a2"),
			Metadata: map[string]any{"nested": map[string]any{"z": 3}, "replace": "two", "new": true},
		})
		wantMeta := map[string]any{"keep": "yes", "nested": map[string]any{"z": float64(3)}, "replace": "two", "new": true}
		if got.Status != InProgress || got.Owner != "alice" || got.Subject != "a2" || !reflect.DeepEqual(got.Metadata, wantMeta) {
			t.Fatalf("Update returned %+v", got)
		}
		if got.UpdatedAt <= got.CreatedAt {
			t.Errorf("updatedAt %d not after createdAt %d", got.UpdatedAt, got.CreatedAt)
		}
		if again := mustGet(t, s, "1"); !reflect.DeepEqual(again, got) {
			t.Fatalf("Get after update = %+v, want %+v", again, got)
		}
		// An owner of "" removes the owner; nil fields leave things alone.
		got = mustUpdate(t, s, "1", UpdateInput{Owner: ptr("")})
		if got.Owner != "" || got.Subject != "a2" || got.Status != InProgress {
			t.Fatalf("clearing owner gave %+v", got)
		}
	})
}

func TestUpdateRejectsUnknownStatusWithoutWriting(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		before := mustCreate(t, s, "a")
		_, err := s.Update(t.Context(), "1", UpdateInput{Status: ptr(Status("done"))})
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != "status" {
			t.Fatalf("error = %v, want *InputError for status", err)
		}
		_, err = s.Update(t.Context(), "1", UpdateInput{Execution: &Execution{AgentID: "a", Status: "paused"}})
		if !errors.As(err, &ie) || ie.Field != "execution" {
			t.Fatalf("error = %v, want *InputError for execution", err)
		}
		_, err = s.Update(t.Context(), "1", UpdateInput{Metadata: map[string]any{"f": func() {}}})
		if !errors.As(err, &ie) || ie.Field != "metadata" {
			t.Fatalf("error = %v, want *InputError for metadata", err)
		}
		if got := mustGet(t, s, "1"); !reflect.DeepEqual(got, before) {
			t.Fatalf("task changed: %+v", got)
		}
	})
}

func TestEdgesAreSymmetricInBothDirections(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for _, n := range []string{"a", "b", "c"} {
			mustCreate(t, s, n)
		}
		got := mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}, AddBlocks: []string{"3"}})
		if !slices.Equal(got.BlockedBy, []string{"1"}) || !slices.Equal(got.Blocks, []string{"3"}) {
			t.Fatalf("task 2 = %+v", got)
		}
		if one := mustGet(t, s, "1"); !slices.Equal(one.Blocks, []string{"2"}) || len(one.BlockedBy) != 0 {
			t.Errorf("task 1 = %+v, want blocks [2]", one)
		}
		if three := mustGet(t, s, "3"); !slices.Equal(three.BlockedBy, []string{"2"}) || len(three.Blocks) != 0 {
			t.Errorf("task 3 = %+v, want blockedBy [2]", three)
		}
		// Adding the same edges again, from either end, duplicates nothing.
		mustUpdate(t, s, "1", UpdateInput{AddBlocks: []string{"2", "2"}})
		mustUpdate(t, s, "3", UpdateInput{AddBlockedBy: []string{"2"}})
		if two := mustGet(t, s, "2"); !slices.Equal(two.BlockedBy, []string{"1"}) || !slices.Equal(two.Blocks, []string{"3"}) {
			t.Errorf("task 2 after repeats = %+v", two)
		}
		if one := mustGet(t, s, "1"); !slices.Equal(one.Blocks, []string{"2"}) {
			t.Errorf("task 1 after repeats = %+v", one)
		}
	})
}

func TestEdgeToUnknownTaskFailsWithoutWriting(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		before := mustCreate(t, s, "a")
		for _, c := range []struct {
			in      UpdateInput
			missing string
		}{
			{UpdateInput{AddBlockedBy: []string{"9"}, Status: ptr(InProgress)}, "9"},
			{UpdateInput{AddBlocks: []string{"9"}}, "9"},
			{UpdateInput{AddBlocks: []string{"../1"}}, "../1"},
		} {
			_, err := s.Update(t.Context(), "1", c.in)
			var nf *NotFoundError
			if !errors.As(err, &nf) || nf.ID != c.missing || err.Error() != "no task '"+c.missing+"'" {
				t.Fatalf("Update(%+v) error = %v, want no task '%s'", c.in, err, c.missing)
			}
		}
		if got := mustGet(t, s, "1"); !reflect.DeepEqual(got, before) {
			t.Fatalf("task changed: %+v", got)
		}
	})
}

func TestCyclesAreRejectedWithoutWriting(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for _, n := range []string{"a", "b", "c"} {
			mustCreate(t, s, n)
		}
		mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}})
		mustUpdate(t, s, "3", UpdateInput{AddBlockedBy: []string{"2"}})
		before, err := s.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]struct {
			id string
			in UpdateInput
		}{
			"self edge":            {"1", UpdateInput{AddBlockedBy: []string{"1"}}},
			"self blocks":          {"2", UpdateInput{AddBlocks: []string{"2"}}},
			"two-task cycle":       {"1", UpdateInput{AddBlockedBy: []string{"2"}}},
			"three-task cycle":     {"1", UpdateInput{AddBlockedBy: []string{"3"}}},
			"cycle through blocks": {"3", UpdateInput{AddBlocks: []string{"1"}}},
		} {
			_, err := s.Update(t.Context(), c.id, c.in)
			if !errors.Is(err, ErrCycle) || err.Error() != "update would create a dependency cycle" {
				t.Errorf("%s: error = %v, want ErrCycle", name, err)
			}
		}
		after, err := s.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, after) {
			t.Fatalf("a rejected cycle changed the list:\nbefore %+v\nafter  %+v", before, after)
		}
	})
}

func TestReadinessRequiresCompletedDependencies(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for _, n := range []string{"dep", "work", "other"} {
			mustCreate(t, s, n)
		}
		mustUpdate(t, s, "2", UpdateInput{AddBlockedBy: []string{"1"}})
		for _, st := range []Status{InProgress, Review, Completed} {
			_, err := s.Update(t.Context(), "2", UpdateInput{Status: ptr(st)})
			var de *DependencyError
			if !errors.As(err, &de) || de.ID != "2" || !errors.Is(err, ErrUnfinished) ||
				err.Error() != "task '2' has unfinished dependencies" {
				t.Errorf("status %s with open dependency: error = %v", st, err)
			}
		}
		// Statuses that do not claim progress need no finished dependencies.
		for _, st := range []Status{Failed, Cancelled, Pending} {
			mustUpdate(t, s, "2", UpdateInput{Status: ptr(st)})
		}
		// An edge that would leave an in-progress task waiting is refused
		// too, on whichever end of the edge is in progress.
		mustUpdate(t, s, "3", UpdateInput{Status: ptr(InProgress)})
		if _, err := s.Update(t.Context(), "1", UpdateInput{AddBlocks: []string{"3"}}); !errors.Is(err, ErrUnfinished) {
			t.Errorf("edge into in-progress task: error = %v", err)
		}
		if three := mustGet(t, s, "3"); len(three.BlockedBy) != 0 {
			t.Errorf("refused edge was written: %+v", three)
		}
		mustUpdate(t, s, "1", UpdateInput{Status: ptr(Completed)})
		if got := mustUpdate(t, s, "2", UpdateInput{Status: ptr(Completed)}); got.Status != Completed {
			t.Fatalf("got %+v", got)
		}
	})
}

func TestExecutionGuards(t *testing.T) {
	running := func(agent string) *Execution { return &Execution{AgentID: agent, Status: ExecRunning} }
	cases := []struct {
		name  string
		setup []UpdateInput
		in    UpdateInput
		want  error
	}{
		{"second dispatch while running", []UpdateInput{{Execution: running("a")}}, UpdateInput{Execution: running("b")}, ErrAgentRunning},
		{"same agent dispatched twice", []UpdateInput{{Execution: running("a")}}, UpdateInput{Execution: running("a")}, ErrAgentRunning},
		{"report from another agent", []UpdateInput{{Execution: running("a")}},
			UpdateInput{Execution: &Execution{AgentID: "b", Status: ExecSucceeded}}, ErrOtherAgent},
		{"status change around running agent", []UpdateInput{{Execution: running("a")}}, UpdateInput{Status: ptr(Review)}, ErrManaged},
		{"owner change around running agent", []UpdateInput{{Execution: running("a")}}, UpdateInput{Owner: ptr("me")}, ErrManaged},
		{"dispatch to completed task", []UpdateInput{{Status: ptr(Completed)}}, UpdateInput{Execution: running("a")}, ErrReopenFirst},
		{"own agent reports with status", []UpdateInput{{Execution: running("a")}},
			UpdateInput{Status: ptr(Review), Execution: &Execution{AgentID: "a", Status: ExecSucceeded, Result: "done"}}, nil},
		{"metadata only while running", []UpdateInput{{Execution: running("a")}}, UpdateInput{Metadata: map[string]any{"k": 1}}, nil},
		{"dispatch after finished run", []UpdateInput{{Execution: &Execution{AgentID: "a", Status: ExecFailed}}}, UpdateInput{Execution: running("b")}, nil},
		{"dispatch to reopened task", []UpdateInput{{Status: ptr(Completed)}, {Status: ptr(Pending)}}, UpdateInput{Execution: running("a")}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			forEachStore(t, func(t *testing.T, s Store) {
				mustCreate(t, s, "job")
				for _, in := range c.setup {
					mustUpdate(t, s, "1", in)
				}
				before := mustGet(t, s, "1")
				got, err := s.Update(t.Context(), "1", c.in)
				if c.want == nil {
					if err != nil {
						t.Fatalf("Update: %v", err)
					}
					if c.in.Execution != nil && !reflect.DeepEqual(got.Execution, c.in.Execution) {
						t.Fatalf("execution = %+v, want %+v", got.Execution, c.in.Execution)
					}
					return
				}
				var ee *ExecutionError
				if !errors.As(err, &ee) || ee.ID != "1" || !errors.Is(err, c.want) {
					t.Fatalf("error = %v, want %v", err, c.want)
				}
				if after := mustGet(t, s, "1"); !reflect.DeepEqual(after, before) {
					t.Fatalf("refused update changed the task: %+v", after)
				}
			})
		})
	}
}

func TestExecutionErrorTexts(t *testing.T) {
	for err, want := range map[error]string{
		ErrAgentRunning: "task '4' already has a running agent",
		ErrOtherAgent:   "task '4' belongs to another agent",
		ErrManaged:      "task '4' is managed by a running agent",
		ErrReopenFirst:  "reopen completed task '4' before dispatching it",
	} {
		if got := (&ExecutionError{ID: "4", Err: err}).Error(); got != want {
			t.Errorf("%v: got %q, want %q", err, got, want)
		}
	}
}

func TestListIsSortedNumerically(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		for range 12 {
			mustCreate(t, s, "t")
		}
		ts, err := s.List(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, tk := range ts {
			ids = append(ids, tk.ID)
		}
		want := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"}
		if !slices.Equal(ids, want) {
			t.Fatalf("ids = %v, want %v", ids, want)
		}
	})
}

func TestReturnedTasksAreCopies(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		meta := map[string]any{"nested": map[string]any{"a": "b"}}
		tk, err := s.Create(t.Context(), CreateInput{Subject: "x", Metadata: meta})
		if err != nil {
			t.Fatal(err)
		}
		meta["nested"].(map[string]any)["a"] = "changed by caller"
		tk.Metadata["nested"].(map[string]any)["a"] = "changed too"
		tk.BlockedBy = append(tk.BlockedBy, "99")
		if got := mustGet(t, s, "1"); got.Metadata["nested"].(map[string]any)["a"] != "b" || len(got.BlockedBy) != 0 {
			t.Fatalf("stored task was changed through a caller's value: %+v", got)
		}
	})
}

func TestCanceledContextFailsBeforeAnything(t *testing.T) {
	forEachStore(t, func(t *testing.T, s Store) {
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		if _, err := s.Create(ctx, CreateInput{Subject: "x"}); !errors.Is(err, context.Canceled) {
			t.Fatalf("Create error = %v", err)
		}
		if ts, err := s.List(t.Context()); err != nil || len(ts) != 0 {
			t.Fatalf("List = %v, %v", ts, err)
		}
	})
}
