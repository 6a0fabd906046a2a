package safefs_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/ctxtest"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
)

// TestReadDirContextListsWhatReadDirLists checks that the batched
// ReadDirContext returns what ReadDir returns, entry for entry (name,
// type, order), for directories of fewer, exactly and more entries than
// one batch (256), holding names that start with "." or ".." and entries
// of every kind (directories, symlinks, FIFOs, files), and that neither
// lists "." or "..".
func TestReadDirContextListsWhatReadDirLists(t *testing.T) {
	for _, n := range []int{0, 1, 255, 256, 257, 513, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			root := t.TempDir()
			for i := range n {
				p := filepath.Join(root, fmt.Sprintf("e%04d", (i*7919)%n)) // not created in name order
				var err error
				switch i % 10 {
				case 1:
					p = filepath.Join(root, fmt.Sprintf(".%04d", i))
					err = os.WriteFile(p, nil, 0o600)
				case 2:
					p = filepath.Join(root, fmt.Sprintf("..%04d", i))
					err = os.Mkdir(p, 0o700)
				case 3:
					err = os.Symlink("nowhere", p)
				case 4:
					err = syscall.Mkfifo(p, 0o600)
				default:
					err = os.WriteFile(p, nil, 0o600)
				}
				if err != nil && !os.IsExist(err) {
					t.Fatal(err)
				}
			}
			d, err := safefs.Anchor(root)
			if err != nil {
				t.Fatal(err)
			}
			want, err := d.ReadDir("")
			if err != nil {
				t.Fatal(err)
			}
			got, err := d.ReadDirContext(t.Context(), "")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("ReadDirContext listed %d entries, ReadDir %d", len(got), len(want))
			}
			for i := range want {
				if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() {
					t.Fatalf("entry %d: ReadDirContext %q (%v), ReadDir %q (%v)", i, got[i].Name(), got[i].Type(), want[i].Name(), want[i].Type())
				}
				if got[i].Name() == "." || got[i].Name() == ".." {
					t.Fatalf("ReadDirContext listed %q", got[i].Name())
				}
			}
		})
	}
}

// TestReadDirContextDonePartWayReturnsNoEntries checks that a ctx done
// after some batches were read returns ctx's error and no entries, never a
// partial listing that a caller could take for the whole directory; and
// that a ctx done only after the last batch still returns every entry.
func TestReadDirContextDonePartWayReturnsNoEntries(t *testing.T) {
	root := t.TempDir()
	const n = 1000 // four batches
	for i := range n {
		if err := os.WriteFile(filepath.Join(root, fmt.Sprintf("f%04d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	d, err := safefs.Anchor(root)
	if err != nil {
		t.Fatal(err)
	}
	for looks := range 6 {
		ents, err := d.ReadDirContext(ctxtest.DoneAfter(t.Context(), looks), "")
		switch {
		case err != nil && (len(ents) != 0 || !errors.Is(err, context.Canceled)):
			t.Errorf("done after %d looks: %d entries, %v; want none and context.Canceled", looks, len(ents), err)
		case err == nil && len(ents) != n:
			t.Errorf("done after %d looks: %d entries and no error, want %d", looks, len(ents), n)
		}
	}
	if ents, err := d.ReadDirContext(ctxtest.DoneAfter(t.Context(), 100), ""); err != nil || len(ents) != n {
		t.Errorf("ReadDirContext with a live ctx = %d entries, %v", len(ents), err)
	}
}
