package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/archive"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/storage/codec"
	"github.com/lite-agent/lite-agent-go/store/postgres"
	"github.com/lite-agent/lite-agent-go/task"
)

// freshSchema returns a new schema name, dropped when t ends.
func freshSchema(t testing.TB) string {
	t.Helper()
	url := pgtest.URL(t)
	b := make([]byte, 6)
	rand.Read(b)
	schema := "t_" + hex.EncodeToString(b)
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Logf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE"); err != nil {
			t.Logf("drop schema %s: %v", schema, err)
		}
	})
	return schema
}

// openStore opens a store on a fresh schema, closed when t ends.
func openStore(t testing.TB, opts postgres.Options) *postgres.Store {
	t.Helper()
	url := pgtest.URL(t)
	if opts.Schema == "" {
		opts.Schema = freshSchema(t)
	}
	st, err := postgres.Open(context.Background(), url, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(st.Close)
	return st
}

// project returns a project of a store on a fresh schema.
func project(t testing.TB, enc storage.Encoding) *postgres.Project {
	t.Helper()
	p, err := openStore(t, postgres.Options{}).Project(enc)
	if err != nil {
		t.Fatalf("Project: %v", err)
	}
	return p
}

// aeadEncoding returns an XChaCha20-Poly1305 encoding with a fixed test key
// named keyID, in namespace "acme" and project "p0".
func aeadEncoding(t testing.TB, keyID string) storage.Encoding {
	t.Helper()
	key := []byte("0123456789abcdef0123456789abcdef")
	c, err := codec.NewAEAD(codec.AEADOptions{KeyID: keyID, Key: func(context.Context, string) ([]byte, error) { return key, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return storage.Encoding{Codec: c, Namespace: "acme", ProjectID: "p0"}
}

func archiveQuery(text string) archive.Query { return archive.Query{Text: text, Limit: 10} }

// importTasks imports a pending task of each id into task list list of p.
func importTasks(t *testing.T, p *postgres.Project, list string, ids []string) {
	t.Helper()
	tl, err := p.TaskList(list)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC).UnixMilli()
	var tasks []task.Task
	for _, id := range ids {
		tasks = append(tasks, task.Task{ID: id, Subject: "task " + id, Status: task.Pending, CreatedAt: now, UpdatedAt: now})
	}
	if err := tl.Import(t.Context(), tasks); err != nil {
		t.Fatal(err)
	}
}

// openProxied opens a store through a new pgtest.Proxy to the test
// database, on a fresh schema unless opts names one, closed when t ends
// (Close may be called before: it is idempotent).
func openProxied(t *testing.T, opts postgres.Options) (*pgtest.Proxy, *postgres.Store) {
	t.Helper()
	proxy, dsn := pgtest.NewProxy(t, pgtest.URL(t))
	if opts.Schema == "" {
		opts.Schema = freshSchema(t)
	}
	st, err := postgres.Open(t.Context(), dsn, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(st.Close)
	return proxy, st
}
