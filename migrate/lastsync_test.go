package migrate_test

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The last sync of the destination runs while the migration checks that
// no copied session was deleted meanwhile, not after that check: it must
// still begin only once the copy has written everything, so that it makes
// every file, as the finished migration leaves it, durable before the
// marker goes. The test takes the destination's state when that sync
// returns (every file's size and modification time) and compares it with
// the state the finished migration left: a sync begun while a worker still
// writes sees less. A failure of that sync fails the migration, which then
// keeps nothing.
func TestTheLastSyncFollowsTheLastWrite(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the sync hook runs on Linux only")
	}
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	addLogs(t, src.paths.SessionsDir, 200, 30)
	for _, fail := range []bool{false, true} {
		t.Run(fmt.Sprintf("fails=%v", fail), func(t *testing.T) {
			opts := migrate.Options{
				From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
				To:   migrate.Endpoint{Storage: storage.Options{Home: t.TempDir(), Codec: aead(t, "k1", 1)}},
			}
			root := filepath.Join(opts.To.Storage.Home, "projects", src.paths.Hash)
			var synced map[string]string
			calls := 0
			migrate.OnLastSync(&opts, func() error {
				calls++
				var err error
				if synced, err = fileStates(root); err != nil {
					return err
				}
				if fail {
					return syscall.EIO
				}
				return nil
			})
			_, err := migrate.Run(t.Context(), opts)
			if calls != 1 {
				t.Errorf("%d syncs, want the last one only", calls)
			}
			if fail {
				if !errors.Is(err, syscall.EIO) {
					t.Fatalf("Run = %v, want the sync's EIO", err)
				}
				if left := files(t, root); len(left) != 0 {
					t.Errorf("the failed migration left %v", left)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			now, err := fileStates(root)
			if err != nil {
				t.Fatal(err)
			}
			delete(synced, migrate.MarkerName) // removed after the sync
			if !maps.Equal(synced, now) {
				for name, st := range now {
					if synced[name] != st {
						t.Errorf("%s: %q when the last sync returned, %q when the migration ended", name, synced[name], st)
					}
				}
				t.Fatalf("the last sync saw %d files, the migration left %d", len(synced), len(now))
			}
		})
	}
}

// addLogs writes n plaintext session logs of events records each to dir,
// as the session store writes them.
func addLogs(t *testing.T, dir string, n, events int) {
	t.Helper()
	ts := time.Date(2026, 7, 22, 12, 0, 0, 0, time.UTC)
	for s := range n {
		sid := fmt.Sprintf("bulk%04d", s)
		var buf []byte
		for i := 1; i <= events; i++ {
			ev := session.UserEvent{Message: model.UserText(strings.Repeat("lorem ipsum ", 20))}
			rec, err := session.StoredEvent{Seq: int64(i), SessionID: sid, ParentSeq: int64(i - 1), Time: ts, Event: ev}.MarshalJSON()
			if err != nil {
				t.Fatal(err)
			}
			buf = append(append(buf, rec...), '\n')
		}
		if err := os.WriteFile(filepath.Join(dir, sid+session.LogSuffix), buf, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// fileStates maps every regular file under root (relative) to its size
// and modification time. It runs in the migration's goroutine, so it
// returns its error rather than failing the test.
func fileStates(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		out[rel] = fmt.Sprintf("%d bytes, %s", st.Size(), st.ModTime().Format(time.RFC3339Nano))
		return err
	})
	return out, err
}
