package main

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/pgtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/store/postgres"
)

// killedFromStore fills the database at u with the reference project,
// then runs lite-agent migrate --from-store into a new data home as a
// child process and kills it (SIGKILL) in the middle of the export: once
// it wrote the first session log and waits to read that session's
// archive, whose table the test holds locked. It returns the new home and
// the base arguments of the project.
func killedFromStore(t *testing.T, u string) (string, []string) {
	t.Helper()
	home, p := referenceHome(t)
	clearStoreProject(t, u, p)
	base := []string{"--workdir", "/srv/app"}
	if r := runCLI(t, append([]string{"--home", home}, append(base, "migrate", "--to-store", u)...)...); r.code != 0 {
		t.Fatalf("migrate --to-store: %d %s", r.code, r.stderr)
	}
	ctx := t.Context()
	lockConn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer lockConn.Close(ctx)
	tx, err := lockConn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "LOCK TABLE "+postgres.DefaultSchema+".archive_index IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}

	home2 := t.TempDir()
	args, _ := json.Marshal(append(append([]string{}, base...), "migrate", "--from-store", u, "--to-home", home2))
	cmd := exec.Command(os.Args[0], "-test.run=^TestCLIChildProcess$")
	cmd.Env = append(os.Environ(), childEnvCLI+"="+string(args))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	// The child waits on the lock once it wrote the first session log.
	watch, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	rel, err := filepath.Rel(home, p.SessionsDir)
	if err != nil {
		t.Fatal(err)
	}
	sessions := filepath.Join(home2, rel)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var waiting int
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = $1::regclass`, postgres.DefaultSchema+".archive_index").Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		logs, _ := filepath.Glob(filepath.Join(sessions, "*.jsonl"))
		if waiting > 0 && len(logs) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the export never waited on the archive after a session log (waiting %d, logs %v)", waiting, logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// The export's lock, which the killed child held: stale.
	childtest.StaleLocks(t, home2)
	return home2, base
}

// A migrate --from-store killed part-way leaves a project directory
// holding part of the copy. It must be recognisably incomplete (verify
// says so), and a rerun must clear the partial copy and complete it,
// instead of refusing the directory it left and leaving the operator to
// delete by hand; the result equals an uninterrupted export.
func TestKilledMigrateFromStoreIsMarkedAndARerunCompletes(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home2, base := killedFromStore(t, u)
	at2 := append([]string{"--home", home2}, base...)

	r := runCLI(t, append(at2, "verify")...)
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, migrate.MarkerName) {
		t.Errorf("verify of the killed export's home: %d %q %q", r.code, r.stdout, r.stderr)
	}
	r = runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", home2)...)
	if r.code != 0 || !strings.Contains(r.stdout, "verified") {
		t.Fatalf("migrate --from-store again after the killed one: %d %q %q", r.code, r.stdout, r.stderr)
	}
	home3 := t.TempDir()
	if r := runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", home3)...); r.code != 0 {
		t.Fatalf("an uninterrupted migrate --from-store: %d %s", r.code, r.stderr)
	}
	if a, b := fileContents(t, home2), fileContents(t, home3); !maps.Equal(a, b) {
		t.Errorf("the rerun's copy differs from an uninterrupted one:\n%v\n%v", a, b)
	}
	if r := runCLI(t, append(at2, "verify")...); r.code != 0 {
		t.Errorf("verify after the rerun: %d %q %q", r.code, r.stdout, r.stderr)
	}
}

// The rerun of a killed migrate --from-store removes only what the marker
// and the database prove is the export's: a file the export does not
// write, one that is not what it writes there, or a marker naming another
// source makes it refuse, and the directory stays as it is.
func TestKilledMigrateFromStoreRerunKeepsWhatIsNotTheExports(t *testing.T) {
	u := pgtest.URL(t)
	isolateEnv(t)
	home2, base := killedFromStore(t, u)
	var project string
	if err := filepath.WalkDir(home2, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == migrate.MarkerName {
			project = filepath.Dir(p)
		}
		return err
	}); err != nil || project == "" {
		t.Fatalf("no marker in the killed export's home: %v", err)
	}
	logs, _ := filepath.Glob(filepath.Join(project, "sessions", "*.jsonl"))
	if len(logs) == 0 {
		t.Fatal("the killed export wrote no session log")
	}
	marker := filepath.Join(project, migrate.MarkerName)
	markerData, err := os.ReadFile(marker)
	if err != nil {
		t.Fatal(err)
	}
	logData, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name    string
		change  func() string // returns the path to find unchanged
		restore func()
	}{
		{"a session the database lacks", func() string {
			p := filepath.Join(project, "sessions", "other.jsonl")
			write(p, "{}\n")
			return p
		}, func() { os.Remove(filepath.Join(project, "sessions", "other.jsonl")) }},
		{"a file beside the project's", func() string {
			p := filepath.Join(project, "notes.txt")
			write(p, "mine")
			return p
		}, func() { os.Remove(filepath.Join(project, "notes.txt")) }},
		{"a session log written to since", func() string {
			write(logs[0], string(logData)+"{\"more\":1}\n")
			return logs[0]
		}, func() { write(logs[0], string(logData)) }},
		{"a marker of another source", func() string {
			write(marker, strings.Replace(string(markerData), "postgres://", "postgres://elsewhere", 1))
			return marker
		}, func() { write(marker, string(markerData)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := fileContents(t, home2)
			kept := tc.change()
			want := fileContents(t, home2)
			r := runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", home2)...)
			if r.code == 0 || !strings.Contains(r.stderr, "by hand") {
				t.Errorf("the rerun: %d %q %q", r.code, r.stdout, r.stderr)
			}
			if got := fileContents(t, home2); !maps.Equal(got, want) {
				t.Errorf("the rerun changed the directory (kept %s):\n%v\nwant\n%v", kept, got, want)
			}
			tc.restore()
			if got := fileContents(t, home2); !maps.Equal(got, before) {
				t.Fatalf("restore: %v", got)
			}
		})
	}
	if r := runCLI(t, append(base, "migrate", "--from-store", u, "--to-home", home2)...); r.code != 0 {
		t.Fatalf("the rerun of the restored directory: %d %q", r.code, r.stderr)
	}
	if _, err := os.Lstat(marker); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the marker after the rerun: %v", err)
	}
}
