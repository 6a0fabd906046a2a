//go:build unix

package migration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/internal/filelock"
	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/session"
	"github.com/lite-agent/lite-agent-go/storage"
)

// markerChildEnv makes the test binary a process that runs fromStore as
// its JSON value (a markerChild) says and kills itself (SIGKILL, as a
// crash would stop it) once the step of writing the marker it names is
// done.
const markerChildEnv = "MIGRATION_TEST_MARKER_CHILD"

// markerChild is what a child of markerChildEnv does.
type markerChild struct {
	URL, Workdir, Home, Step string
}

func TestMain(m *testing.M) {
	if v := os.Getenv(markerChildEnv); v != "" {
		os.Exit(runMarkerChild(v))
	}
	os.Exit(m.Run())
}

func runMarkerChild(v string) int {
	var c markerChild
	if err := json.Unmarshal([]byte(v), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	paths, err := storage.ResolveProjectPaths(storage.PathsOptions{Workdir: c.Workdir, Storage: storage.Options{Home: c.Home}})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	step := func(s string) {
		if s == c.Step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
			select {} // until the signal lands
		}
	}
	if _, err := fromStore(context.Background(), c.URL, nil, paths, nil, nil, step); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0 // the step never came
}

// markerProject is dbProject holding one session, and the workdir its
// paths were resolved from.
func markerProject(t *testing.T) (string, string, storage.ProjectPaths) {
	t.Helper()
	url, paths, p := dbProject(t)
	appendSessionA(t, p)
	return url, filepath.Dir(paths.ProjectConfigDir), paths
}

// projectEntries lists the project directory, without the lock and what a
// killed lock takeover leaves.
func projectEntries(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if n := e.Name(); n != migrate.MarkerName+filelock.Suffix && !filelock.Leftover(n) {
			names = append(names, n)
		}
	}
	return names
}

// A migrate --from-store killed at any step of writing its marker leaves
// no marker or a whole one naming the database, never an empty or
// part-written one, and beside it at most the marker's temp file; a rerun
// then completes the copy and leaves no temp file and no marker. Before
// the marker was written atomically, a kill once the marker was created
// left it empty, and every rerun refused the directory ("cannot be read;
// remove the directory by hand").
func TestFromStoreKilledWhileWritingTheMarkerLeavesNoneOrAWholeOne(t *testing.T) {
	for _, step := range []string{safefs.StepTempCreated, safefs.StepTempWritten, safefs.StepPlaced} {
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			url, workdir, paths := markerProject(t)
			env, err := json.Marshal(markerChild{URL: url, Workdir: workdir, Home: paths.Home, Step: step})
			if err != nil {
				t.Fatal(err)
			}
			cmd := childtest.Command(t.Context(), markerChildEnv+"="+string(env))
			cmd.Stderr = os.Stderr
			if err := cmd.Run(); !childtest.Killed(err) {
				t.Fatalf("the child killed at %q: %v", step, err)
			}
			dir := paths.ProjectDir()
			marked := false
			for _, n := range projectEntries(t, dir) {
				switch {
				case n == migrate.MarkerName:
					marked = true
				case !safefs.IsTempOf(n, migrate.MarkerName):
					t.Errorf("killed at %q: the directory holds %s", step, n)
				}
			}
			if marked != (step == safefs.StepPlaced) {
				t.Errorf("killed at %q: marked = %v", step, marked)
			}
			if marked {
				var mk storeMarker
				data, err := os.ReadFile(filepath.Join(dir, migrate.MarkerName))
				if err != nil || json.Unmarshal(data, &mk) != nil || mk.Version != 1 || mk.Source != storeSource(url) || !strings.HasPrefix(string(data), storeMarkerOpening) {
					t.Errorf("killed at %q: the marker holds %q (%v), not a whole marker naming %s", step, data, err, storeSource(url))
				}
			}
			childtest.StaleLocks(t, paths.Home)
			if rep, err := fromStore(t.Context(), url, nil, paths, nil, nil, nil); err != nil || !rep.Verified || rep.Sessions != 1 {
				t.Fatalf("the rerun after the child killed at %q: %+v, %v", step, rep, err)
			}
			for _, n := range projectEntries(t, dir) {
				if n == migrate.MarkerName || safefs.IsTempOf(n, migrate.MarkerName) {
					t.Errorf("the rerun left %s", n)
				}
			}
			if err := migrate.CheckComplete(paths.Home); err != nil {
				t.Errorf("after the rerun: %v", err)
			}
		})
	}
}

