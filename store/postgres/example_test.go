package postgres_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// useProject is the package documentation's example, with its errors
// checked: the four stores of one project, written under the session's
// lease. It returns what it read back.
func useProject(ctx context.Context, dsn string, opts postgres.Options, c storage.Codec, paths storage.ProjectPaths, sessionID, listID string) (string, error) {
	st, err := postgres.Open(ctx, dsn, opts)
	if err != nil {
		return "", err
	}
	defer st.Close()
	p, err := st.Project(storage.Encoding{Codec: c, Namespace: "acme", ProjectID: paths.Hash})
	if err != nil {
		return "", err
	}
	lease, err := p.Acquire(ctx, sessionID, postgres.LeaseOptions{}) // one writer per session
	if err != nil {
		return "", err
	}
	defer lease.Release(ctx)
	var cp session.Checkpointer = p.Checkpointer()
	tl, err := p.TaskList(listID)
	if err != nil {
		return "", err
	}
	ar, err := p.Archive(sessionID, 0)
	if err != nil {
		return "", err
	}
	var sp spill.Store = p.Spill()

	if _, err := cp.Append(ctx, sessionID, []session.Event{session.UserEvent{Message: model.UserText("hello")}}, 0); err != nil {
		return "", err
	}
	if _, err := task.Store(tl).Create(ctx, task.CreateInput{Subject: "Ship it"}); err != nil {
		return "", err
	}
	entry, err := ar.Put(ctx, "a long tool result", nil)
	if err != nil {
		return "", err
	}
	ref, err := sp.Put(ctx, "a spilled body")
	if err != nil {
		return "", err
	}
	events, err := cp.Read(ctx, sessionID, 0)
	if err != nil {
		return "", err
	}
	tasks, err := tl.Render(ctx, task.RenderOptions{})
	if err != nil {
		return "", err
	}
	page, err := ar.Read(ctx, archive.ReadRequest{Ref: entry.Ref})
	if err != nil {
		return "", err
	}
	body, _, err := sp.Get(ctx, ref)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d event(s); %s; archived %v; spilled %q", len(events), tasks, len(page) > 0, body), nil
}

// Example_project uses the stores of one project, as the package
// documentation shows. It needs a database: see TestPackageDocExample.
func Example_project() {
	ctx := context.Background()
	c := codec.Gzip()
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: ".", Storage: storage.Options{Namespace: "acme"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := useProject(ctx, "postgres://agent@db.internal/agents", postgres.Options{}, c, paths, "s1", "backlog")
	fmt.Println(out, err)
}

// TestPackageDocExample runs the package documentation's example against
// the test database.
func TestPackageDocExample(t *testing.T) {
	dsn := pgtest.URL(t)
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: t.TempDir(), Storage: storage.Options{Namespace: "acme"}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := useProject(t.Context(), dsn, postgres.Options{Schema: freshSchema(t)}, codec.Gzip(), paths, "s1", "backlog")
	if err != nil {
		t.Fatal(err)
	}
	want := `1 event(s); [ ] #1 Ship it (pending); archived true; spilled "a spilled body"`
	if out != want {
		t.Errorf("got  %s\nwant %s", out, want)
	}
}
