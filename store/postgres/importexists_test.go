package postgres_test

import (
	"errors"
	"io/fs"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// An import of something already stored (a session, an archive, a task
// list, a spilled body) is refused with a *storage.Error (Op "import", its
// kind) that matches fs.ErrExist, as a file that exists does, and leaves
// what is stored: a caller tells it apart from a failure with errors.As
// and errors.Is, not by its text. The spilled body's was a bare string.
// ImportFiles into a project that holds records matches
// migrate.ErrDestinationNotEmpty, as a migration into a destination that
// is not empty does.
func TestAnImportOfWhatExistsIsTyped(t *testing.T) {
	ctx := t.Context()
	p := project(t, storage.Encoding{ProjectID: "exists"})
	appendN(t, p, "s1", 1)
	index, notes := func() ([][]byte, map[string][]byte) {
		a, err := p.Archive("s1", 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Put(ctx, "the note", nil); err != nil {
			t.Fatal(err)
		}
		index, notes, err := p.ExportArchive(ctx, "s1")
		if err != nil {
			t.Fatal(err)
		}
		return index, notes
	}()
	records, _, err := p.ExportSession(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	ref := spill.Ref("the body")
	if err := p.ImportSpill(ctx, ref, []byte("first"), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := p.ImportTaskList(ctx, "l1", map[string][]byte{"1": []byte("task")}, false); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind  storage.Kind
		write func() error
	}{
		{storage.KindCheckpoint, func() error { return p.ImportSession(ctx, "s1", records, time.Now()) }},
		{storage.KindArchive, func() error { return p.ImportArchive(ctx, "s1", index, notes) }},
		{storage.KindTask, func() error {
			return p.ImportTaskList(ctx, "l1", map[string][]byte{"2": []byte("other")}, false)
		}},
		{storage.KindSpill, func() error { return p.ImportSpill(ctx, ref, []byte("second"), time.Now()) }},
	} {
		err := tc.write()
		var se *storage.Error
		if !errors.As(err, &se) || se.Op != "import" || se.Kind != tc.kind || !errors.Is(err, fs.ErrExist) {
			t.Errorf("%s import of one that exists = %v; want a *storage.Error (import, %s) matching fs.ErrExist", tc.kind, err, tc.kind)
		}
	}
	var bodies []string
	if err := p.ExportSpill(ctx, func(_ string, body []byte, _ time.Time) error {
		bodies = append(bodies, string(body))
		return nil
	}); err != nil || len(bodies) != 1 || bodies[0] != "first" {
		t.Errorf("the spilled bodies = %q, %v; want the first, kept", bodies, err)
	}

	paths, _ := importSource(t)
	var into *postgres.Project = project(t, storage.Encoding{Namespace: paths.Namespace, ProjectID: paths.Hash})
	appendN(t, into, "its-own", 1)
	if _, err := into.ImportFiles(ctx, paths); !errors.Is(err, migrate.ErrDestinationNotEmpty) {
		t.Errorf("ImportFiles into a project with records = %v; want it to match migrate.ErrDestinationNotEmpty", err)
	}
}
