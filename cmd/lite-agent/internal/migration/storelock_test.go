package migration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
)

// A FromStore paused past the lock's stale period (SIGSTOP, a suspended
// machine) loses the destination's lock to a rerun, which clears the
// partial copy, replaces the marker and exports. When the paused run goes
// on and fails (here: the rerun already wrote the session log it was
// about to write), it must leave the marker alone: removing it would pass
// the rerun's unfinished copy off as a finished one if the rerun is then
// killed. The takeover is played by the test, between the marker's
// writing and the export, as the rerun does it: the lock taken over, the
// marker replaced, a log written.
func TestFromStoreThatLostItsLockLeavesTheRerunsMarker(t *testing.T) {
	ctx := t.Context()
	url, paths, p := dbProject(t)
	var err error
	appendSessionA(t, p)

	marker := filepath.Join(paths.ProjectDir(), migrate.MarkerName)
	var rerunLock *filelock.Lock
	var rerunMarker []byte
	takeover := func() {
		lock := marker + filelock.Suffix
		if err := os.Rename(lock, lock+"-taken-over"); err != nil {
			t.Fatal(err)
		}
		if rerunLock, err = filelock.Acquire(ctx, marker, filelock.Options{}); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(marker)
		if err != nil {
			t.Fatal(err)
		}
		rerunMarker = append(data, ' ')
		tmp := marker + ".rerun"
		if err := os.WriteFile(tmp, rerunMarker, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, marker); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(paths.SessionsDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(paths.SessionsDir, "a"+session.LogSuffix), []byte("the rerun's copy, unfinished\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, err = fromStore(ctx, url, nil, paths, nil, takeover, nil)
	if rerunLock != nil {
		defer rerunLock.Release()
	}
	if err == nil {
		t.Fatal("the export that lost its lock succeeded")
	}
	if got, rerr := os.ReadFile(marker); rerr != nil || string(got) != string(rerunMarker) {
		t.Errorf("the rerun's marker after the paused run failed (%v): %q, %v", err, got, rerr)
	}
}
