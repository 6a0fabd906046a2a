package liteagent_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	liteagent "github.com/lite-agent/lite-agent-go"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/storage"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// A fork paused between copying the session's data and writing its log
// for longer than the sweep's MaxAge has its copy taken for a dead fork's
// leftover and swept. It must then fail with a *storage.ForkMarkLostError
// (inside a *liteagent.ForkError), leave nothing of the new session, and
// leave the source untouched, instead of reporting a fork whose archive
// and task list are gone.
func TestAForkWhoseCopyIsSweptWhilePausedFails(t *testing.T) {
	f := newFixture(t)
	opts := f.options(aeadCodec(t, "k1"))
	opts.ContextWindow = 4000
	a := f.agent(t, opts)
	sessionWithData(t, f, a)
	orig := a.SessionID()
	paths := a.Paths()
	before := treeBytes(t, f.home)

	var swept retention.Report
	liteagent.SetForkPaused(a, func(newID string) {
		// The copy is two hours old by the time the sweep runs; the source
		// is young.
		old := time.Now().Add(-2 * time.Hour)
		for _, root := range []string{paths.ArchiveDir(newID), filepath.Join(paths.TasksDir, newID)} {
			_ = filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
				if err == nil {
					err = os.Chtimes(p, old, old)
				}
				return err
			})
		}
		var err error
		swept, err = retention.Sweep(t.Context(), retention.Options{Home: f.home, MaxAge: time.Hour})
		if err != nil {
			t.Error(err)
		}
	})
	newID, err := a.Fork(t.Context(), orig, liteagent.ForkAtHead)
	var lost *storage.ForkMarkLostError
	var fe *liteagent.ForkError
	if !errors.As(err, &lost) || !errors.As(err, &fe) {
		t.Fatalf("the fork whose copy was swept (%+v) returned %q, %v; want a *storage.ForkMarkLostError in a *liteagent.ForkError", swept.Removed, newID, err)
	}
	if len(swept.Removed) == 0 {
		t.Fatal("the sweep removed nothing of the paused fork's copy")
	}
	if got := treeBytes(t, f.home); !maps.EqualFunc(got, before, func(a, b string) bool { return a == b }) {
		for p := range got {
			if _, ok := before[p]; !ok {
				t.Errorf("left after the failed fork: %s", p)
			}
		}
		for p, b := range before {
			if got[p] != b {
				t.Errorf("changed or removed by the failed fork: %s", p)
			}
		}
	}
}

// treeBytes maps every regular file under root (lock directories aside)
// to its content.
func treeBytes(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && filepath.Ext(p) == ".lock" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The PostgreSQL form of TestAForkWhoseCopyIsSweptWhilePausedFails: the
// store's sweep (Store.Sweep) removes the paused fork's marked copy, and
// ClearForking finds the mark gone. The fork holds its new session's
// lease while it works, which keeps its copy from a sweep as long as the
// lease lives: here it is paused past the end of that lease too, and
// then its log's append finds the lease lost (a
// *postgres.LeaseLostError) before ClearForking looks.
func TestAForkWhoseCopyIsSweptInPostgresWhilePausedFails(t *testing.T) {
	ctx := t.Context()
	st, url, schema := forkStore(t, pgtest.URL(t))
	f := newFixture(t)
	opts := f.options(aeadCodec(t, "k1"))
	opts.ContextWindow = 4000
	opts.Store = st
	a := f.agent(t, opts)
	sessionWithData(t, f, a)
	orig := a.SessionID()
	enc := encodingOf(a, opts)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, q := range []string{
			`SELECT 'event ' || session || ' ' || seq, encode(data, 'hex') FROM ` + schema + `.events`,
			`SELECT 'note ' || session || ' ' || ref, encode(data, 'hex') FROM ` + schema + `.archive_notes`,
			`SELECT 'index ' || session || ' ' || ref, encode(data, 'hex') FROM ` + schema + `.archive_index`,
			`SELECT 'task ' || list || ' ' || id, encode(data, 'hex') FROM ` + schema + `.tasks`,
			`SELECT 'list ' || list, shared::text FROM ` + schema + `.task_lists`,
			`SELECT 'archive ' || session, entries::text FROM ` + schema + `.archives`,
			`SELECT 'session ' || session, head::text FROM ` + schema + `.sessions`,
			`SELECT 'lease ' || session, holder FROM ` + schema + `.leases WHERE starts_with(session, '.fork')`,
		} {
			r, err := conn.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for r.Next() {
				var k, v string
				if err := r.Scan(&k, &v); err != nil {
					t.Fatal(err)
				}
				out[k] = v
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
		}
		return out
	}
	before := rows()

	var swept postgres.SweepReport
	liteagent.SetForkPaused(a, func(newID string) {
		for _, stmt := range []string{
			`UPDATE ` + schema + `.archives SET modified = modified - interval '2 hours' WHERE session = '` + newID + `'`,
			`UPDATE ` + schema + `.task_lists SET modified = modified - interval '2 hours' WHERE list = '` + newID + `'`,
			`UPDATE ` + schema + `.leases SET expires = expires - interval '2 hours' WHERE session = '.fork-incomplete:` + newID + `'`,
			`UPDATE ` + schema + `.leases SET expires = expires - interval '2 hours' WHERE session = '` + newID + `'`,
		} {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				t.Error(err)
			}
		}
		var err error
		swept, err = st.Sweep(ctx, postgres.SweepOptions{Namespace: enc.Namespace, MaxAge: time.Hour})
		if err != nil {
			t.Error(err)
		}
	})
	newID, err := a.Fork(ctx, orig, liteagent.ForkAtHead)
	var lost *storage.ForkMarkLostError
	var fe *liteagent.ForkError
	var leaseLost *postgres.LeaseLostError
	if !errors.As(err, &leaseLost) && (!errors.As(err, &lost) || !errors.As(err, &fe)) {
		t.Fatalf("the fork whose copy was swept (%+v) returned %q, %v; want its lease lost, or a *storage.ForkMarkLostError in a *liteagent.ForkError", swept.ForkLeftovers, newID, err)
	}
	if len(swept.ForkLeftovers) != 1 {
		t.Fatalf("the sweep removed %+v, not the paused fork's copy", swept.ForkLeftovers)
	}
	after := rows()
	for k, v := range after {
		if before[k] != v {
			t.Errorf("left or changed by the failed fork: %s", k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			t.Errorf("removed by the failed fork: %s", k)
		}
	}
}
