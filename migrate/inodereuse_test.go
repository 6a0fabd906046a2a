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
				agents = agentWrites(t, first, ino, inPlace)
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
				agents = agentWrites(t, first, ino, inPlace)
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

// agentWrites plays an agent of the destination writing the file path,
// whose inode number is ino: an append in place, or else replacements
// renamed over it until one gets the number ino (at most 20). It returns
// what the agent left there, nil if no replacement got the number.
func agentWrites(t *testing.T, path string, ino uint64, inPlace bool) []byte {
	t.Helper()
	agents := []byte("the agent's\n")
	if inPlace {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err == nil {
			_, err = f.Write(agents)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			t.Errorf("the agent's append: %v", err)
		}
		if agents, err = os.ReadFile(path); err != nil {
			t.Error(err)
		}
		return agents
	}
	for i := range 20 {
		tmp := filepath.Join(filepath.Dir(path), ".agent.tmp")
		if err := os.WriteFile(tmp, agents, 0o600); err != nil {
			t.Errorf("the agent's write: %v", err)
			return nil
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Errorf("the agent's rename: %v", err)
			return nil
		}
		st, err := os.Lstat(path)
		if err == nil && i > 0 && st.Sys().(*syscall.Stat_t).Ino == ino {
			return agents
		}
	}
	return nil // no reuse on this file system
}
