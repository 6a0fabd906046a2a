package task

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
)

// fillList gives s tasks with a gap in their ids, an edge, an owner,
// metadata and an execution record, the parts a copy must keep.
func fillList(t *testing.T, s Store) {
	t.Helper()
	for _, subject := range []string{"one", "two", "three"} {
		mustCreate(t, s, subject)
	}
	done, owner := Completed, "agent-1"
	mustUpdate(t, s, "1", UpdateInput{Status: &done, Metadata: map[string]any{"n": 1.5, "tags": []any{"a"}}})
	mustUpdate(t, s, "3", UpdateInput{Owner: &owner, AddBlockedBy: []string{"2"},
		Execution: &Execution{AgentID: "agent-1", Status: ExecRunning}})
}

func TestCopyKeepsIDsAndRecords(t *testing.T) {
	ctx := context.Background()
	for name, c := range codecCases(t) {
		t.Run(name, func(t *testing.T) {
			enc := storage.Encoding{Codec: c}
			dir := t.TempDir()
			src := newFile(t, dir, "s1", enc)
			fillList(t, src)
			want, err := src.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for dname, dst := range map[string]Store{"file": newFile(t, dir, "s2", enc), "memory": NewMemoryStore()} {
				n, err := Copy(ctx, dst, src)
				if err != nil || n != len(want) {
					t.Fatalf("%s: Copy = %d, %v", dname, n, err)
				}
				got, err := dst.List(ctx)
				if err != nil || !reflect.DeepEqual(got, want) {
					t.Errorf("%s: copy\n%+v\nwant\n%+v (%v)", dname, got, want, err)
				}
				// The copy goes on numbering after the copied ids.
				if next := mustCreate(t, dst, "four"); next.ID != "4" {
					t.Errorf("%s: next id %s", dname, next.ID)
				}
			}
		})
	}
}

func TestImportRefusesAndWritesNothing(t *testing.T) {
	ctx := context.Background()
	src := NewMemoryStore()
	fillList(t, src)
	tasks, _ := src.List(ctx)
	dir := t.TempDir()
	nonEmpty := newFile(t, dir, "full", storage.Encoding{})
	mustCreate(t, nonEmpty, "mine")
	for _, tc := range []struct {
		name  string
		dst   Importer
		tasks []Task
		check func(error) bool
		left  int
	}{
		{"not empty", nonEmpty, tasks, func(err error) bool { return errors.Is(err, ErrNotEmpty) }, 1},
		{"id twice", newFile(t, dir, "dup", storage.Encoding{}), append(tasks, tasks[0]), isInputError, 0},
		{"no id", NewMemoryStore(), []Task{{Subject: "x", Status: Pending}}, isInputError, 0},
		{"bad status", NewMemoryStore(), []Task{{ID: "1", Status: "done"}}, isInputError, 0},
		// Ids that differ but map to one file name: the second record
		// would replace the first, and the import lose a task.
		{"one file for a.b and a_b", newFile(t, dir, "dot", storage.Encoding{}), []Task{importable("a.b"), importable("a_b")}, isInputError, 0},
		{"one file for x/y and x_y", newFile(t, dir, "slash", storage.Encoding{}), []Task{importable("x_y"), importable("x/y")}, isInputError, 0},
		{"one file for é and _", newFile(t, dir, "accent", storage.Encoding{}), []Task{importable("é"), importable("_")}, isInputError, 0},
		// One file where case does not count (macOS).
		{"one file for A and a", newFile(t, dir, "case", storage.Encoding{}), []Task{importable("a"), importable("A")}, isInputError, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.dst.Import(ctx, tc.tasks); !tc.check(err) {
				t.Fatalf("Import: %v", err)
			}
			if got, err := tc.dst.List(ctx); err != nil || len(got) != tc.left {
				t.Errorf("the list holds %d tasks (%v), want %d", len(got), err, tc.left)
			}
		})
	}
}

func isInputError(err error) bool {
	var ie *InputError
	return errors.As(err, &ie)
}

// importable returns a pending task with id, as an import takes it.
func importable(id string) Task {
	return Task{ID: id, Subject: "task " + id, Status: Pending, Blocks: []string{}, BlockedBy: []string{}}
}

// A task id whose file name differs from it ("a.b" is stored as a_b.json)
// is still the record id an encoded record is sealed under, as the
// reference's envelope says (recordId: the task id): with an AEAD codec,
// such a task reads back after an import, and after an update.
func TestEncodedTaskWithAnIDUnlikeItsFileName(t *testing.T) {
	ctx := context.Background()
	enc := storage.Encoding{Codec: newAEAD(t, codec.XChaCha20Poly1305, "k1", testKey("k1"))}
	s := newFile(t, t.TempDir(), "list", enc)
	ids := []string{"1", "a.b", "sub/dir", "é"}
	var tasks []Task
	for _, id := range ids {
		tasks = append(tasks, importable(id))
	}
	if err := s.Import(ctx, tasks); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		if _, ok, err := s.Get(ctx, id); err != nil || !ok {
			t.Errorf("Get(%q) after Import = %v, %v", id, ok, err)
		}
	}
	if got, err := s.List(ctx); err != nil || len(got) != len(ids) {
		t.Errorf("List after Import = %d tasks, %v; want %d", len(got), err, len(ids))
	}
	subject := "renamed"
	if _, err := s.Update(ctx, "a.b", UpdateInput{Subject: &subject}); err != nil {
		t.Errorf("Update(a.b): %v", err)
	}
	if got, ok, err := s.Get(ctx, "a.b"); err != nil || !ok || got.Subject != subject {
		t.Errorf("Get(a.b) after Update = %+v, %v, %v", got, ok, err)
	}
}
