//go:build unix

package safefs_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// TestAppendRefusesAHardLinkedFile plants, under a record's name, a hard
// link to a file outside the store (as a home copied with cp -a, unpacked
// from an archive or planted on a shared disk may hold): appending to it
// would write the outside file. OpenAppend and Append refuse it with a
// *storage.Error (IsHardLinked), and so does Touch: the outside file keeps
// its bytes and its times. A file with one link is appended to as before.
func TestAppendRefusesAHardLinkedFile(t *testing.T) {
	for _, tc := range []struct {
		name   string
		linked bool
		append func(d *safefs.Dir) error
	}{
		{"OpenAppend", true, func(d *safefs.Dir) error {
			f, err := d.OpenAppend("rec.jsonl", false)
			if err != nil {
				return err
			}
			defer f.Close()
			return safefs.Write(f, []byte("x\n"), true)
		}},
		{"OpenAppend create", true, func(d *safefs.Dir) error {
			f, err := d.OpenAppend("rec.jsonl", true)
			if err != nil {
				return err
			}
			defer f.Close()
			return safefs.Write(f, []byte("x\n"), true)
		}},
		{"Append", true, func(d *safefs.Dir) error { return d.Append("rec.jsonl", []byte("x\n"), true) }},
		{"Touch", true, func(d *safefs.Dir) error { return d.Touch("rec.jsonl", time.Now()) }},
		{"Append one link", false, func(d *safefs.Dir) error { return d.Append("rec.jsonl", []byte("x\n"), true) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			d, err := safefs.Anchor(filepath.Join(root, "store"))
			if err != nil {
				t.Fatal(err)
			}
			outside := filepath.Join(root, "outside")
			if err := os.WriteFile(outside, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
			if err := os.Chtimes(outside, old, old); err != nil {
				t.Fatal(err)
			}
			rec := filepath.Join(d.Path(), "rec.jsonl")
			if tc.linked {
				if err := os.Link(outside, rec); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(rec, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			err = tc.append(d)
			if !tc.linked {
				if err != nil {
					t.Fatalf("append to a file of one link: %v", err)
				}
				if got, _ := os.ReadFile(rec); string(got) != "preciousx\n" {
					t.Fatalf("record holds %q", got)
				}
				return
			}
			wantStorageError(t, err, "hard link")
			if !safefs.IsHardLinked(err) {
				t.Errorf("IsHardLinked(%v) = false", err)
			}
			if got, _ := os.ReadFile(outside); string(got) != "precious" {
				t.Fatalf("the outside file holds %q, want it untouched", got)
			}
			if st, err := os.Stat(outside); err != nil || !st.ModTime().Equal(old) {
				t.Fatalf("the outside file's time changed: %v", err)
			}
		})
	}
}