// storeTornMarkers are markers an older migrate --from-store, which
// created the marker and then wrote it, may have left when killed or
// crashed in between: empty, zeros, or cut anywhere in its JSON (here
// naming another database).
var storeTornMarkers = map[string]string{
	"empty":      "",
	"zeros":      "\x00\x00\x00\x00\x00\x00\x00\x00",
	"opening":    `{"liteAg`,
	"cut source": `{"liteAgentMigration":1,"source":"postgres://elsewhere:5432/d`,
	"cut late":   `{"liteAgentMigration":1,"source":"postgres://elsewhere:5432/db","destination":"/x","startedAt":"2026-01-0` + "\x00\x00",
}

// writeProjectFile writes data to rel in dir, making its directory.
func writeProjectFile(t *testing.T, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A project directory holding nothing but a cut-short marker (and the
// stale lock of the run killed while writing it, and a marker's temp
// file) is what an older migrate --from-store left before it copied
// anything: a rerun takes it over, whichever database the marker may have
// named, and completes the copy.
func TestFromStoreTakesOverATornMarkerAlone(t *testing.T) {
	for name, content := range storeTornMarkers {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			url, _, paths := markerProject(t)
			dir := paths.ProjectDir()
			writeProjectFile(t, dir, migrate.MarkerName, content)
			writeProjectFile(t, dir, "."+migrate.MarkerName+".0123456789ab.tmp", `{"liteAgentMigration":1}`)
			// The lock a killed run left.
			if err := os.Mkdir(filepath.Join(dir, migrate.MarkerName+filelock.Suffix), 0o700); err != nil {
				t.Fatal(err)
			}
			childtest.StaleLocks(t, paths.Home)
			if rep, err := fromStore(t.Context(), url, nil, paths, nil, nil, nil); err != nil || !rep.Verified || rep.Sessions != 1 {
				t.Fatalf("the rerun over a %s marker: %+v, %v", name, rep, err)
			}
			if names := projectEntries(t, dir); slices.ContainsFunc(names, func(n string) bool {
				return n == migrate.MarkerName || safefs.IsTempOf(n, migrate.MarkerName)
			}) {
				t.Errorf("the rerun left %v", names)
			}
		})
	}
}

// A cut-short marker beside anything else (a file a writer of the project
// put there, or what an export writes), or a marker that is not cut short
// but unreadable, is refused as before, and nothing is changed: nothing
// proves what wrote the rest.
func TestFromStoreRefusesATornMarkerWithMoreOrAnUnreadableMarker(t *testing.T) {
	cases := map[string]struct {
		marker string
		more   bool
	}{
		"empty beside a session": {"", true},
		"cut beside a session":   {`{"liteAgentMigration":1,"sou`, true},
		"another version":        {`{"liteAgentMigration":2,"source":"postgres://h:5432/d"}`, false},
		"not a marker":           {"hello", false},
		"bytes after a marker":   {`{"liteAgentMigration":1,"source":"postgres://h:5432/d"}x`, false},
		"a bad byte":             {`{"liteAgentMigration":1,"source":x`, false},
		"plain json":             {`{}`, false},
	}
	url, _, paths := markerProject(t)
	for name, tc := range cases {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			dir := paths.ProjectDir()
			if err := os.RemoveAll(dir); err != nil {
				t.Fatal(err)
			}
			writeProjectFile(t, dir, migrate.MarkerName, tc.marker)
			if tc.more {
				writeProjectFile(t, dir, filepath.Join(storage.SessionsDirName, "x"+session.LogSuffix), "{}\n")
			}
			was := fileTree(t, dir)
			_, err := fromStore(t.Context(), url, nil, paths, nil, nil, nil)
			if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), "cannot be read") {
				t.Fatalf("migrate --from-store over %s: %v, want the unreadable marker refused", name, err)
			}
			if now := fileTree(t, dir); !maps.Equal(now, was) {
				t.Errorf("the refused run changed the directory: %v, was %v", now, was)
			}
		})
	}
}

// fileTree maps every file under dir to its content (a directory to
// "dir"), but for the locks in dir (the run's, released, or parked).
func fileTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	tree := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if filepath.Dir(rel) == "." && (strings.HasSuffix(rel, filelock.Suffix) || filelock.Leftover(rel)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			tree[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		tree[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}
