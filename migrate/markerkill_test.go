package migrate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/safefs"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// A migration killed at any step of writing its marker leaves no marker
// or a whole one naming its source, never an empty or part-written one,
// and beside it at most the temp file the marker is written to; a rerun
// then completes the copy and leaves no temp file behind.
func TestKilledWhileWritingTheMarkerLeavesNoneOrAWholeOne(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	for _, s := range []string{safefs.StepTempCreated, safefs.StepTempWritten, safefs.StepPlaced} {
		step := "marker " + s
		t.Run(strings.ReplaceAll(step, " ", "_"), func(t *testing.T) {
			dstHome := filepath.Join(t.TempDir(), "home")
			root, names := killedChild(t, src, dstHome, stepChildEnv+"="+step)
			marked := false
			for _, n := range names {
				switch {
				case n == migrate.MarkerName:
					marked = true
				case !safefs.IsTempOf(n, migrate.MarkerName):
					t.Errorf("killed at %q: the destination holds %s", step, n)
				}
			}
			if marked != (s == safefs.StepPlaced) {
				t.Errorf("killed at %q: marked = %v", step, marked)
			}
			if marked {
				data, err := os.ReadFile(filepath.Join(root, migrate.MarkerName))
				var mk struct {
					Version int    `json:"liteAgentMigration"`
					Source  string `json:"source"`
				}
				if err != nil || json.Unmarshal(data, &mk) != nil || mk.Version != 1 || mk.Source != src.paths.ProjectDir() {
					t.Fatalf("killed at %q: the marker holds %q (%v), not a whole marker naming %s", step, data, err, src.paths.ProjectDir())
				}
			}
			rerunAfterKill(t, src, before, dstHome)
			for _, n := range rootEntries(t, root) {
				if safefs.IsTempOf(n, migrate.MarkerName) {
					t.Errorf("the rerun left %s", n)
				}
			}
		})
	}
}

// tornMarkers are markers an older version, which created the marker and
// then wrote it, may have left when killed or crashed in between: empty,
// zeros, or cut anywhere in its JSON (here naming another source).
var tornMarkers = map[string]string{
	"empty":      "",
	"zeros":      "\x00\x00\x00\x00\x00\x00\x00\x00",
	"opening":    `{"liteAg`,
	"cut source": `{"liteAgentMigration":1,"source":"/elsewhere/proj`,
	"cut late":   `{"liteAgentMigration":1,"source":"/elsewhere","destination":"/x","startedAt":"2026-01-0` + "\x00\x00",
}

// A destination holding nothing but a torn marker (and the stale lock of
// the migration killed while writing it) is what that migration left
// before it copied anything: a rerun takes it over, whatever source the
// marker may have named, and completes the copy.
func TestATornMarkerAloneIsTakenOver(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	for name, content := range tornMarkers {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			dstHome := filepath.Join(t.TempDir(), "home")
			// A migration killed once it held the lock, as the older
			// version was before its marker was written whole.
			root, names := killedChild(t, src, dstHome, stepChildEnv+"=locked")
			if len(names) != 0 {
				t.Fatalf("killed once locked: the destination holds %v", names)
			}
			if err := os.WriteFile(filepath.Join(root, migrate.MarkerName), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
			rerunAfterKill(t, src, before, dstHome)
		})
	}
}

// A torn marker beside anything else (a file a writer of the destination
// put there), or a marker that is not cut short but unreadable, is
// refused as before: nothing proves what wrote the rest, and nothing is
// removed.
func TestATornMarkerWithMoreOrAnUnreadableMarkerIsRefused(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, nil, "")
	cases := map[string]struct {
		marker string
		more   bool
	}{
		"empty beside a session": {"", true},
		"cut beside a session":   {`{"liteAgentMigration":1,"sou`, true},
		"another version":        {`{"liteAgentMigration":2,"source":"/a"}`, false},
		"not a marker":           {"hello", false},
		"bytes after a marker":   {`{"liteAgentMigration":1,"source":"/a"}x`, false},
		"a bad byte":             {`{"liteAgentMigration":1,"source":x`, false},
		"plain json":             {`{}`, false},
	}
	for name, tc := range cases {
		t.Run(strings.ReplaceAll(name, " ", "_"), func(t *testing.T) {
			dstHome := t.TempDir()
			to := migrate.Endpoint{Storage: storage.Options{Home: dstHome}}
			root := resolve(t, workdir, to.Storage).ProjectDir()
			if err := os.MkdirAll(filepath.Join(root, storage.SessionsDirName), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, migrate.MarkerName), []byte(tc.marker), 0o600); err != nil {
				t.Fatal(err)
			}
			if tc.more {
				if err := os.WriteFile(filepath.Join(root, storage.SessionsDirName, "x.jsonl"), []byte("{}\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			was := treeHash(t, root)
			_, err := migrate.Run(t.Context(), migrate.Options{From: migrate.Endpoint{Workdir: workdir, Storage: src.opts}, To: to})
			if !errors.Is(err, migrate.ErrDestinationNotEmpty) || !strings.Contains(err.Error(), "cannot be read") {
				t.Fatalf("migrate over %s: %v, want the unreadable marker refused", name, err)
			}
			now := treeHash(t, root)
			delete(now, migrate.LockName) // the run's lock, released
			if fmt.Sprint(now) != fmt.Sprint(was) {
				t.Errorf("the refused run changed the destination: %v, was %v", slices.Sorted(maps.Keys(now)), slices.Sorted(maps.Keys(was)))
			}
		})
	}
}
