package session_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/session"
)

// What the lock protocol leaves in a sessions directory (the parked lock
// directory, and after a kill a claim or a stale lock set aside) is no
// session: List, Summaries, Copies and Verify leave it out, and the store
// keeps working with it there, whatever was planted under the parked name.
func TestLockLeftoversAreNoSessions(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, idle string)
	}{
		{"parked by appends", func(*testing.T, string) {}},
		{"file at the parked name", func(t *testing.T, idle string) {
			if err := os.WriteFile(idle, []byte("keep"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"symlink at the parked name", func(t *testing.T, idle string) {
			if err := os.Symlink(t.TempDir(), idle); err != nil {
				t.Fatal(err)
			}
		}},
		{"non-empty directory at the parked name", func(t *testing.T, idle string) {
			if err := os.Mkdir(idle, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(idle, "keep"), []byte("keep"), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cp := newCP(t, dir, session.FileOptions{})
			idle := filepath.Join(dir, filelock.IdleName)
			tc.plant(t, idle)
			for _, n := range []string{".claim-0123456789ab.lock", ".stale-0123456789ab.lock"} {
				if err := os.Mkdir(filepath.Join(dir, n), 0o700); err != nil {
					t.Fatal(err)
				}
			}
			planted := dirSnapshot(t, dir)
			appendTexts(t, cp, "a", "one")
			appendTexts(t, cp, "b", "two")
			appendTexts(t, cp, "a", "three")
			if got := readTexts(t, cp, "a"); !slices.Equal(got, []string{"one", "three"}) {
				t.Errorf("a = %q", got)
			}
			infos, err := cp.List(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, in := range infos {
				ids = append(ids, in.ID)
			}
			slices.Sort(ids)
			if !slices.Equal(ids, []string{"a", "b"}) {
				t.Errorf("List = %q", ids)
			}
			sums, err := cp.Summaries(t.Context())
			if err != nil || len(sums) != 2 {
				t.Errorf("Summaries = %d, %v", len(sums), err)
			}
			for _, id := range []string{"a", "b"} {
				if copies, err := cp.Copies(id); err != nil || len(copies) != 0 {
					t.Errorf("Copies(%s) = %q, %v", id, copies, err)
				}
				if probs, err := cp.Verify(t.Context(), id); err != nil || len(probs) != 0 {
					t.Errorf("Verify(%s) = %v, %v", id, probs, err)
				}
			}
			if err := cp.Delete(t.Context(), "b"); err != nil {
				t.Fatal(err)
			}
			release, err := cp.Hold(t.Context(), "a")
			if err != nil {
				t.Fatal(err)
			}
			appendTexts(t, cp, "a", "four")
			if err := release(); err != nil {
				t.Fatal(err)
			}
			// Nothing planted was lost: only the logs and, where the
			// parked name was free, the parked directory are new.
			after := dirSnapshot(t, dir)
			for k, v := range planted {
				if after[k] != v {
					t.Errorf("%s changed or gone", k)
				}
			}
			for k := range after {
				if _, ok := planted[k]; !ok && k != "a.jsonl" && k != filelock.IdleName+"/" {
					t.Errorf("left behind: %s", k)
				}
			}
		})
	}
}
