package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// blockedMigrate starts a migrate of /srv/app into /srv/other of a new
// home, in a child process, which waits for the source session's lock that
// a writer holds and keeps fresh, with its destination lock (LockName in
// dstRoot) held. release stops the writer, removes the source lock and
// lets the migrate go on; the child is killed at the end of the test.
func blockedMigrate(t *testing.T) (home, dstRoot string, cmd *exec.Cmd, release func()) {
	t.Helper()
	home = t.TempDir()
	migFixture(t, home, "/srv/app", "", nil)
	src, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	dst, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/other", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	dstRoot = filepath.Dir(dst.SessionsDir)

	// A writer holds the source session's lock and keeps it fresh: the
	// migrate waits for it with its destination lock held.
	srcLock := filepath.Join(src.SessionsDir, "s1.jsonl.lock")
	if err := os.Mkdir(srcLock, 0o700); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var fresh sync.WaitGroup
	fresh.Add(1)
	go func() {
		defer fresh.Done()
		for {
			now := time.Now()
			_ = os.Chtimes(srcLock, now, now)
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}()
	stopFresh := sync.OnceFunc(func() { close(stop); fresh.Wait() })
	t.Cleanup(stopFresh)

	args, _ := json.Marshal([]string{"--home", home, "--workdir", "/srv/app", "migrate", "--to-home", home, "--to-workdir", "/srv/other"})
	cmd = exec.Command(os.Args[0], "-test.run=^TestCLIChildProcess$")
	cmd.Env = append(os.Environ(), childEnvCLI+"="+string(args))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	// The migrate creates its marker, then writes it: killed in between
	// (seen under load), it leaves an empty marker, which a rerun refuses
	// to read. Wait for the whole marker, not for its name.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var mk struct {
			Version int `json:"liteAgentMigration"`
		}
		if data, err := os.ReadFile(filepath.Join(dstRoot, migrate.MarkerName)); err == nil && json.Unmarshal(data, &mk) == nil && mk.Version == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the migrate never wrote its marker")
		}
		time.Sleep(10 * time.Millisecond)
	}

	release = func() {
		stopFresh()
		if err := os.Remove(srcLock); err != nil {
			t.Fatal(err)
		}
	}
	return home, dstRoot, cmd, release
}

// wantUnfinishedCopyCompleted checks that the copy of blockedMigrate's
// migrate into dstRoot is still marked unfinished, and that a rerun of the
// migrate completes it.
func wantUnfinishedCopyCompleted(t *testing.T, home, dstRoot string) {
	t.Helper()
	if _, err := os.Lstat(filepath.Join(dstRoot, migrate.MarkerName)); err != nil {
		t.Errorf("the marker of the unfinished copy: %v", err)
	}
	if r := runCLI(t, "--home", home, "--workdir", "/srv/app", "migrate", "--to-home", home, "--to-workdir", "/srv/other"); r.code != exitOK {
		t.Errorf("migrate rerun: code %d, stderr %q", r.code, r.stderr)
	}
}

