package safefs_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/storage"
)

// exclusiveKillEnv makes the test binary a process that writes
// exclusiveData to $SAFEFS_TEST_DIR/marker with WriteFileExclusiveSteps
// and kills itself (SIGKILL, as a crash would stop it) once the step the
// variable names is done.
const exclusiveKillEnv = "SAFEFS_TEST_EXCLUSIVE_KILL_AT"

// exclusiveData is what the killed writer writes: more than one page, so
// that a write cut short would show.
var exclusiveData = bytes.Repeat([]byte(`{"liteAgentMigration":1}`), 400)

func runExclusiveWriter(step string) int {
	d, err := safefs.AnchorExisting(os.Getenv("SAFEFS_TEST_DIR"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	err = d.WriteFileExclusiveSteps("marker", exclusiveData, func(s string) {
		if s == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {}
		}
	})
	fmt.Fprintln(os.Stderr, "the write finished:", err)
	return 3
}

// A process killed at any step of an exclusive write leaves the name
// missing or holding the whole of its data, never empty or part-written,
// and at most a temp file that IsTempOf recognises; a second exclusive
// write then succeeds where the name is missing, and fails with
// fs.ErrExist, leaving the data, where it is not.
func TestAnExclusiveWriteKilledAtAnyStepLeavesNoPartialFile(t *testing.T) {
	for _, step := range []string{safefs.StepTempCreated, safefs.StepTempWritten, safefs.StepPlaced} {
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			dir := t.TempDir()
			err := childtest.Command(t.Context(), exclusiveKillEnv+"="+step, "SAFEFS_TEST_DIR="+dir).Run()
			if !childtest.Killed(err) {
				t.Fatalf("the writer was not killed at %q: %v", step, err)
			}
			ents, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ents {
				if e.Name() != "marker" && !safefs.IsTempOf(e.Name(), "marker") {
					t.Errorf("killed at %q: %s left, neither the file nor its temp", step, e.Name())
				}
			}
			p := filepath.Join(dir, "marker")
			got, err := os.ReadFile(p)
			placed := err == nil
			switch {
			case err != nil && !errors.Is(err, fs.ErrNotExist):
				t.Fatal(err)
			case placed && !bytes.Equal(got, exclusiveData):
				t.Fatalf("killed at %q: the file holds %d bytes, want none or all %d", step, len(got), len(exclusiveData))
			case placed != (step == safefs.StepPlaced):
				t.Errorf("killed at %q: the file is there: %v", step, placed)
			}
			d, err := safefs.AnchorExisting(dir)
			if err != nil {
				t.Fatal(err)
			}
			err = d.WriteFileExclusive("marker", []byte("again"))
			if placed && !errors.Is(err, fs.ErrExist) || !placed && err != nil {
				t.Fatalf("the exclusive write after a kill at %q: %v", step, err)
			}
			if got, _ := os.ReadFile(p); placed && !bytes.Equal(got, exclusiveData) || !placed && string(got) != "again" {
				t.Errorf("after the second write the file holds %q...", got[:min(len(got), 20)])
			}
		})
	}
}

// An exclusive write over an existing file or directory fails with
// fs.ErrExist, and over a dangling symlink with the refusal of symlinks,
// leaving the entry, what the link points to missing, and no temp.
func TestAnExclusiveWriteNeverReplaces(t *testing.T) {
	dir := t.TempDir()
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"file", "dir"} {
		if err := d.WriteFileExclusive(name, []byte("new")); !errors.Is(err, fs.ErrExist) {
			t.Errorf("exclusive write over %s: %v, want fs.ErrExist", name, err)
		}
	}
	if err := d.WriteFileExclusive("link", []byte("new")); err == nil {
		t.Error("an exclusive write over a dangling symlink succeeded")
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "file")); string(got) != "old" {
		t.Errorf("the file holds %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the write followed the dangling link: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("the directory holds %d entries, want the 3 there before (no temp left)", len(ents))
	}
}

func TestIsTempOf(t *testing.T) {
	for name, want := range map[string]bool{
		".marker.0123456789ab.tmp":  true,
		".marker.0123456789AB.tmp":  true,
		".marker.0123456789a.tmp":   false,
		".marker.0123456789abc.tmp": false,
		".marker.0123456789ag.tmp":  false,
		".marker.0123456789ab":      false,
		"marker.0123456789ab.tmp":   false,
		".other.0123456789ab.tmp":   false,
		".marker.x.0123456789.tmp":  false,
	} {
		if got := safefs.IsTempOf(name, "marker"); got != want {
			t.Errorf("IsTempOf(%q) = %v, want %v", name, got, want)
		}
	}
}

// An exclusive write of a name as long as the file system allows (the
// copy a repair sets aside for a log with the longest id) succeeds: its
// temp file's name is cut short to fit, and none is left.
func TestAnExclusiveWriteOfTheLongestNameFits(t *testing.T) {
	dir := t.TempDir()
	d, err := safefs.Anchor(dir)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.Repeat("n", storage.NameMax)
	if err := d.WriteFileExclusive(name, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != name {
		t.Errorf("the directory holds %d entries, want the file alone", len(ents))
	}
}
