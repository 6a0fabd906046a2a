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
	eachAgentWrite(t, func(t *testing.T, r *inodeReuse, opts *migrate.Options) {
		r.onWrite(opts, func(path string) error {
			switch {
			case r.wrote:
				return syscall.ENOSPC
			case r.first == "":
				return r.mark(t, path, nil)
			case path == r.first:
				return nil
			}
			// The migration has finished first and moved on: the
			// agent writes it now.
			r.agentWrites(t)
			return syscall.ENOSPC
		})
		r.failAndKeep(t, *opts, "the migration wrote fewer than two files")
	})
}

// TestFailedMigrationKeepsAFileReplacedWithAReusedInode for a file the
// migration did not finish: its first write fails, the file is closed as
// it is, and before the clean-up an agent of the destination replaces it
// atomically, twice, the second file getting the migration's inode number
// (ext4 gives it at once), or appends to it in place. The clean-up must
// keep the agent's file: the migration recorded the file's whole state as
// it closed it, not only its inode number.
func TestFailedMigrationKeepsAnUnfinishedFileReplacedWithAReusedInode(t *testing.T) {
	eachAgentWrite(t, func(t *testing.T, r *inodeReuse, opts *migrate.Options) {
		r.onWrite(opts, func(path string) error {
			if r.first == "" {
				return r.mark(t, path, syscall.ENOSPC)
			}
			return syscall.ENOSPC
		})
		migrate.OnCopied(opts, func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.first != "" {
				r.agentWrites(t)
			}
		})
		r.failAndKeep(t, *opts, "the migration wrote nothing")
	})
}

// inodeReuse is an agent of the destination that writes over a file of
// a migration that fails (ENOSPC), as the test arranges through the
// migration's hooks, holding mu.
type inodeReuse struct {
	inPlace bool   // the agent appends in place, not replaces the file
	dir     string // the destination's project directory

	mu     sync.Mutex
	first  string // the migration's file the agent writes
	ino    uint64 // its inode number
	wrote  bool   // the agent wrote it
	agents []byte // what the agent left there; nil if no replacement got the inode number
}

// eachAgentWrite runs test as subtests for an agent that replaces the
// migration's file and for one that appends to it, each with the options
// of a migration (one worker) to a new home.
func eachAgentWrite(t *testing.T, test func(*testing.T, *inodeReuse, *migrate.Options)) {
	for _, inPlace := range []bool{false, true} {
		name := "replaced"
		if inPlace {
			name = "appended"
		}
		t.Run(name, func(t *testing.T) {
			opts, dst := toNewHome(t)
			opts.Workers = 1
			test(t, &inodeReuse{inPlace: inPlace, dir: dst.ProjectDir()}, &opts)
		})
	}
}

// onWrite has f, holding r.mu, say how each write of the migration to
// the destination ends, given the file's path.
func (r *inodeReuse) onWrite(opts *migrate.Options, f func(path string) error) {
	migrate.OnWrite(opts, func(rel string) error {
		r.mu.Lock()
		defer r.mu.Unlock()
		return f(filepath.Join(r.dir, rel))
	})
}

// mark takes path, just written by the migration, as the file the agent
// writes, and returns ret, the write's result (ENOSPC if path is gone).
func (r *inodeReuse) mark(t *testing.T, path string, ret error) error {
	st, err := os.Lstat(path)
	if err != nil {
		t.Errorf("the migration's file: %v", err)
		return syscall.ENOSPC
	}
	r.first, r.ino = path, st.Sys().(*syscall.Stat_t).Ino
	return ret
}

// agentWrites has the agent write the marked file (see agentWrites).
func (r *inodeReuse) agentWrites(t *testing.T) {
	r.wrote = true
	r.agents = agentWrites(t, r.first, r.ino, r.inPlace)
}

// failAndKeep runs the migration, which must fail with ENOSPC, and fails
// t unless the agent wrote (else: notWritten) and its file is what it
// left there. It skips t where the file system did not reuse the inode.
func (r *inodeReuse) failAndKeep(t *testing.T, opts migrate.Options, notWritten string) {
	t.Helper()
	_, err := migrate.Run(t.Context(), opts)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Run: %v, want ENOSPC", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.wrote {
		t.Fatal(notWritten)
	}
	if r.agents == nil {
		t.Skip("this file system did not reuse the inode number")
	}
	if got, err := os.ReadFile(r.first); err != nil || string(got) != string(r.agents) {
		t.Errorf("the agent's %s after the failed migration: %d bytes, %v; want its %d bytes", r.first, len(got), err, len(r.agents))
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
