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

// A failed migration removes the files it created, told by their device
// and inode numbers. An agent of the destination that replaces one of them
// atomically (a temporary file renamed over it), twice, frees the
// migration's inode with the first rename, and the file system may give
// that very number to the second temporary file (ext4 does at once): the
// file now at the path is the agent's, with the migration's inode number.
// The clean-up must keep it. So must it keep a file the agent wrote to in
// place since (same inode, other contents).
func TestFailedMigrationKeepsAFileReplacedWithAReusedInode(t *testing.T) {
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
				first  string // the first file the migration wrote
				ino    uint64 // its inode number
				agents []byte // what the agent left there
				done   bool
			)
			migrate.OnWrite(&opts, func(rel string) error {
				mu.Lock()
				defer mu.Unlock()
				path := filepath.Join(dst.ProjectDir(), rel)
				switch {
				case done:
					return syscall.ENOSPC
				case first == "":
					st, err := os.Lstat(path)
					if err != nil {
						t.Errorf("the migration's file: %v", err)
						return syscall.ENOSPC
					}
					first, ino = path, st.Sys().(*syscall.Stat_t).Ino
					return nil
				case path == first:
					return nil
				}
				// The migration has finished first and moved on: the
				// agent writes it now.
				done = true
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
					agents = nil // read it back below
					if agents, err = os.ReadFile(first); err != nil {
						t.Error(err)
					}
					return syscall.ENOSPC
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
						return syscall.ENOSPC
					}
				}
				agents = nil // no reuse on this file system
				return syscall.ENOSPC
			})
			_, err := migrate.Run(t.Context(), opts)
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("Run: %v, want ENOSPC", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if !done {
				t.Fatal("the migration wrote fewer than two files")
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
