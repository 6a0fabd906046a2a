package task

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

func TestRecordStem(t *testing.T) {
	for _, tt := range []struct {
		name, stem string
		ok         bool
	}{
		{"1.json", "1", true},
		{".._secret.json", ".._secret", true},
		{".json", "", false},
		{"1.json.tmp", "", false},
		{SharedMarker, "", false},
	} {
		if stem, ok := RecordStem(tt.name); stem != tt.stem || ok != tt.ok {
			t.Errorf("RecordStem(%q) = %q, %v; want %q, %v", tt.name, stem, ok, tt.stem, tt.ok)
		}
	}
}

func TestDeleteList(t *testing.T) {
	tasksDir := t.TempDir()
	for _, id := range []string{"mine", "other"} {
		st, err := NewFileStore(tasksDir, id, storage.Encoding{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.Create(t.Context(), CreateInput{Subject: "s"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := DeleteList(t.Context(), tasksDir, "mine"); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(tasksDir)
	if len(ents) != 1 || ents[0].Name() != "other" {
		t.Errorf("left %v, want only the other list", ents)
	}
	if err := DeleteList(t.Context(), tasksDir, "mine"); err != nil {
		t.Errorf("deleting a missing list = %v, want nil", err)
	}
	var se *storage.Error
	if err := DeleteList(t.Context(), tasksDir, "../other"); !errors.As(err, &se) {
		t.Errorf("an invalid list id = %v, want a *storage.Error", err)
	}
	if _, err := os.Stat(filepath.Join(tasksDir, "other")); err != nil {
		t.Errorf("the other list is gone: %v", err)
	}
}

// A list that another process marks shared and writes to while a
// session's deletion waits for the list's lock stays: DeletePrivateList
// looks at the mark once the lock is held. DeleteList, which does not,
// would remove the shared list's task with it.
func TestDeletePrivateListKeepsAListMarkedSharedMeanwhile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	private := newFile(t, dir, "s1", storage.Encoding{})
	mustCreate(t, private, "the session's own")

	// The other process holds the list's lock, as a write of its store
	// does, while the deletion starts.
	parent, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := parent.Lock(ctx, "s1", filelock.Options{})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var removed bool
	go func() {
		var err error
		removed, err = DeletePrivateList(ctx, dir, "s1")
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // the deletion waits for the lock
	shared := newFile(t, dir, "s1", storage.Encoding{})
	if err := shared.MarkShared(); err != nil {
		t.Fatal(err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil || removed {
		t.Fatalf("DeletePrivateList = %v, %v; want false, nil", removed, err)
	}
	if !IsShared(dir, "s1") {
		t.Fatal("the list lost its shared mark")
	}
	if got, err := shared.List(ctx); err != nil || len(got) != 1 {
		t.Errorf("the shared list holds %d tasks (%v), want 1", len(got), err)
	}

	// A list not marked shared goes; a missing one is not an error.
	mustCreate(t, newFile(t, dir, "s2", storage.Encoding{}), "x")
	if removed, err := DeletePrivateList(ctx, dir, "s2"); err != nil || !removed {
		t.Errorf("DeletePrivateList(s2) = %v, %v; want true, nil", removed, err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "s2")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("s2 is still there: %v", err)
	}
	if removed, err := DeletePrivateList(ctx, dir, "none"); err != nil || removed {
		t.Errorf("DeletePrivateList(none) = %v, %v; want false, nil", removed, err)
	}
}

func TestStoredUnder(t *testing.T) {
	for _, tt := range []struct {
		id, stem string
		want     bool
	}{
		{"1", "1", true}, {"a.b", "a_b", true}, {"a.b", "a.b", true}, {"é.x", "_.x", true}, {"é.x", "__x", true},
		{"a", "b", false}, {"a.b", "a", false}, {"A", "a", false},
	} {
		if got := StoredUnder(tt.id, tt.stem); got != tt.want {
			t.Errorf("StoredUnder(%q, %q) = %v, want %v", tt.id, tt.stem, got, tt.want)
		}
	}
}
