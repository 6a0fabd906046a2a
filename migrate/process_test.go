package migrate_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/lite-agent/lite-agent-go/internal/childtest"
	"github.com/lite-agent/lite-agent-go/migrate"
	"github.com/lite-agent/lite-agent-go/storage"
)

// childEnv makes the test binary act as a migrating child process: it
// migrates $MIGRATE_FROM to $MIGRATE_TO, says "ready" on stdout after two
// files ($MIGRATE_AFTER, if set), and then waits, mid-migration, to be
// killed.
const childEnv = "MIGRATE_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(runChild())
	}
	if v := os.Getenv(deleteChildEnv); v != "" {
		os.Exit(runDeleteChild(v))
	}
	if v := os.Getenv(stepChildEnv); v != "" {
		os.Exit(runStepChild(v))
	}
	if v := os.Getenv(abandonChildEnv); v != "" {
		os.Exit(runAbandonChild(v))
	}
	os.Exit(m.Run())
}

// childCodecs returns the codecs a migrating child reads and writes
// with, or says why it cannot on standard error.
func childCodecs() (from, to storage.Codec, ok bool) {
	from, err := newAEAD("k1", 1)
	if err == nil {
		to, err = newAEAD("k2", 2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return nil, nil, false
	}
	return from, to, true
}

func runChild() int {
	opts, ok := childOptions()
	if !ok {
		return 2
	}
	after := 2
	if n, err := strconv.Atoi(os.Getenv("MIGRATE_AFTER")); err == nil {
		after = n
	}
	var once sync.Once
	opts.AllProjects = os.Getenv("MIGRATE_ALL") != ""
	opts.Workers = 1
	// After every file: the child stops between two files.
	opts.ProgressInterval = -1
	opts.Progress = func(p migrate.Progress) {
		if p.Files < after {
			return
		}
		once.Do(func() { fmt.Println("ready") })
		_, _ = io.Copy(io.Discard, os.Stdin) // until killed: the parent never closes stdin
	}
	return finishChild(opts)
}

func TestInterruptedMigrationIsDetectedAndRerunFromScratch(t *testing.T) {
	src := buildProject(t, t.TempDir(), workdir, aead(t, "k1", 1), "")
	before := treeHash(t, src.home)
	dstHome := t.TempDir()

	killMidMigration(t, src.home, dstHome, false)

	unchanged(t, src.home, before)
	dstRoot := filepath.Join(dstHome, "projects", src.paths.Hash)
	if err := migrate.CheckComplete(dstRoot); !errors.Is(err, migrate.ErrIncomplete) {
		t.Fatalf("CheckComplete after the kill = %v, want ErrIncomplete", err)
	}
	if n := len(files(t, dstRoot)); n < 3 {
		t.Errorf("the child wrote only %d files before it was killed", n)
	}

	rerunCompletes(t, src, before, dstHome)
}

// rerunCompletes migrates the project of src to dstHome again, with the
// codecs of a killed child (see childCodecs), and fails t unless the
// rerun completes the destination, which then reads as the source, and
// leaves the source as before.
func rerunCompletes(t *testing.T, src fixture, before map[string]string, dstHome string) {
	t.Helper()
	to := aead(t, "k2", 2)
	rep, err := migrate.Run(t.Context(), migrate.Options{
		From: migrate.Endpoint{Workdir: workdir, Storage: src.opts},
		To:   migrate.Endpoint{Storage: storage.Options{Home: dstHome, Codec: to}},
	})
	if err != nil {
		t.Fatalf("rerun: %v", err)
	}
	if err := migrate.CheckComplete(rep.Destination.Root); err != nil {
		t.Error(err)
	}
	wantCounts(t, rep)
	dst := resolve(t, workdir, storage.Options{Home: dstHome})
	equalContents(t, read(t, src, dst, storage.Encoding{Codec: to, ProjectID: dst.Hash}), read(t, src, src.paths, src.enc()))
	unchanged(t, src.home, before)
}

// killMidMigration runs a child migrating the project of srcHome (with
// all, the whole home) to dstHome, and kills it with SIGKILL after it
// copied two files.
func killMidMigration(t *testing.T, srcHome, dstHome string, all bool) {
	t.Helper()
	killAfter(t, srcHome, dstHome, all, 2)
}

// killAfter is killMidMigration after the child copied files files.
func killAfter(t *testing.T, srcHome, dstHome string, all bool, files int) {
	t.Helper()
	env := []string{childEnv + "=1", "MIGRATE_FROM=" + srcHome, "MIGRATE_TO=" + dstHome, "MIGRATE_AFTER=" + strconv.Itoa(files)}
	if all {
		env = append(env, "MIGRATE_ALL=1")
	}
	if err := childtest.Start(t, "ready", env...).Kill(); err != nil {
		t.Fatal(err)
	}
	// The destination's lock, which the child held: as old as a kill long
	// ago, so that what comes next takes it over without waiting out
	// filelock.DefaultStale.
	childtest.StaleLocks(t, dstHome)
}
