package migrate_test

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
)

// TestFailedMigrationKeepsAFileReplacedWithAReusedInode for a file the
// migration did not finish: its first write fails, the file is closed as
// it is, and before the clean-up an agent of the destination replaces it
// atomically, twice, the second file getting the migration's inode number
// (ext4 gives it at once), or appends to it in place. The clean-up must
// keep the agent's file: the migration recorded the file's whole state as
// it closed it, not only its inode number.
func TestFailedMigrationKeepsAnUnfinishedFileReplacedWithAReusedInode(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		name := "replaced"
		if inPlace {
			name = "appended"
		}
		t.Run(name, func(t *testing.T) {
			opts, dst := toNewHome(t)
			opts.Workers = 1
			var (
				mu     sync.Mutex
				first  string // the file whose first write failed
				ino    uint64
				agents []byte
			)
			migrate.OnWrite(&opts, func(rel string) error {
				mu.Lock()
				defer mu.Unlock()
				if first == "" {
					path := filepath.Join(dst.ProjectDir(), rel)
					st, err := os.Lstat(path)
					if err != nil {
						t.Errorf("the migration's file: %v", err)
						return syscall.ENOSPC
					}
					first, ino = path, st.Sys().(*syscall.Stat_t).Ino
				}
				return syscall.ENOSPC
			})
			migrate.OnCopied(&opts, func() {
				mu.Lock()
				defer mu.Unlock()
				if first == "" {
					return
				}
				agents = []byte("the agent's\n")
				if inPlace {
					f, err := os.OpenFile(first, os.O_WRONLY|os.O_APPEND, 0)
					if err == nil {
						_, err = f.Write(agents)
						err = errors.Join(err, f.Close())
					}
					if err != nil {
						t.Errorf("the agent's append: %v", err)
					}
					if agents, err = os.ReadFile(first); err != nil {
						t.Error(err)
					}
					return
				}
				for i := range 20 {
					tmp := filepath.Join(filepath.Dir(first), ".agent.tmp")
					if err := os.WriteFile(tmp, agents, 0o600); err != nil {
						t.Errorf("the agent's write: %v", err)
						break
					}
					if err := os.Rename(tmp, first); err != nil {
						t.Errorf("the agent's rename: %v", err)
						break
					}
					st, err := os.Lstat(first)
					if err == nil && i > 0 && st.Sys().(*syscall.Stat_t).Ino == ino {
						return
					}
				}
				agents = nil // no reuse on this file system
			})
			_, err := migrate.Run(t.Context(), opts)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("Run: %v, want ENOSPC", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if first == "" {
				t.Fatal("the migration wrote nothing")
			}
			if agents == nil {
				t.Skip("this file system did not reuse the inode number")
			}
			if got, err := os.ReadFile(first); err != nil || string(got) != string(agents) {
				t.Errorf("the agent's %s after the failed migration: %d bytes, %v; want its %d bytes", first, len(got), err, len(agents))
			}
		})
	}
}
