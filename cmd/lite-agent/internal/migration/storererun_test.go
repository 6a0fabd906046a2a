package migration

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/model"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A rerun takes the destination over from a FromStore paused past the
// lock's stale period (SIGSTOP, a suspended machine) in the middle of its
// export: it clears that run's partial copy (session "a") and exports
// again. When the paused run goes on, it writes its next file (session
// "b") before the rerun gets there, and the rerun fails on it; the
// rerun's clean-up removes its own files. What is left is the paused
// run's "b" alone, part of a copy: the marker must stay, as the rerun
// found it. Before the fix the failed rerun removed the marker, and the
// paused run, which lost its lock, left it removed ("it stays marked
// incomplete", it says): a directory holding session b without a, which
// agents open and lite-agent verify reports as complete. The paused run
// is played by the test with the bytes its export writes; the next rerun
// completes the copy.
func TestFailedFromStoreRerunKeepsTheMarkerItFound(t *testing.T) {
	ctx := t.Context()
	url, paths, p := dbProject(t)
	// "a" is modified last, so it is exported first.
	for _, id := range []string{"b", "a"} {
		if _, err := p.Checkpointer().Append(ctx, id, []session.Event{session.UserEvent{Message: model.UserText("from the database " + id)}}, session.AnyHead); err != nil {
			t.Fatal(err)
		}
	}
	// What the export writes, from an export elsewhere.
	other, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: filepath.Dir(paths.ProjectConfigDir), Storage: storage.Options{Home: t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ExportFiles(ctx, other); err != nil {
		t.Fatal(err)
	}
	exported := func(id string) []byte {
		b, err := os.ReadFile(filepath.Join(other.SessionsDir, id+session.LogSuffix))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// The paused run's state: its marker and its first session log.
	dir := paths.ProjectDir()
	if err := os.MkdirAll(paths.SessionsDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := writeMarker(anchor(t, dir), storeSource(url), false, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(paths.SessionsDir, "a"+session.LogSuffix), exported("a"), 0o600); err != nil {
		t.Fatal(err)
	}
	resumed := func() { // the paused run goes on: its next file
		if err := os.MkdirAll(paths.SessionsDir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(paths.SessionsDir, "b"+session.LogSuffix), exported("b"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := fromStore(ctx, url, nil, paths, nil, resumed, nil); err == nil {
		t.Fatal("the rerun over the paused run's file succeeded")
	} else {
		t.Logf("the rerun: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(paths.SessionsDir, "b"+session.LogSuffix)); err != nil {
		t.Fatalf("the paused run's file: %v", err)
	}
	if err := migrate.CheckComplete(dir); err == nil {
		t.Errorf("after the failed rerun %s holds part of a copy and no marker: agents and verify take it for complete", dir)
	}

	// The next rerun clears what is left and completes.
	if rep, err := fromStore(ctx, url, nil, paths, nil, nil, nil); err != nil || !rep.Verified || rep.Sessions != 2 {
		t.Fatalf("the next rerun: %+v, %v", rep, err)
	}
	if err := migrate.CheckComplete(dir); err != nil {
		t.Errorf("after the completed rerun: %v", err)
	}
}
