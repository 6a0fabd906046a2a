package migrate_test

import (
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/spill"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A spilled body is stored under the hash of its content, and a Put of a
// content already stored reuses the file (refreshing its time). An agent
// of the destination that spills, during a migration, an output the
// migration has just copied gets the migrated file's ref and records it.
// When the copy then fails, its clean-up must keep that file: it is the
// agent's too now. With the inode number as the only test it went, and the
// agent's ref read nothing.
func TestFailedMigrationKeepsASpilledBodyAnAgentReused(t *testing.T) {
	opts, dst := toNewHome(t)
	opts.Workers = 1
	enc := storage.Encoding{Codec: opts.To.Storage.Codec, Namespace: dst.Namespace, ProjectID: dst.Hash}
	bodies := []string{"spilled " + secret, strings.Repeat("big output "+secret+"\n", 500)}
	var (
		mu    sync.Mutex
		first string // the first spilled body the migration wrote
		refs  []string
		// reused are the contents of refs.
		reused []string
		done   bool
	)
	migrate.OnWrite(&opts, func(rel string) error {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case done:
			return syscall.ENOSPC
		case first == "" && strings.Contains(rel, "spill"):
			first = rel
			return nil
		case first == "" || rel == first:
			return nil
		}
		// The body is copied: the agent spills the same outputs.
		done = true
		sp, err := spill.NewFileStore(dst.SpillDir, enc)
		if err != nil {
			t.Error(err)
			return syscall.ENOSPC
		}
		for _, b := range bodies {
			if spill.Ref(b)+spill.FileSuffix != filepath.Base(first) {
				continue // not copied yet
			}
			ref, err := sp.Put(t.Context(), b)
			if err != nil {
				t.Errorf("the agent's Put: %v", err)
			}
			refs = append(refs, ref)
			reused = append(reused, b)
		}
		return syscall.ENOSPC
	})
	if _, err := migrate.Run(t.Context(), opts); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Run: %v, want ENOSPC", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if !done || len(refs) != 1 {
		t.Fatalf("the migration wrote no file after its first spilled body, or that was none of the fixture's: %q", first)
	}
	sp, err := spill.NewFileStore(dst.SpillDir, enc)
	if err != nil {
		t.Fatal(err)
	}
	for i, ref := range refs {
		if got, ok, err := sp.Get(t.Context(), ref); err != nil || !ok || got != reused[i] {
			t.Errorf("the agent's spilled body %s after the failed migration: %d bytes, %v, %v", ref, len(got), ok, err)
		}
	}
}
