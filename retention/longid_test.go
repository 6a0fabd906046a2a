package retention_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/retention"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// The short names a session with an id of storage.MaxIDLength characters
// takes (its context archive's lock <id>.lock, its log set aside by a
// delete <id>.deleting, a temporary file whose record's name was cut) are
// honored by a sweep as their usual forms are: a live lock keeps the
// archive, an old delete is left for its rerun, and a cut temporary file
// of a log whose lock is live stays; with the locks gone, it is removed.
// (A cut name is matched to the live locks of every entry it may have
// been cut from: the archive's lock keeps it too.)
func TestASweepHonorsTheShortNamesOfALongID(t *testing.T) {
	home := t.TempDir()
	sessions := filepath.Join(home, "projects", "0123456789abcdef", "sessions")
	if err := os.MkdirAll(sessions, 0o700); err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("q", storage.MaxIDLength)
	old := time.Now().Add(-48 * time.Hour)
	archiveDir := filepath.Join(sessions, id+".context")
	archiveLock := filelock.Path(archiveDir)
	deleting := filepath.Join(sessions, session.DeletingName(id))
	temp := filepath.Join(sessions, safefs.TempName(id+session.LogSuffix, "0123456789ab"))
	logLock := filepath.Join(sessions, id+session.LogSuffix+filelock.Suffix)
	if filepath.Base(archiveLock) != id+".c.lock" || filepath.Base(deleting) != id+".deleting" || len(filepath.Base(temp)) != storage.NameMax {
		t.Fatalf("names %s, %s, %s: not the short forms", filepath.Base(archiveLock), filepath.Base(deleting), filepath.Base(temp))
	}
	for _, d := range []string{archiveDir, archiveLock, logLock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{deleting, temp, filepath.Join(archiveDir, "index.jsonl")} {
		if err := os.WriteFile(f, []byte("x\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{filepath.Join(archiveDir, "index.jsonl"), archiveDir, deleting, temp} {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := retention.Sweep(t.Context(), retention.Options{Home: home, MaxAge: 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rep.Removed {
		t.Errorf("removed %s", filepath.Base(e.Path))
	}
	skipped := map[string]retention.SkipReason{}
	for _, s := range rep.Skipped {
		skipped[filepath.Base(s.Path)] = s.Reason
	}
	if r := skipped[filepath.Base(deleting)]; r != retention.SkipDeleting {
		t.Errorf("the log set aside by a delete: skipped as %q, want %q", r, retention.SkipDeleting)
	}
	for _, p := range []string{archiveDir, deleting, temp} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
		}
	}
	if _, err := os.Lstat(archiveDir); err != nil {
		t.Errorf("the archive under its live short lock: %v", err)
	}
	// Without the locks the temporary file was left by a writer that
	// died: it goes.
	for _, l := range []string{logLock, archiveLock} {
		if err := os.Remove(l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := retention.Sweep(t.Context(), retention.Options{Home: home, MaxAge: 24 * time.Hour}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(temp); err == nil {
		t.Errorf("the cut temporary file of an unlocked log stayed")
	}
}
