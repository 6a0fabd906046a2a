package retention_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/retention"
)

// The benchmark tree: 20 directories (10 projects × spill and sessions),
// each with 500 regular files, half of them 40 days old, plus 25 symlinks to
// a decoy outside the home and 25 lock directories that lock 25 of the old
// files: 10,000 files and 11,000 entries, 10 % of them links or locks.
const (
	benchProjects = 10
	benchFiles    = 500 // regular files per directory
	benchSpecial  = 25  // symlinks and locked files per directory
	benchTotal    = benchProjects * 2 * benchFiles
	benchRemoved  = benchProjects * 2 * (benchFiles/2 - benchSpecial)
)

type benchTree struct {
	home, decoy string
	old         time.Time
	dirs        []string
	locks       []string // lock directories, refreshed as their holders would
}

func newBenchTree(b *testing.B) *benchTree {
	b.Helper()
	root := b.TempDir()
	bt := &benchTree{home: filepath.Join(root, "home"), decoy: filepath.Join(root, "decoy.txt"), old: time.Now().Add(-40 * day)}
	if err := os.WriteFile(bt.decoy, []byte("decoy"), 0o600); err != nil {
		b.Fatal(err)
	}
	for p := range benchProjects {
		for _, sub := range []string{"spill", "sessions"} {
			dir := filepath.Join(bt.home, "projects", fmt.Sprintf("%016x", p), sub)
			if err := os.MkdirAll(dir, 0o700); err != nil {
				b.Fatal(err)
			}
			bt.dirs = append(bt.dirs, dir)
			for i := range benchFiles {
				name := filepath.Join(dir, fmt.Sprintf("f%03d.txt", i))
				bt.writeFile(b, name, i%2 == 0)
				if i%2 == 0 && i/2 < benchSpecial {
					if err := os.Mkdir(name+".lock", 0o700); err != nil {
						b.Fatal(err)
					}
					bt.locks = append(bt.locks, name+".lock")
				}
			}
			for i := range benchSpecial {
				if err := os.Symlink(bt.decoy, filepath.Join(dir, fmt.Sprintf("link%02d.txt", i))); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return bt
}

func (bt *benchTree) writeFile(b *testing.B, name string, old bool) {
	if err := os.WriteFile(name, make([]byte, 512), 0o600); err != nil {
		b.Fatal(err)
	}
	if old {
		if err := os.Chtimes(name, bt.old, bt.old); err != nil {
			b.Fatal(err)
		}
	}
}

// check verifies a sweep's result: exactly the old unlocked files went, the
// decoy and every link survived. It then puts the removed files back and
// refreshes the locks.
func (bt *benchTree) checkAndRestore(b *testing.B, rep retention.Report, dry bool) {
	if len(rep.Removed) != benchRemoved {
		b.Fatalf("removed %d entries, want %d", len(rep.Removed), benchRemoved)
	}
	if got, err := os.ReadFile(bt.decoy); err != nil || string(got) != "decoy" {
		b.Fatalf("decoy damaged: %v", err)
	}
	for _, e := range rep.Removed {
		if e.Reason != retention.ReasonAge || e.IsDir {
			b.Fatalf("wrong deletion: %+v", e)
		}
		if !dry {
			bt.writeFile(b, e.Path, true)
		}
	}
	bt.refreshLocks(b)
}

// refreshLocks stamps the lock directories as their live holders would:
// a sweep takes over a lock left unrefreshed for the stale period.
func (bt *benchTree) refreshLocks(b *testing.B) {
	now := time.Now()
	for _, l := range bt.locks {
		if err := os.Chtimes(l, now, now); err != nil {
			b.Fatal(err)
		}
	}
}

// rawScan lists and lstats every entry, the least a sweep must do.
func (bt *benchTree) rawScan(b *testing.B) time.Duration {
	start := time.Now()
	n := 0
	for _, dir := range bt.dirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			if _, err := os.Lstat(filepath.Join(dir, e.Name())); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	if n != benchTotal+2*benchProjects*2*benchSpecial {
		b.Fatalf("tree holds %d entries", n)
	}
	return time.Since(start)
}

func BenchmarkSweep(b *testing.B) {
	for _, dry := range []bool{true, false} {
		name := "Delete"
		if dry {
			name = "DryRun"
		}
		b.Run(name, func(b *testing.B) {
			bt := newBenchTree(b)
			raw := bt.rawScan(b)
			raw = min(raw, bt.rawScan(b), bt.rawScan(b))
			bt.refreshLocks(b)
			for b.Loop() {
				rep, err := retention.Sweep(b.Context(), retention.Options{Home: bt.home, DryRun: dry})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				bt.checkAndRestore(b, rep, dry)
				b.StartTimer()
			}
			perOp := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(benchTotal)/perOp.Seconds(), "files/s")
			b.ReportMetric(float64(perOp)/float64(raw), "x-raw-scan")
		})
	}
}