// A migrate into another project of the same home holds its destination
// lock (projects/<hash>/.migration-incomplete.lock) while it copies. While
// that migrate lives, cleanup refuses, saying a migration is running (not
// to move its lock away); once it was killed and its lock went stale by
// the lock's own rule (not refreshed for filelock.DefaultStale), cleanup
// takes the lock over and removes it, and sweeps the rest.
func TestCleanupTakesOverTheStaleLockOfAKilledMigrate(t *testing.T) {
	isolateEnv(t)
	home, dstRoot, cmd, release := blockedMigrate(t)
	lock := filepath.Join(dstRoot, migrate.LockName)

	base := []string{"--home", home, "--workdir", "/srv/app", "cleanup"}
	r := runCLI(t, base...)
	if r.code != exitFailure || !strings.Contains(r.stderr, "migration") || !strings.Contains(r.stderr, dstRoot) || strings.Contains(r.stderr, "move it") {
		t.Errorf("cleanup while a migrate runs: code %d, stderr %q; want 1, saying a migration is writing %s, not to move its lock", r.code, r.stderr, dstRoot)
	}
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("the live migrate's lock: %v", err)
	}

	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	release()
	// The killed migrate refreshes its lock no more: past the stale
	// period, as a rerun of migrate would, cleanup takes it over.
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}

	r = runCLI(t, append(base, "--dry-run")...)
	if r.code != exitOK || !strings.Contains(r.stdout, "would remove "+lock+" (stale-lock") {
		t.Errorf("cleanup --dry-run of the stale lock: code %d, stdout %q, stderr %q; want 0, naming the lock", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(lock); err != nil {
		t.Fatalf("the dry run removed the lock: %v", err)
	}
	r = runCLI(t, append(base, "--json")...)
	var rep struct {
		Removed []struct {
			Path   string `json:"path"`
			Reason string `json:"reason"`
		} `json:"removed"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil || r.code != exitOK || len(rep.Removed) == 0 || rep.Removed[0].Path != lock || rep.Removed[0].Reason != "stale-lock" {
		t.Errorf("cleanup of the stale lock: code %d, stdout %q, stderr %q; want 0 and the lock first among the removed", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Lstat(lock); err == nil {
		t.Error("the stale lock is still there")
	}
	// The copy is still incomplete: its marker stays, and a rerun of
	// the migrate completes it.
	wantUnfinishedCopyCompleted(t, home, dstRoot)
}

// A migrate paused (SIGSTOP) past the stale period refreshes its lock no
// more; by the lock's rule a rerun of migrate would take it over, and
// cleanup does the same, no sooner: while the pause is shorter cleanup
// refuses. Resumed, the migrate finds its lock lost and fails without
// completing the copy (its marker stays), and a rerun completes it.
func TestCleanupAndAPausedMigrate(t *testing.T) {
	isolateEnv(t)
	home, dstRoot, cmd, release := blockedMigrate(t)
	lock := filepath.Join(dstRoot, migrate.LockName)
	if err := cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	base := []string{"--home", home, "--workdir", "/srv/app", "cleanup"}
	if r := runCLI(t, base...); r.code != exitFailure {
		t.Errorf("cleanup just after the pause: code %d, stderr %q; want 1", r.code, r.stderr)
	}
	st, err := os.Lstat(lock)
	if err != nil {
		t.Fatal(err)
	}
	// The pause outlasts the stale period: the lock is as old as its last
	// refresh was then (the paused migrate does not refresh it).
	aged := st.ModTime().Add(-filelock.DefaultStale - time.Second)
	if err := os.Chtimes(lock, aged, aged); err != nil {
		t.Fatal(err)
	}
	if r := runCLI(t, base...); r.code != exitOK || !strings.Contains(r.stdout, "removed "+lock) {
		t.Errorf("cleanup after an 11 s pause: code %d, stdout %q, stderr %q; want 0, the lock removed", r.code, r.stdout, r.stderr)
	}
	if err := cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	release()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("the resumed migrate succeeded without its lock")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the resumed migrate never ended")
	}
	wantUnfinishedCopyCompleted(t, home, dstRoot)
}

// appHome returns a new data home and the paths of its project for
// /srv/app.
func appHome(t *testing.T) (string, storage.ProjectPaths) {
	t.Helper()
	home := t.TempDir()
	p, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: "/srv/app", Storage: storage.Options{Home: home}})
	if err != nil {
		t.Fatal(err)
	}
	return home, p
}

// A migrate (or a cleanup) killed while it took a stale migration lock
// over leaves that lock set aside in the project directory
// (.stale-<12 hex>.lock, filelock.Leftover), which migrate itself ignores
// as no data. Cleanup must not refuse the whole home for it (it could
// never be cleaned again short of removing the entry by hand): it takes the
// stale lock over and sweeps the rest, exit 0.
func TestCleanupAcceptsWhatAKilledLockTakeoverLeaves(t *testing.T) {
	isolateEnv(t)
	home, p := appHome(t)
	root := filepath.Dir(p.SessionsDir)
	oldFile(t, filepath.Join(p.SessionsDir, "old.jsonl"))
	aside := filepath.Join(root, ".stale-0123456789ab.lock")
	lock := filepath.Join(root, migrate.LockName)
	old := time.Now().Add(-time.Hour)
	for _, d := range []string{aside, lock} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, old, old); err != nil {
			t.Fatal(err)
		}
	}
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "cleanup")
	if r.code != exitOK || !strings.Contains(r.stdout, "removed "+lock) || !strings.Contains(r.stdout, "old.jsonl") {
		t.Errorf("cleanup beside a lock set aside: code %d, stdout %q, stderr %q; want 0, the stale lock and the old session removed", r.code, r.stdout, r.stderr)
	}
}

// A migrate killed while it wrote its marker leaves the marker's temp
// file (.migration-incomplete.<12 hex>.tmp, or .<digits>.tmp from the
// os.CreateTemp of earlier versions of migrate --from-store) beside its
// stale lock, and no marker: cleanup takes it for no data, as migrate
// does, and sweeps the rest, exit 0, instead of refusing the whole home
// for it.
func TestCleanupAcceptsTheMarkerTempOfAKilledMigrate(t *testing.T) {
	for _, temp := range []string{"0123456789ab", "2718281828"} {
		t.Run(temp, func(t *testing.T) {
			isolateEnv(t)
			home, p := appHome(t)
			root := filepath.Dir(p.SessionsDir)
			oldFile(t, filepath.Join(p.SessionsDir, "old.jsonl"))
			lock := filepath.Join(root, migrate.LockName)
			if err := os.Mkdir(lock, 0o700); err != nil {
				t.Fatal(err)
			}
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(lock, old, old); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "."+migrate.MarkerName+"."+temp+".tmp"), []byte(`{"liteAgentMigration":1}`), 0o600); err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, "--home", home, "--workdir", "/srv/app", "cleanup")
			if r.code != exitOK || !strings.Contains(r.stdout, "removed "+lock) || !strings.Contains(r.stdout, "old.jsonl") {
				t.Errorf("cleanup beside a marker's temp file: code %d, stdout %q, stderr %q; want 0, the stale lock and the old session removed", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// Cleanup's refusal for a live migration names the lock once: one path,
// not the project directory and then the lock inside it.
func TestCleanupNamesALiveMigrationLockOnce(t *testing.T) {
	isolateEnv(t)
	home, p := appHome(t)
	root := filepath.Dir(p.SessionsDir)
	if err := os.MkdirAll(filepath.Join(root, migrate.LockName), 0o700); err != nil {
		t.Fatal(err)
	}
	r := runCLI(t, "--home", home, "--workdir", "/srv/app", "cleanup")
	if r.code != exitFailure || strings.Count(r.stderr, root) != 1 || strings.Count(r.stderr, "\n") != 1 {
		t.Errorf("cleanup beside a live migration lock: code %d, stderr %q; want 1, one line naming %s once", r.code, r.stderr, root)
	}
	_, err := migrate.ClearStaleLock(t.Context(), root, true)
	var held *migrate.LockHeldError
	if !errors.As(err, &held) || held.Lock != filepath.Join(root, migrate.LockName) {
		t.Errorf("ClearStaleLock of a fresh lock: %v, want a *migrate.LockHeldError", err)
	}
}

// A file or a symbolic link named like the migration lock is no lock
// (migrate takes only a directory): cleanup refuses it as an entry it does
// not understand, saying to move it, not to wait for a migration that
// will never finish.
func TestCleanupRefusesAFileNamedLikeTheMigrationLock(t *testing.T) {
	isolateEnv(t)
	for _, kind := range []string{"file", "symlink"} {
		t.Run(kind, func(t *testing.T) {
			home, p := appHome(t)
			var err error
			lock := filepath.Join(filepath.Dir(p.SessionsDir), migrate.LockName)
			if err := os.MkdirAll(p.SessionsDir, 0o700); err != nil {
				t.Fatal(err)
			}
			if kind == "file" {
				err = os.WriteFile(lock, nil, 0o600)
			} else {
				err = os.Symlink(t.TempDir(), lock)
			}
			if err != nil {
				t.Fatal(err)
			}
			r := runCLI(t, "--home", home, "--workdir", "/srv/app", "cleanup")
			if r.code != exitFailure || !strings.Contains(r.stderr, lock) || !strings.Contains(r.stderr, "move it out of the data home") || strings.Contains(r.stderr, "once it has finished") {
				t.Errorf("cleanup beside a %s named like the lock: code %d, stderr %q; want 1, saying to move it", kind, r.code, r.stderr)
			}
			wantOneErrorLine(t, r)
		})
	}
}
